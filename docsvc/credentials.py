"""URLs shown without the credentials written into them.

A repository or service URL may carry a token as its user or password
(``https://x-access-token:ghp_...@github.com/acme/app.git``, ``http://user:pw@host``). Git and HTTP
use it as given, but nobody reading a list, an error, a job's progress or a CI log may see it:
``hidden(text)`` replaces the user information of every URL in a text by ``***``, so it serves a URL
alone and a message quoting one. An scp-like address (``git@github.com:acme/app.git``) holds no secret
and is left alone.
"""

from __future__ import annotations

import re

__all__ = ["hidden"]

# scheme://userinfo@ : userinfo is whatever stands before the first @ of the authority (RFC 3986:
# no / ? # in it, and no whitespace in a URL quoted in prose); or, at the very start of a text, a
# URL written without its scheme (``user:secret@host``: the colon tells it from ``git@host:path``).
_USERINFO = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s]*@|^()[^/?#@:\s]*:[^/?#@\s]*@")


def hidden(text: str) -> str:
    """``text`` with the user information of every URL in it replaced by ``***``. Works on malformed
    URLs too (a regex, not a URL parser): error messages quote those."""
    return _USERINFO.sub(lambda m: f"{m.group(1) or ''}***@", text) if "@" in text else text
