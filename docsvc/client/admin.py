"""``client.admin``: System Administrator listings (users, repository integrations, webhook deliveries)."""

from __future__ import annotations

from docsvc.models.integrations import Integration, WebhookDelivery
from docsvc.models.users import User

from ._resource import APIResource

__all__ = ["AdminResource"]


class AdminResource(APIResource):
    def list_users(self) -> list[User]:
        """The organisation's users (the source of user ids). 403 for non-admins."""
        return self._client.call("admin.list_users", cast=list[User])

    def list_integrations(self) -> list[Integration]:
        """The organisation's repository integrations. 403 for non-admins."""
        return self._client.call("admin.list_integrations", cast=list[Integration])

    def list_webhook_deliveries(self, integration_id: int) -> list[WebhookDelivery]:
        """The webhook deliveries of an integration, newest first. 403 for non-admins."""
        return self._client.call("admin.list_webhook_deliveries", path_params={"id": integration_id},
                                 cast=list[WebhookDelivery])
