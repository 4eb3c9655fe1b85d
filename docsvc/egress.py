"""One egress policy for every fetch the service makes: captures and screenshots in the browser
(each request and each redirect hop) and git remotes; and for the remote ``$ref`` documents the
CLI fetches (``--allow-remote-refs``, its setting ``DOCSVC_REMOTE_REFS_ALLOW``), since a spec from a
pull request must not make a CI runner read its cloud's metadata service either. Below the client
and the server both, so it imports neither.

A host is resolved and refused when any of its addresses is internal: loopback, link-local
(cloud metadata at 169.254.169.254), private, unique-local, site-local, multicast, unspecified,
reserved, shared (CGNAT), or one of those inside an IPv4-mapped, 6to4 or NAT64 IPv6 address.
``DOCSVC_SERVER_EGRESS_ALLOW`` lets some through: ``host`` or ``host:port`` entries, or
``internal`` for every internal address (the demo and the tests, whose pages are on loopback).

Git remotes must be ``https://`` or ``ssh://`` (or ``user@host:path``); local paths and
``file://`` only while ``DOCSVC_SERVER_ALLOW_LOCAL_REPOS`` is on (the default: repositories are
registered by the operator, on the operator's machine). A location that starts with ``-`` is
never passed to git. Git then follows no HTTP redirect and connects to the addresses checked
(engines/git.py, ``_remote_options``).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["Egress", "EgressRefused", "internal_address"]

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_SHARED = ipaddress.ip_network("100.64.0.0/10")
_SCP_LIKE = re.compile(r"^(?:[\w.+-]+@)?(\[[0-9A-Fa-f:.]+\]|[\w.-]+):(?!//)(.*)$")


class EgressRefused(Exception):
    """The service will not connect there; the message names the address and why."""


def internal_address(address: str) -> bool:
    """Whether an IP address (v4 or v6, any spelling Python reads) is not on the public internet."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if ip.version == 6:
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            return internal_address(str(embedded))
        if ip.is_site_local:
            return True
    elif ip in _SHARED:
        return True
    return (ip.is_loopback or ip.is_link_local or ip.is_private or ip.is_multicast or ip.is_unspecified
            or ip.is_reserved)


def _literal(host: str) -> str | None:
    """The host as an IP address when it is written as one (also ``[::1]``, ``0x7f.1``), else None."""
    bare = host.strip("[]")
    try:
        return str(ipaddress.ip_address(bare.split("%", 1)[0]))
    except ValueError:
        pass
    try:  # inet_aton reads the old forms browsers accept: 2130706433, 0x7f.1, 127.1
        if re.fullmatch(r"[0-9a-fA-FxX.]+", bare):
            return socket.inet_ntoa(socket.inet_aton(bare))
    except OSError:
        pass
    return None


