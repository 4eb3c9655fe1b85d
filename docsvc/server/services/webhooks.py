"""Webhooks from the code hosts: the integration's secret and webhook URL (the Webhook dialog),
receiving a delivery, and the record of every delivery.

A delivery is checked (its signature, with the integration's secret), recorded, and turned into
at most one small step: a sync or a suggestion queued as a job, or a docs pull request's state or
review written on its item. Nothing slow runs while the code host waits for the answer (GitHub
gives up after 10 seconds); the jobs do the work. A delivery id is taken once per integration, so
a redelivery does nothing again; and so is a body, by its digest: the signature does not cover the
delivery id, so a captured body sent again under a fresh id is a replay and does nothing either.

Deliveries are kept for the retention the settings give (``webhook_retention_days``), removed as
new ones come. A replay is only known while the first delivery is kept: past that, a pull request
or review event is known by its own time, which the signature covers, and one older than the
retention is ignored. (A replayed push queues a sync of the branch as it is now: no harm.)
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from dataclasses import dataclass

from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db.session import rfc3339
from ..db.tables import Integration, Item, Job, WebhookDelivery, utcnow
from ..engines import webhooks as hooks
from ..problems import Problem, as_id
from .accounts import AdminError
from .repos import start_sync, sync_key

__all__ = ["secret_for", "webhook_url", "receive", "deliveries", "delivery_view"]

DOCSVC_BRANCHES = "docsvc/"  # the branches docsvc pushes its docs changes to (docsvc/suggestion-<id>, ...)
_REFUSED = "The webhook delivery is not signed with this integration's secret"


def host_of(integration: Integration) -> str | None:
    """``github`` or ``gitlab``: the host whose webhooks the integration takes; None for plain git."""
    return integration.host if integration.host in hooks.HOSTS else None


def secret_for(session: Session, integration: Integration, *, rotate: bool = False) -> str:
    """The integration's webhook secret, made on first use or anew with ``rotate`` (deliveries
    signed with the old one are refused from then on). The caller commits."""
    if rotate or not integration.webhook_secret:
        integration.webhook_secret = secrets.token_hex(32)
    return integration.webhook_secret


def webhook_url(public_base: str, integration: Integration) -> str:
    host = host_of(integration)
    if host is None:
        raise AdminError(f"integration {integration.id} has no code host that sends webhooks (its code repository "
                         "is plain git): set --host github or gitlab with 'docsvc-server integrations update'")
    return f"{public_base}/api/v1/webhooks/{host}/{integration.id}"


@dataclass
class Outcome:
    outcome: str  # done | ignored | refused
    result: str
    job_id: str | None = None

    def view(self, delivery: str, event: str) -> dict:
        return {"delivery": delivery, "event": event, "outcome": self.outcome, "result": self.result,
                "job_id": self.job_id}


def receive(session: Session, *, host: str, integration_ref: str, headers: dict[str, str], body: bytes,
            max_attempts: int, retention_days: float = 0) -> tuple[int, dict]:
    """Take one delivery (``headers`` with lower-case names): (HTTP status, answer). 401, with
    nothing recorded, unless it is signed with the integration's secret; an unknown integration
    reads the same."""
    integration_id = as_id(integration_ref)
    integration = session.get(Integration, integration_id) if integration_id is not None else None
    if integration is not None and host_of(integration) != host:
        # The other host's path, or an integration moved to plain git: its secret signs nothing here.
        integration = None
    if not hooks.signed(host, integration.webhook_secret if integration else None, body, headers):
        header = "X-Hub-Signature-256" if host == "github" else "X-Gitlab-Token"
        raise Problem(401, f"{_REFUSED} ({header} missing or wrong)")
    assert integration is not None
    kept_since = utcnow() - dt.timedelta(days=retention_days) if retention_days > 0 else None
    if kept_since is not None:
        session.execute(delete(WebhookDelivery).where(WebhookDelivery.integration_id == integration.id,
                                                      WebhookDelivery.received_at < kept_since))
    event = hooks.event_name(host, headers)
    digest = hooks.body_digest(body)
    delivery = hooks.delivery_id(host, headers) or "sha256:" + digest
    earlier = session.scalar(select(WebhookDelivery).where(WebhookDelivery.integration_id == integration.id,
                                                           WebhookDelivery.delivery_id == delivery))
    if earlier is not None and earlier.outcome != "refused":
        return 200, {"delivery": delivery, "event": event, "outcome": "redelivery",
                     "result": f"delivery already received at {rfc3339(earlier.received_at)}: nothing done again",
                     "job_id": earlier.job_id}
    record = earlier or WebhookDelivery(integration_id=integration.id, delivery_id=delivery, host=host,
                                        event=event or "(none)", outcome="refused", result="")
    seen = session.scalar(select(WebhookDelivery).where(WebhookDelivery.integration_id == integration.id,
                                                        WebhookDelivery.body_sha256 == digest))
    if seen is not None:
        return _replay(session, record, seen, event)
    unreadable = None
    try:
        payload = json.loads(body)
    except RecursionError:  # a signed body, but deeper than any host's payload
        unreadable = "the body is JSON nested too deeply to read"
    except ValueError:
        unreadable = "the body is not JSON: set the webhook's content type to application/json"
    parsed = hooks.parse(host, event, payload) if unreadable is None else None
    record.action = (parsed.action if parsed else None) or None
    # A refused body claims nothing: the same bytes are refused again, never taken as a replay.
    record.body_sha256 = digest if parsed is not None else None
    session.add(record)
    try:
        # The unique (integration, delivery id) and (integration, body digest) rows: a redelivery or
        # a replay at the same moment loses.
        session.flush()
    except IntegrityError:
        session.rollback()
        return 200, {"delivery": delivery, "event": event, "outcome": "redelivery",
                     "result": "delivery, or the same body, already being received: nothing done again",
                     "job_id": None}
    if parsed is None:
        record.outcome, record.result = "refused", unreadable
        session.commit()
        raise Problem(400, f"The webhook delivery {delivery} is refused: {unreadable}")
    outcome = (_too_old(parsed.at, retention_days) if kept_since is not None and parsed.at is not None
               and parsed.at < kept_since else _act(session, integration, parsed, max_attempts))
    record.outcome, record.result, record.job_id = outcome.outcome, outcome.result, outcome.job_id
    session.commit()
    return (202 if outcome.job_id else 200), outcome.view(delivery, event)


def _replay(session: Session, record: WebhookDelivery, seen: WebhookDelivery, event: str) -> tuple[int, dict]:
    """Answer a signed body already taken under another delivery id: 200 (a host's own retry is no
    error), nothing done. It is recorded, claiming no body, so an administrator sees the replay in
    the listing; its delivery id is taken, so sending it again is a plain redelivery."""
    record.outcome, record.action, record.job_id = "replay", seen.action, None
    record.result = (f"the same signed body was received as delivery {seen.delivery_id} at "
                     f"{rfc3339(seen.received_at)}: a replay, nothing done again")
    answer = {"delivery": record.delivery_id, "event": event, "outcome": "replay", "result": record.result,
              "job_id": None}
    session.add(record)
    try:
        session.commit()
    except IntegrityError:  # the same delivery id recorded at the same moment: that one stands
        session.rollback()
    return 200, answer


def _too_old(at: dt.datetime, retention_days: float) -> Outcome:
    return Outcome("ignored", f"the event is from {rfc3339(at)}, older than the {retention_days:g} days deliveries are "
                              "kept: a replay, or a redelivery too late to tell from one; nothing done")


def _act(session: Session, integration: Integration, event: hooks.Event, max_attempts: int) -> Outcome:
    if event.kind == "ping":
        return Outcome("done", "pong: the webhook reaches docsvc")
    if event.kind in ("push", "pull_request", "review"):
        foreign = _foreign(integration, event)
        if foreign is not None:
            return Outcome("ignored", foreign)
    if event.kind == "push":
        return _push(session, integration, event, max_attempts)
    if event.kind in ("pull_request", "review"):
        item = _docs_pull_request(session, integration, event)
        if item is not None:
            return _follow(item, event)
        if event.kind == "pull_request":
            return _code_pull_request(session, integration, event, max_attempts)
        return Outcome("ignored", f"a review of pull request #{event.pr.get('number')}, which is no docs pull "
                                  "request docsvc opened")
    return Outcome("ignored", event.reason or "nothing to do")


def _sides(integration: Integration, repo: str | None) -> set[str]:
    """Which of the integration's repositories (code, docs) ``repo`` is, as the host names it."""
    named = (repo or "").lower()
    return {side for side in ("code", "docs")
            if named and (getattr(integration, f"{side}_host_repo") or "").lower() == named}


