"""``Client``: the typed entry point, one attribute per resource group.

Resource groups are created on first use (``functools.cached_property``) and import their
module, and its wire models, only then: a command that lists items never loads the Docflows
models.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from ._base import BaseClient

if TYPE_CHECKING:
    from docsvc.config import Settings

    from .admin import AdminResource
    from .captures import CapturesResource
    from .chats import ChatsResource
    from .convert import ConvertResource
    from .dashboard import DashboardResource
    from .diagrams import DiagramsResource
    from .docflows import DocflowsResource
    from .feature_drafts import FeatureDraftsResource
    from .items import ItemsResource
    from .jobs import JobsResource
    from .me import MeResource
    from .oas import OasResource
    from .release_notes import ReleaseNotesResource
    from .releases import ReleasesResource
    from .repos import ReposResource
    from .search import SearchResource

__all__ = ["Client"]


class Client(BaseClient):
    """Typed client of the docsvc API (``{base_url}/api/v1``).

    ``Client(api_key, base_url=DEFAULT_BASE_URL, *, timeout=..., max_retries=3, ...)``; see
    ``BaseClient`` for every option. Use it as a context manager, or call ``close()``.
    Attribute and method names follow ``docsvc.endpoints``: endpoint ``"items.list"`` is
    ``client.items.list``.
    """

    @classmethod
    def from_settings(cls, settings: Settings, **options: Any) -> Client:
        """A client for the configured service; raises ``MissingApiKey`` without a key."""
        return cls(settings.require_key(), settings.base_url, **options)

    def __enter__(self) -> Client:
        return self

    @cached_property
    def jobs(self) -> JobsResource:
        from .jobs import JobsResource

        return JobsResource(self)

    @cached_property
    def items(self) -> ItemsResource:
        from .items import ItemsResource

        return ItemsResource(self)

    @cached_property
    def repos(self) -> ReposResource:
        from .repos import ReposResource

        return ReposResource(self)

    @cached_property
    def convert(self) -> ConvertResource:
        from .convert import ConvertResource

        return ConvertResource(self)

    @cached_property
    def docflows(self) -> DocflowsResource:
        from .docflows import DocflowsResource

        return DocflowsResource(self)

    @cached_property
    def oas(self) -> OasResource:
        from .oas import OasResource

        return OasResource(self)

    @cached_property
    def diagrams(self) -> DiagramsResource:
        from .diagrams import DiagramsResource

        return DiagramsResource(self)

    @cached_property
    def feature_drafts(self) -> FeatureDraftsResource:
        from .feature_drafts import FeatureDraftsResource

        return FeatureDraftsResource(self)

    @cached_property
    def captures(self) -> CapturesResource:
        from .captures import CapturesResource

        return CapturesResource(self)

    @cached_property
    def chats(self) -> ChatsResource:
        from .chats import ChatsResource

        return ChatsResource(self)

    @cached_property
    def release_notes(self) -> ReleaseNotesResource:
        from .release_notes import ReleaseNotesResource

        return ReleaseNotesResource(self)

    @cached_property
    def dashboard(self) -> DashboardResource:
        from .dashboard import DashboardResource

        return DashboardResource(self)

    @cached_property
    def me(self) -> MeResource:
        from .me import MeResource

        return MeResource(self)

    @cached_property
    def releases(self) -> ReleasesResource:
        from .releases import ReleasesResource

        return ReleasesResource(self)

    @cached_property
    def admin(self) -> AdminResource:
        from .admin import AdminResource

        return AdminResource(self)

    @cached_property
    def search(self) -> SearchResource:
        from .search import SearchResource

        return SearchResource(self)
