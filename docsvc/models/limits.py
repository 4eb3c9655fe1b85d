"""Bounds of the wire format that both sides need: the service refuses more, and a client (the CI
layer) clips to them before sending. Plain numbers, no imports: cheap for the client install."""

from __future__ import annotations

# The largest id or stored integer the service takes, and so the largest a client sends: its
# columns are Integer, 32 bits on PostgreSQL (SQLite's hold 64), so the bound is PostgreSQL's and
# the answer the same on both databases. The service refuses one beyond it before the database sees
# it (SQLite would store it); the service's readers use it through problems.MAX_ID.
MAX_ID = 2**31 - 1

# pr_data of POST /docflows/generate, in characters. The code hosts' own caps sit below: GitHub 256
# for a title, 65,536 for a description. A pull request's title becomes its suggestion's title, so
# it has the bound of an item's title (the service's limits.MAX_TITLE).
PR_TITLE_MAX = 500
PR_BODY_MAX = 65536
