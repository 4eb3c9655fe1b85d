"""Bounds of the wire format that both sides need: the service refuses more, and a client (the CI
layer) clips to them before sending. Plain numbers, no imports: cheap for the client install."""

from __future__ import annotations

# pr_data of POST /docflows/generate, in characters. The code hosts' own caps sit below: GitHub 256
# for a title, 65,536 for a description. A pull request's title becomes its suggestion's title, so
# it has the bound of an item's title (the service's limits.MAX_TITLE).
PR_TITLE_MAX = 500
PR_BODY_MAX = 65536
