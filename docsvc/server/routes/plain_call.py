"""A route's endpoint called with its plain parameters read straight from the request, without
FastAPI's dependency solving, whenever every value the request gives reads the same either way.

FastAPI solves a route's dependencies anew for each request: for each parameter it looks at its
annotation again, validates the value through pydantic and deep-copies its default. On a hot read
of a few rows (``deps.hot_read``) that was half of the request's CPU (benchmarks/api_profile.py
``--profile items``). A route whose parameters are all plain, known at start-up, needs none of it:

- the route's and its dependencies' parameters are path or query values annotated ``str``,
  ``int``, ``float`` or ``bool`` (or one of them ``| None``), bounded only by ``ge``/``gt``/``le``/
  ``lt``, or the ``Request``;
- its dependencies are async functions (no generators, no classes, no security schemes, none
  with ``use_cache=False``), and the endpoint is async and answers a ``Response``
  (``deps._answered_as_json``).

Such a route gets ``plain_handler``: it reads each value itself, and only when every value is one
that FastAPI would read the same (digits for an ``int``, ``true``/``false`` for a ``bool``, within
its bounds, present when required), it calls the dependencies and the endpoint. Anything else,
and any app with dependency overrides or FastAPI's telemetry on, goes to FastAPI's own handler,
so every refusal (422) and its wording stay FastAPI's. tests/unit/test_plain_call.py holds both
answers side by side.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from typing import Any, Awaitable, Callable, NamedTuple

import annotated_types
from fastapi.dependencies.models import Dependant
from fastapi.telemetry import get_telemetry_data
from starlette.requests import Request
from starlette.responses import Response

Handler = Callable[[Request], Awaitable[Response]]

_REFUSED = object()  # a value FastAPI must judge: the request goes to its handler
_MISSING = object()
# The values read alike by int() and pydantic's lax mode; anything else ("+1", " 1", "1_0") is
# left to pydantic. 18 digits: within a 64-bit integer.
_INT = re.compile(r"[0-9]{1,18}\Z")
_FLOAT = re.compile(r"[0-9]{1,15}(\.[0-9]{1,15})?\Z")


def _as_str(raw: str) -> Any:
    return raw


def _as_int(raw: str) -> Any:
    return int(raw) if _INT.match(raw) else _REFUSED


def _as_float(raw: str) -> Any:
    return float(raw) if _FLOAT.match(raw) else _REFUSED


def _as_bool(raw: str) -> Any:
    return {"true": True, "false": False}.get(raw, _REFUSED)


_READERS = {str: _as_str, int: _as_int, float: _as_float, bool: _as_bool}
_BOUNDS = {annotated_types.Ge: ("ge", float.__ge__), annotated_types.Gt: ("gt", float.__gt__),
           annotated_types.Le: ("le", float.__le__), annotated_types.Lt: ("lt", float.__lt__)}


class _Param(NamedTuple):
    name: str
    alias: str
    in_path: bool
    read: Callable[[str], Any]
    bounds: tuple[tuple[Callable[[float, float], bool], float], ...]
    default: Any  # _MISSING when required


class _Call(NamedTuple):
    """A dependant (the endpoint or one of its dependencies): how to call it."""

    call: Callable[..., Awaitable[Any]]
    params: tuple[_Param, ...]
    dependencies: tuple[tuple[str, "_Call"], ...]
    request_name: str | None


def _reader(annotation: Any) -> Callable[[str], Any] | None:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(inner) != 1:
            return None
        annotation = inner[0]
    return _READERS.get(annotation)


def _param(field: Any, in_path: bool) -> _Param | None:
    info = field.field_info
    read = _reader(info.annotation)
    bounds = []
    for rule in info.metadata:
        kind = _BOUNDS.get(type(rule))
        if kind is None or read not in (_as_int, _as_float):
            return None
        bounds.append((kind[1], float(getattr(rule, kind[0]))))
    if (read is None or info.deprecated or info.validation_alias is not None
            or info.default_factory is not None):
        return None
    default = _MISSING if info.is_required() else info.default
    if default is not _MISSING and default is not None and type(default) not in _READERS:
        return None
    return _Param(field.name, field.alias, in_path, read, tuple(bounds), default)


def _plain(dependant: Dependant, endpoint: bool) -> _Call | None:
    """``dependant`` as a ``_Call``, or None when something in it is not plain."""
    call = dependant.call
    if (call is None or not inspect.iscoroutinefunction(call) or dependant.header_params or dependant.cookie_params
            or dependant.body_params or dependant.websocket_param_name or dependant.http_connection_param_name
            or dependant.response_param_name or dependant.background_tasks_param_name
            or dependant.security_scopes_param_name or dependant.own_oauth_scopes
            or getattr(dependant, "concurrency", None) is not None):
        return None
    if not endpoint and (not dependant.name or not dependant.use_cache):  # called once per request below
        return None
    params = [_param(field, True) for field in dependant.path_params]
    params += [_param(field, False) for field in dependant.query_params]
    if None in params:
        return None
    dependencies = []
    for sub in dependant.dependencies:
        inner = _plain(sub, endpoint=False)
        if inner is None:
            return None
        dependencies.append((sub.name, inner))
    return _Call(call, tuple(params), tuple(dependencies), dependant.request_param_name)


def _values(plan: _Call, request: Request) -> dict[str, Any] | None:
    """The parameters' values of ``plan`` (not of its dependencies), or None for one FastAPI must judge."""
    values: dict[str, Any] = {}
    for param in plan.params:
        raw = (request.path_params if param.in_path else request.query_params).get(param.alias, _MISSING)
        if raw is _MISSING:
            if param.default is _MISSING:
                return None
            values[param.name] = param.default
            continue
        if type(raw) is not str:  # a path convertor's value (``{id:id}``): FastAPI's to check
            return None
        value = param.read(raw)
        if value is _REFUSED or any(not holds(float(value), limit) for holds, limit in param.bounds):
            return None
        values[param.name] = value
    return values


def _read_all(plan: _Call, request: Request, found: dict[int, dict[str, Any]]) -> bool:
    """Every dependant's values into ``found`` (by the ``_Call``'s id), before any is called: a
    value refused after a dependency ran would have run it twice."""
    if id(plan) in found:
        return True
    values = _values(plan, request)
    if values is None:
        return False
    found[id(plan)] = values
    return all(_read_all(inner, request, found) for _, inner in plan.dependencies)


async def _run(plan: _Call, request: Request, found: dict[int, dict[str, Any]], made: dict[Any, Any]) -> Any:
    values = found[id(plan)]
    for name, inner in plan.dependencies:
        if inner.call not in made:  # called once per request, as FastAPI's cache of dependencies does
            made[inner.call] = await _run(inner, request, found, made)
        values[name] = made[inner.call]
    if plan.request_name:
        values[plan.request_name] = request
    return await plan.call(**values)


def plain_handler(dependant: Dependant, overrides_provider: Any, handle: Handler) -> Handler | None:
    """A handler calling ``dependant`` (a route's) with plain parameters, ``handle`` for anything
    else; None when the route is not plain (see the module)."""
    plan = _plain(dependant, endpoint=True)
    if plan is None:
        return None

    async def handle_plainly(request: Request) -> Response:
        found: dict[int, dict[str, Any]] = {}
        if (getattr(overrides_provider, "dependency_overrides", None) or get_telemetry_data() is not None
                or not _read_all(plan, request, found)):
            return await handle(request)
        answer = await _run(plan, request, found, {})
        if not isinstance(answer, Response):
            raise TypeError(f"{plan.call.__qualname__} must answer a Response on a plain route")
        return answer

    return handle_plainly
