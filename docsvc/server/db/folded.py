"""Several reads in one statement (``fold``): a head statement of at most one row (a key's lookup)
whose columns the reads take in place of bind parameters, each read's rows carried in one column
as a JSON array of arrays. On PostgreSQL a statement costs the service more CPU than the few rows
it reads (psycopg's work per statement, a round trip, a thread's wait for it), and the server as
much again (benchmarks/api_profile.py, api_load.py): the key's lookup and a dashboard's five
reads are one round trip this way, not six. SQLite runs the same statement.

No head row (an unknown key) and a head row whose reads found nothing are told apart: the reads'
columns come with the head's row only. Each read keeps its ORDER BY: on PostgreSQL the aggregate
is ordered by each row's position in it (``row_number() OVER (ORDER BY ...)``), since a sorted
subquery feeding an aggregate only "usually works" there; SQLite (before 3.44) has no ordered
aggregate, and takes a sorted subquery's rows in order (it never flattens one into an aggregate
query). The JSON comes back as text, decoded by msgspec into the read's rows in one
go (``Unfolder``): named tuples whose timestamps, dates and booleans are typed as the driver gives
them, parsed in C, not a Python call per value.
"""

from __future__ import annotations

import datetime as dt
import keyword
from typing import Any, NamedTuple, Optional, Sequence

import msgspec
from sqlalchemy import JSON, Boolean, Date, DateTime, Select, String, func, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import ColumnElement, visitors
from sqlalchemy.sql.elements import BindParameter
from sqlalchemy.sql.functions import FunctionElement


class _RowsJSON(FunctionElement):
    """Its arguments, a subquery's columns, aggregated over the subquery's rows as one JSON array
    of arrays ([] for none), as text."""

    type = String()
    inherit_cache = True
    name = "rows_json"


class _OrderedRowsJSON(_RowsJSON):
    """``_RowsJSON`` of all its arguments but the last, the row's position to aggregate them by."""

    inherit_cache = True
    name = "ordered_rows_json"


_POSITION = "fold_position"


@compiles(_RowsJSON, "postgresql")
def _rows_json_postgresql(element, compiler, **kw) -> str:
    clauses = list(element.clauses)
    by = f" ORDER BY {compiler.process(clauses.pop(), **kw)}" if isinstance(element, _OrderedRowsJSON) else ""
    columns = ", ".join(compiler.process(column, **kw) for column in clauses)
    return f"coalesce(json_agg(json_build_array({columns}){by}), '[]')::text"


@compiles(_RowsJSON, "sqlite")
def _rows_json_sqlite(element, compiler, **kw) -> str:
    clauses = list(element.clauses)[:-1] if isinstance(element, _OrderedRowsJSON) else list(element.clauses)
    # A JSON column is text to SQLite: json() embeds it as the value it holds.
    columns = [compiler.process(column, **kw) for column in clauses]
    columns = [f"json({text})" if isinstance(column.type, JSON) else text for text, column in zip(columns, clauses)]
    return f"json_group_array(json_array({', '.join(columns)}))"


def fold(head: Select, reads: Sequence[Select], binds: dict[str, str]) -> Select:
    """``head``'s columns, then one column per read of ``reads``: its rows as JSON, each bind
    parameter named in ``binds`` taken from ``head``'s column of that name instead."""
    found = head.cte("head")
    taken = {name: select(found.c[column]).scalar_subquery() for name, column in binds.items()}

    def replace(element):
        if isinstance(element, BindParameter) and element.key in taken:
            return taken[element.key]
        return None

    rows = []
    for read in reads:
        order = list(read._order_by_clauses)  # SQLAlchemy has no public accessor for a Select's ORDER BY
        if order:
            read = read.add_columns(func.row_number().over(order_by=order).label(_POSITION))
        inner = visitors.replacement_traverse(read, {}, replace).subquery()
        aggregate = _OrderedRowsJSON(*inner.c) if order else _RowsJSON(*inner.c)
        rows.append(select(aggregate).select_from(inner).scalar_subquery())
    return select(*found.c, *rows)


def _python_type(column) -> Any:
    """What msgspec decodes a value of ``column`` as: a timestamp, a date or a boolean (SQLite's 1
    too) typed, anything else as the JSON holds it."""
    kind = column.type
    for sql, python in ((DateTime, dt.datetime), (Date, dt.date), (Boolean, bool)):
        if isinstance(kind, sql):
            return Optional[python]
    return Any


def _field_names(names: Sequence[str]) -> list[str]:
    """``names`` as a named tuple's fields: a name that is none, or taken, gets its position."""
    fields: list[str] = []
    for n, name in enumerate(names):
        ok = name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_") and name not in fields
        fields.append(name if ok else f"c{n}")
    return fields


class Unfolder:
    """A read's rows out of its JSON column, as named tuples like a statement's own rows."""

    __slots__ = ("decode", "rows")

    def __init__(self, read: Select) -> None:
        columns = list(read.selected_columns)
        fields = _field_names(list(read.selected_columns.keys()))
        row = NamedTuple("Row", [(name, _python_type(column)) for name, column in zip(fields, columns)])
        self.rows = list[row]
        self.decode = msgspec.json.Decoder(self.rows, strict=False).decode

    def __call__(self, text: str | None) -> list:
        if not text:
            return []
        try:
            return self.decode(text)
        except msgspec.DecodeError:  # JSON msgspec does not read (jsoncodec.loads says which)
            from .. import jsoncodec

            return msgspec.convert(jsoncodec.loads(text), self.rows, strict=False)