def _foreign(integration: Integration, event: hooks.Event) -> str | None:
    """Why a delivery about a repository that is not the integration's own is ignored, else None.
    The secret proves who sent it, not that it concerns this integration: a payload naming
    another repository (one of another integration, of the same organisation or not) must move
    nothing here."""
    if _sides(integration, event.repo):
        return None
    unknown = "" if integration.code_host_repo else (
        f" (the code repository's project on {integration.host} is not known: docsvc-server integrations update "
        f"--integration {integration.id} --code-host-repo OWNER/NAME)")
    return (f"a delivery about {event.repo or 'no repository'}, which is neither the code repository nor the docs "
            f"repository of integration {integration.id}{unknown}")


def _push(session: Session, integration: Integration, event: hooks.Event, max_attempts: int) -> Outcome:
    sides = _sides(integration, event.repo)
    branches = {getattr(integration, f"{side}_branch") for side in sides}
    if event.branch not in branches:
        names = " or ".join(f"the {side} branch" for side in sorted(sides))
        return Outcome("ignored", f"a push to {event.branch} of {event.repo}, which is not {names}")
    if not integration.keep_in_sync:
        return Outcome("ignored", f"a push to {event.branch}; Keep in sync is off for this integration")
    # A sync still waiting will see this push; one already running may have fetched before it.
    waiting = session.scalar(select(Job.id).where(Job.concurrency_key == sync_key(integration.id),
                                                  Job.state == "queued").limit(1))
    if waiting is not None:
        return Outcome("done", f"a push to {event.branch}: the sync already queued will take it", waiting)
    job = start_sync(session, org_id=integration.org_id, user_id=None, integration_id=integration.id,
                     max_attempts=max_attempts)
    return Outcome("done", f"a push to {event.branch}: sync queued", job.id)


