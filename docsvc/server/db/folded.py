"""Several reads in one statement (``fold``): a head statement of at most one row (a key's lookup)
whose columns the reads take in place of bind parameters, each read's rows carried in one column
as a JSON array of arrays. On PostgreSQL a statement costs the service more CPU than the few rows
it reads (psycopg's work per statement, a round trip, a thread's wait for it), and the server as
much again (benchmarks/api_profile.py, api_load.py): the key's lookup and a dashboard's five
reads are one round trip this way, not six. SQLite runs the same statement.

No head row (an unknown key) and a head row whose reads found nothing are told apart: the reads'
columns come with the head's row only. Each read keeps its ORDER BY: a sorted subquery feeds the
aggregate in its order (PostgreSQL and SQLite alike; SQLite never flattens a sorted subquery into
an aggregate query). Its values come back as the driver gives them (``unfold``): timestamps and
dates are parsed from the JSON's text, JSON columns are JSON values already.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Iterable, Sequence

import msgspec
from sqlalchemy import JSON, Boolean, Date, DateTime, Select, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import ColumnElement, visitors
from sqlalchemy.sql.elements import BindParameter
from sqlalchemy.sql.functions import FunctionElement


class _RowsJSON(FunctionElement):
    """Its arguments, a subquery's columns, aggregated over the subquery's rows as one JSON array
    of arrays ([] for none)."""

    type = JSON()
    inherit_cache = True
    name = "rows_json"


@compiles(_RowsJSON, "postgresql")
def _rows_json_postgresql(element, compiler, **kw) -> str:
    return f"coalesce(json_agg(json_build_array({compiler.process(element.clauses, **kw)})), '[]')"


@compiles(_RowsJSON, "sqlite")
def _rows_json_sqlite(element, compiler, **kw) -> str:
    # A JSON column is text to SQLite: json() embeds it as the value it holds.
    columns = [compiler.process(column, **kw) for column in element.clauses]
    columns = [f"json({text})" if isinstance(column.type, JSON) else text
               for text, column in zip(columns, element.clauses)]
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
        inner = visitors.replacement_traverse(read, {}, replace).subquery()
        rows.append(select(_RowsJSON(*inner.c)).select_from(inner).scalar_subquery())
    return select(*found.c, *rows)


def _datetime(value: str | None) -> dt.datetime | None:
    return None if value is None else msgspec.convert(value, dt.datetime)


def _date(value: str | None) -> dt.date | None:
    return None if value is None else dt.date.fromisoformat(value)


def _bool(value) -> bool | None:
    return None if value is None else bool(value)


def _decoder(column: ColumnElement) -> Callable[[Any], Any] | None:
    """What a value of ``column`` needs after JSON: a timestamp, a date or a boolean (SQLite's 1)."""
    kind = column.type
    return (_datetime if isinstance(kind, DateTime) else _date if isinstance(kind, Date)
            else _bool if isinstance(kind, Boolean) else None)


class Unfolder:
    """A read's rows out of its JSON column, as named tuples like a statement's own rows."""

    __slots__ = ("row", "decoders")

    def __init__(self, read: Select) -> None:
        import collections

        self.row = collections.namedtuple("Row", list(read.selected_columns.keys()), rename=True)
        decoders = tuple(_decoder(column) for column in read.selected_columns)
        self.decoders = decoders if any(decoders) else None

    def __call__(self, values: Iterable[list] | None) -> list:
        make = self.row._make
        if self.decoders is None:
            return [make(row) for row in values or ()]
        decoders = self.decoders
        return [make([value if d is None else d(value) for d, value in zip(decoders, row)]) for row in values or ()]
