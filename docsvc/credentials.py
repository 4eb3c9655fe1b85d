"""URLs shown without the credentials written into them.

A repository or service URL may carry a token as its user or password
(``https://x-access-token:ghp_...@github.com/acme/app.git``, ``http://user:pw@host``). Git and HTTP
use it as given, but nobody reading a list, an error, a job's progress or a CI log may see it:
``hidden(text)`` replaces the user information of every URL in a text by ``***``, so it serves a URL
alone and a message quoting one. An scp-like address (``git@github.com:acme/app.git``) holds no secret
and is left alone.

A URL may also carry a secret as a query parameter: a conversion's share link
(``/api/v1/conversions/20/document?key=...``), an OAuth ``access_token``, a signed URL's signature.
``hidden_query(text)`` replaces the value of every parameter named in ``SECRET_QUERY_PARAMS`` by
``***``, wherever a URL stands in the text; the service's access log goes through it
(``docsvc/server/logredact.py``).

A secret the program holds (an API key, a token) may come back quoted in what a service answers:
``redacted(value, secrets)`` replaces each of them by ``***`` in a text, or in every text of a
JSON-like value or dataclass (the CI layer's outcome), before anything escapes or writes it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, TypeVar
from urllib.parse import unquote_plus

__all__ = ["SECRET_QUERY_PARAMS", "hidden", "hidden_query", "redacted", "url_secrets_hidden"]

T = TypeVar("T")

# scheme://userinfo@ : userinfo is whatever stands before the first @ of the authority (RFC 3986:
# no / ? # in it, and no whitespace in a URL quoted in prose); or, at the very start of a text, a
# URL written without its scheme (``user:secret@host``: the colon tells it from ``git@host:path``).
_USERINFO = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s]*@|^()[^/?#@:\s]*:[^/?#@\s]*@")


def hidden(text: str) -> str:
    """``text`` with the user information of every URL in it replaced by ``***``. Works on malformed
    URLs too (a regex, not a URL parser): error messages quote those."""
    return _USERINFO.sub(lambda m: f"{m.group(1) or ''}***@", text) if "@" in text else text


# Query parameters whose value is a secret, compared without case and after percent-decoding.
SECRET_QUERY_PARAMS = frozenset({
    "key", "token", "api_key", "apikey", "api-key", "access_token", "refresh_token", "id_token",
    "auth", "auth_token", "password", "passwd", "secret", "client_secret", "share_key",
    "sig", "signature", "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature",
})

# One ``name=value`` of a query: after ?, & or ;, up to the next separator, fragment, space or quote,
# or a ] or ) that closes something around the URL (followed by "(", a space, "|" or the end): a
# Markdown link ``[http://h/x?key=v](http://h/x?key=v)`` keeps its brackets, its second URL and the
# table cell after it; a ) inside a value (``key=a)b``) is still part of the value.
_QUERY_PARAM = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;?#\s\"'<>]+)="
                          r"(?P<value>(?:[^&;#\s\"'<>\])]|[\])](?![(\s|]|$))*)")


def _mask(match: re.Match) -> str:
    if unquote_plus(match["name"]).strip().lower() in SECRET_QUERY_PARAMS and match["value"]:
        return f"{match['lead']}{match['name']}=***"
    return match[0]


def hidden_query(text: str) -> str:
    """``text`` with the value of every secret query parameter (``SECRET_QUERY_PARAMS``) of the
    URLs in it replaced by ``***``: ``/document?key=abc&x=1`` -> ``/document?key=***&x=1``."""
    return _QUERY_PARAM.sub(_mask, text) if "=" in text else text


def url_secrets_hidden(text: str) -> str:
    """``text`` with both kinds of a URL's secrets hidden: its user information (``hidden``) and its
    secret query values (``hidden_query``). For what goes to a log."""
    return hidden(hidden_query(text))


def redacted(value: T, secrets: Iterable[str | None]) -> T:
    """``value`` with every occurrence of each secret replaced by ``***``: in a text, and in the texts
    (keys too) of the lists, tuples, mappings and dataclasses in it, which are copied, never changed
    in place. Empty secrets are ignored; the longest is replaced first."""
    known = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not known:
        return value

    def walk(item):
        if isinstance(item, str):
            for secret in known:
                if secret in item:
                    item = item.replace(secret, "***")
            return item
        if isinstance(item, dict):
            return {walk(k): walk(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return type(item)(walk(v) for v in item)
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return dataclasses.replace(item, **{f.name: walk(getattr(item, f.name))
                                                for f in dataclasses.fields(item) if f.init})
        return item

    return walk(value)