def _docs_pull_request(session: Session, integration: Integration, event: hooks.Event) -> Item | None:
    """The item whose docs pull request (the one docsvc opened) the event is about: matched by its
    repository and number, or by its branch (a plain-git branch someone opened a pull request of).
    Any item of the organisation, done ones too (a late review still shows), looked up by the
    database: unlike the poll's ``pull_requests.items_with_pull_request``, which walks the open
    pull requests of given integrations."""
    number, branch = event.pr.get("number"), event.pr.get("head_branch")
    matches = []
    if isinstance(number, int) and not isinstance(number, bool):
        matches.append(Item.pull_request["number"].as_integer() == number)
    if branch:
        matches.append(Item.pull_request["branch"].as_string() == branch)
    if not matches:
        return None
    repo = (event.repo or "").lower()
    # Only this integration's items (or a plain-git branch's, which names none): another
    # integration's items follow through its own webhook.
    for item in session.scalars(select(Item).where(Item.org_id == integration.org_id, Item.pull_request.is_not(None),
                                                   or_(*matches)).order_by(Item.id.desc())).unique():
        pull = item.pull_request or {}
        if pull.get("integration_id") not in (None, integration.id):
            continue
        if pull.get("number") == number and pull.get("repo") and str(pull["repo"]).lower() == repo:
            return item
        if branch and pull.get("branch") == branch and (not pull.get("repo") or str(pull["repo"]).lower() == repo):
            return item
    return None


_STATES = {"opened": "open", "pushed": "open", "reopened": "open", "ready": "open", "closed": "closed",
           "merged": "merged"}


