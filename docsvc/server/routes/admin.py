from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import User
from ..services.accounts import Caller, require_admin
from ..services.integrations import list_integrations
from ..services.views import integration_view, user_view
from .deps import JSONBodyRoute, Page, get_caller, get_session, paging

router = APIRouter(tags=["admin"], route_class=JSONBodyRoute)


@router.get("/admin/users")
def users(caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    require_admin(caller, "Listing users")
    rows = session.scalars(select(User).where(User.org_id == caller.org_id).order_by(User.id))
    return [user_view(u) for u in rows]


@router.get("/admin/integrations")
def integrations(caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    require_admin(caller, "Listing integrations")
    return [integration_view(i) for i in list_integrations(session, caller.org_id)]


@router.get("/admin/integrations/{integration_id:id}/webhook-deliveries")
def webhook_deliveries(integration_id: int, response: Response, page: Page = Depends(paging),
                       caller: Caller = Depends(get_caller), session: Session = Depends(get_session)):
    """The webhook deliveries of an integration, newest first (what ``docsvc-server integrations
    deliveries`` lists)."""
    from ..services.repos import org_integration
    from ..services.webhooks import deliveries, delivery_view

    require_admin(caller, "Listing webhook deliveries")
    rows, total = deliveries(session, org_integration(session, caller, integration_id).id, page.limit, page.offset)
    page.link(response, total)
    return [delivery_view(d) for d in rows]
