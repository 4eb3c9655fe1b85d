"""``json_int(column, key)``: a JSON column's integer at ``key`` (a JSON integer as given, as
``problems.is_int`` reads one: not ``true``, ``"2"`` or ``2.0``), else NULL; in SQL, so a statement
can join on an id a JSON document names. PostgreSQL and SQLite spell it differently."""

from __future__ import annotations

from sqlalchemy import BigInteger
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement


class json_int(FunctionElement):  # noqa: N801 - an SQL function, named as one
    type = BigInteger()
    inherit_cache = True
    name = "json_int"

    def __init__(self, column, key: str) -> None:
        if not key.isidentifier():
            raise ValueError(f"not a plain key: {key!r}")
        self.key = key
        super().__init__(column)


@compiles(json_int, "postgresql")
def _postgresql(element, compiler, **kw) -> str:
    column, key = compiler.process(element.clauses, **kw), element.key
    # Digits only, at most 18 (a bigint): a longer id names no row anyway, and the cast never fails.
    return (f"CASE WHEN json_typeof({column} -> '{key}') = 'number' AND ({column} ->> '{key}') ~ '^-?[0-9]{{1,18}}$' "
            f"THEN CAST({column} ->> '{key}' AS BIGINT) END")


@compiles(json_int, "sqlite")
def _sqlite(element, compiler, **kw) -> str:
    column, key = compiler.process(element.clauses, **kw), element.key
    return f"CASE WHEN json_type({column}, '$.{key}') = 'integer' THEN json_extract({column}, '$.{key}') END"