def _follow(item: Item, event: hooks.Event) -> Outcome:
    """Write the docs pull request's state or review on its item (``pull_requests.apply_state``, as
    the poll does); merged moves the item to done."""
    from .pull_requests import apply_state

    current = (item.pull_request or {}).get("state") or "open"
    if event.kind == "review":
        apply_state(item, current, event.review)
        return Outcome("done", f"item {item.id}: docs pull request review is now {event.review}")
    state = _STATES.get(event.action)
    if state is None:
        return Outcome("ignored", f"item {item.id}: docs pull request {event.action}, no change of state")
    if current == "merged" and state != "merged":  # a merge is final on both hosts: a late event moves nothing
        return Outcome("ignored", f"item {item.id}: docs pull request is merged; {event.action} changes nothing")
    apply_state(item, state)
    if state == "merged":
        return Outcome("done", f"item {item.id}: docs pull request merged; the item is {item.work_status}")
    return Outcome("done", f"item {item.id}: docs pull request is now {state}")


def _code_pull_request(session: Session, integration: Integration, event: hooks.Event,
                       max_attempts: int) -> Outcome:
    from . import docflows

    pr = event.pr
    number = pr.get("number")
    if "code" not in _sides(integration, event.repo):
        return Outcome("ignored", f"pull request #{number} of {event.repo}, not of the code repository")
    if pr.get("base_branch") and pr["base_branch"] != integration.code_branch:
        return Outcome("ignored", f"pull request #{number} targets {pr['base_branch']}, not the code branch "
                                  f"{integration.code_branch}")
    if str(pr.get("head_branch") or "").startswith(DOCSVC_BRANCHES) and not pr.get("fork"):
        # docsvc's own docs pull request, heard before its item recorded it (code and docs in one
        # repository): never a code change to suggest docs for.
        return Outcome("ignored", f"pull request #{number} comes from a branch docsvc pushed ({pr['head_branch']})")
    if event.action not in ("opened", "pushed", "reopened", "ready"):
        return Outcome("ignored", f"pull request #{number} {event.action}: no suggestion to make")
    if pr.get("draft"):
        return Outcome("ignored", f"pull request #{number} is a draft: its suggestion waits until it is ready")
    # The fork's branch names nothing in the code repository: its head is found by commit and by
    # the host's own ref of the pull request; nothing of the fork runs, its commit is only read.
    data = {k: pr.get(k) for k in ("number", "title", "body", "author", "head_sha", "base_branch", "url")}
    if not pr.get("fork"):
        data["head_branch"] = pr.get("head_branch")
    data["fork"] = bool(pr.get("fork"))
    try:
        data = docflows.check_pr_data({k: v for k, v in data.items() if v is not None})
    except Problem as exc:
        return Outcome("ignored", f"pull request #{number}: {exc.detail}")
    job = docflows.enqueue_generate(session, org_id=integration.org_id, user_id=None, integration_id=integration.id,
                                    pr=data, screenshots=[], max_attempts=max_attempts, per_pull_request=True)
    return Outcome("done", f"pull request #{number} {event.action}: its suggestion is queued", job.id)


def deliveries(session: Session, integration_id: int, limit: int = 100, offset: int = 0) -> tuple[list[WebhookDelivery],
                                                                                             int]:
    """The integration's deliveries, newest first, and how many there are in all."""
    from sqlalchemy import func

    where = WebhookDelivery.integration_id == integration_id
    total = session.scalar(select(func.count()).select_from(WebhookDelivery).where(where)) or 0
    rows = session.scalars(select(WebhookDelivery).where(where)
                           .order_by(WebhookDelivery.received_at.desc(), WebhookDelivery.id.desc())
                           .limit(limit).offset(offset))
    return list(rows), total


def delivery_view(record: WebhookDelivery) -> dict:
    return {"id": record.id, "delivery": record.delivery_id, "host": record.host, "event": record.event,
            "action": record.action, "outcome": record.outcome, "result": record.result, "job_id": record.job_id,
            "received_at": rfc3339(record.received_at)}
