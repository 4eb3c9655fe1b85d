"""The local service: a self-hostable implementation of the docsvc API (``docsvc-server``).

Layout: ``app`` builds the FastAPI app; ``routes`` are thin routers; ``services`` hold the rules
of the interface; ``db`` the tables, sessions and migrations; ``jobs`` the durable job queue and
its workers; ``engines`` the real work of the long-running actions.
"""

from .. import _httpx_cli  # noqa: F401,E402  (first: before anything imports httpx)
