"""Thin routers, one per resource: parse, call a service, shape the answer.

Record ids in paths are written ``{name:id}``: Starlette's ``int`` convertor reads any number of
digits with int(), which raises past 4,300 of them (Python's own limit) while the route is being
matched, outside every handler, so the request got a 500 and its connection was closed. Registered
here, before any router module defines a route with it."""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor

from ..problems import MAX_ID


class _IdConvertor(Convertor):
    regex = "[0-9]+"

    def convert(self, value: str) -> int:
        digits = value.lstrip("0")
        # any longer number is as far out of range: every id beyond MAX_ID is refused before the route
        # runs, a 422 naming the field (deps.JSONBodyRoute)
        return int(digits or "0") if len(digits) <= len(str(MAX_ID)) else MAX_ID + 1

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", _IdConvertor())