@dataclass(frozen=True)
class Egress:
    """Where the service may connect. ``allow`` holds ``host`` / ``host:port`` entries let through
    although internal; ``allow_internal`` lets every internal address through."""

    allow: frozenset[str] = frozenset()
    allow_internal: bool = False
    allow_local_repos: bool = True
    setting: str = "DOCSVC_SERVER_EGRESS_ALLOW"  # named in refusals: what lets a host through
    who: str = "the service"

    @classmethod
    def from_setting(cls, value: str | None, *, allow_local_repos: bool = True,
                     setting: str = "DOCSVC_SERVER_EGRESS_ALLOW", who: str = "the service") -> "Egress":
        entries = {e.strip().lower() for e in (value or "").split(",") if e.strip()}
        return cls(frozenset(entries - {"internal"}), "internal" in entries, allow_local_repos, setting, who)

    def _allowed(self, host: str, port: int | None) -> bool:
        host = host.lower().strip("[]")
        return self.allow_internal or host in self.allow or (port is not None and f"{host}:{port}" in self.allow)

    def check_literal(self, url: str) -> None:
        """Refuse a URL whose host is written as an internal address (or ``localhost``), without
        any DNS: for the moment a request is made, so the caller answers 4xx at once."""
        parts = urlsplit(url)
        self._check_written(url, parts.hostname or "", parts.port)

    def _check_written(self, shown: str, host: str, port: int | None) -> list[str]:
        """``check_literal`` of one host (``shown`` in the refusal); [] (nothing resolved)."""
        if not host or self._allowed(host, port):
            return []
        literal = _literal(host)
        if host.rstrip(".").lower() == "localhost" or host.lower().endswith(".localhost") or (
                literal is not None and internal_address(literal)):
            raise EgressRefused(f"{shown} points at an internal address ({literal or host}); {self.who} does not "
                                f"connect there ({self.setting} lets a host through)")
        return []

    def addresses(self, host: str, port: int | None = None) -> list[str]:
        """The addresses to connect to for ``host``, resolved once; EgressRefused when any of them
        is internal and the host is not let through."""
        if not host:
            raise EgressRefused("no host given")
        literal = _literal(host)
        try:
            found = [literal] if literal else list(dict.fromkeys(info[4][0] for info in socket.getaddrinfo(
                host.strip("[]"), port or 443, proto=socket.IPPROTO_TCP)))
        except (socket.gaierror, UnicodeError) as exc:
            raise EgressRefused(f"{host} does not resolve: {exc}") from None
        internal = [a for a in found if internal_address(a)]
        if internal and not self._allowed(host, port):
            raise EgressRefused(f"{host} resolves to an internal address ({internal[0]}); {self.who} does not "
                                f"connect there ({self.setting} lets a host through)")
        return found

    def check_host(self, host: str, port: int | None = None) -> list[str]:
        """Resolve ``host`` and refuse it when any address it has is internal; the addresses it
        checked ([] when the host is let through unchecked, or written as an address)."""
        if host and self._allowed(host, port):
            return []
        found = self.addresses(host, port)
        return [] if _literal(host) else found

    def check_url(self, url: str) -> None:
        """A web address the browser may open: http(s), to a host that is not internal."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise EgressRefused(f"{url}: only http and https addresses are opened")
        self.check_host(parts.hostname or "", parts.port)

    def check_git(self, location: str, *, resolve: bool = True) -> list[str]:
        """A git remote the service may fetch from or push to (see the module's rules); the
        addresses its host was checked at (see ``check_host``), for git to connect to those and
        not to what a second lookup answers. ``resolve=False`` asks no DNS (registering a remote:
        its host is checked again at each use) and refuses only a host written as internal."""
        def check(host: str, port: int | None) -> list[str]:
            if resolve:
                return self.check_host(host, port)
            if not host:
                raise EgressRefused(f"{location}: no host given")
            return self._check_written(location, host, port)

        if location.startswith("-"):
            raise EgressRefused(f"{location!r} is not a repository location (it starts with '-')")
        if re.match(r"^[A-Za-z][\w+.-]*::", location):  # git's <transport>::<address> (ext::, fd::)
            raise EgressRefused(f"{location}: only https://, ssh:// and user@host:path remotes are fetched")
        if "://" in location:
            parts = urlsplit(location)
            if parts.scheme == "file":
                if not self.allow_local_repos:
                    raise EgressRefused(f"{location}: local repositories are off (DOCSVC_SERVER_ALLOW_LOCAL_REPOS)")
                return []
            if parts.scheme not in ("https", "ssh"):
                raise EgressRefused(f"{location}: only https://, ssh:// and user@host:path remotes are fetched")
            return check(parts.hostname or "", parts.port)
        match = _SCP_LIKE.match(location)
        if match and not re.match(r"^[A-Za-z]:[\\/]", location) and not location.startswith(("/", ".")):
            return check(match.group(1).strip("[]"), 22)
        if not self.allow_local_repos:
            raise EgressRefused(f"{location}: local repositories are off (DOCSVC_SERVER_ALLOW_LOCAL_REPOS)")
        return []
