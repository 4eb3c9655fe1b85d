"""The full-text index of the docs: written by the sync engine, read by ``GET /search`` and by
the service's own code (Docflows). SQLite uses FTS5, PostgreSQL its text search; both give the
same hits: path, line and a snippet of the matching line."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, text
from sqlalchemy.orm import Session

from ..db.tables import SearchChunk, SearchDoc
from ..engines.indexer import IndexedFile
from ..problems import Problem

_WORD = re.compile(r"[\w][\w.\-]*", re.UNICODE)
_SNIPPET = 160


@dataclass(frozen=True)
class Hit:
    integration_id: int
    path: str
    line: int
    snippet: str
    title: str | None
    score: float

    def view(self) -> dict:
        return self.__dict__.copy()


def replace_files(session: Session, *, org_id: int, integration_id: int,
                  files: dict[str, tuple[str, IndexedFile]], removed: list[str]) -> None:
    """Swap the given paths' entries (``path -> (blob, indexed file)``) and drop ``removed``.

    Runs in the caller's transaction: a sync commits it whole or not at all, so a failed sync
    leaves the previous index intact."""
    stale = list(files) + list(removed)
    for start in range(0, len(stale), 500):
        batch = stale[start:start + 500]
        doc_ids = select(SearchDoc.id).where(SearchDoc.integration_id == integration_id,
                                             SearchDoc.path.in_(batch))
        # Chunks first and explicitly, so the FTS triggers see every deleted row.
        session.execute(delete(SearchChunk).where(SearchChunk.doc_id.in_(doc_ids)))
        session.execute(delete(SearchDoc).where(SearchDoc.integration_id == integration_id,
                                                SearchDoc.path.in_(batch)))
    if not files:
        return
    rows = [{"org_id": org_id, "integration_id": integration_id, "path": path, "blob": blob,
             "kind": indexed.kind, "title": indexed.title} for path, (blob, indexed) in files.items()]
    ids: dict[str, int] = {}
    for start in range(0, len(rows), 500):
        result = session.execute(insert(SearchDoc).returning(SearchDoc.id, SearchDoc.path), rows[start:start + 500])
        ids.update({path: doc_id for doc_id, path in result})
    chunks = [{"doc_id": ids[path], "line": p.line, "text": p.text}
              for path, (_blob, indexed) in files.items() for p in indexed.passages]
    for start in range(0, len(chunks), 2000):
        session.execute(insert(SearchChunk), chunks[start:start + 2000])


def indexed_blobs(session: Session, integration_id: int, paths: list[str] | None = None) -> dict[str, str]:
    """path -> blob of the integration's indexed files (of ``paths`` only, when given)."""
    query = select(SearchDoc.path, SearchDoc.blob).where(SearchDoc.integration_id == integration_id)
    if paths is None:
        return dict(session.execute(query).all())
    # 500 paths a statement, as replace_files: SQLite before 3.32 takes at most 999 parameters.
    blobs: dict[str, str] = {}
    for start in range(0, len(paths), 500):
        blobs.update(session.execute(query.where(SearchDoc.path.in_(paths[start:start + 500]))).all())
    return blobs


def indexed_count(session: Session, integration_id: int) -> int:
    """How many files of the integration are indexed (``len(indexed_blobs(...))``, counted by the database)."""
    return session.execute(select(func.count()).select_from(SearchDoc)
                           .where(SearchDoc.integration_id == integration_id)).scalar_one()


def _terms(query: str) -> list[str]:
    return [t for t in _WORD.findall(query) if t.strip("._-")][:16]


def search(session: Session, org_id: int, query: str, *, integration_id: int | None = None,
           limit: int = 20) -> list[Hit]:
    terms = _terms(query)
    if not terms:
        raise Problem(422, "q: give at least one word to search for",
                      errors=[{"loc": ["query", "q"], "msg": "no searchable words"}])
    hits = []
    for integration, path, title, line, body, rank in _matches(session, org_id, terms, every=True,
                                                               integration_id=integration_id, limit=limit):
        offset, snippet = _matching_line(body, terms)
        hits.append(Hit(integration, path, line + offset, snippet, title, round(-float(rank), 4)))
    return hits


@dataclass(frozen=True)
class Passage:
    """A whole indexed passage: ``line`` is its first line in the file."""

    integration_id: int
    path: str
    title: str | None
    line: int
    text: str
    score: float


def passages_with_any(session: Session, org_id: int, terms: list[str], *, limit: int = 10) -> list[Passage]:
    """Whole passages holding any of ``terms``, best first (the DocOps Assistant reads these)."""
    if not terms:
        return []
    return [Passage(integration, path, title, line, body, round(-float(rank), 4))
            for integration, path, title, line, body, rank in _matches(session, org_id, terms[:16], every=False,
                                                                       limit=limit)]


def _matches(session: Session, org_id: int, terms: list[str], *, every: bool, integration_id: int | None = None,
             limit: int = 20):
    """Rows (integration, path, title, line, text, rank: lower is better) of the chunks holding
    every term, or any of them."""
    scope = "d.org_id = :org" + (" AND d.integration_id = :integration" if integration_id else "")
    params = {"org": org_id, "integration": integration_id, "limit": limit}
    if session.get_bind().dialect.name == "sqlite":
        params["match"] = (" " if every else " OR ").join('"' + t.replace('"', '""') + '"' for t in terms)
        sql = f"""SELECT d.integration_id, d.path, d.title, c.line, c.text, bm25(search_fts) AS rank
                  FROM search_fts JOIN search_chunks c ON c.id = search_fts.rowid
                  JOIN search_docs d ON d.id = c.doc_id
                  WHERE search_fts MATCH :match AND {scope}
                  ORDER BY rank LIMIT :limit"""
    else:
        if every:
            params["q"] = " ".join(terms)
            query = "plainto_tsquery('english', :q)"
        else:  # each term on its own, joined with tsquery's OR
            params.update({f"t{n}": term for n, term in enumerate(terms)})
            query = "(" + " || ".join(f"plainto_tsquery('english', :t{n})" for n in range(len(terms))) + ")"
        sql = f"""SELECT d.integration_id, d.path, d.title, c.line, c.text,
                         -ts_rank(c.tsv, {query}) AS rank
                  FROM search_chunks c JOIN search_docs d ON d.id = c.doc_id
                  WHERE c.tsv @@ {query} AND {scope}
                  ORDER BY rank, d.path, c.line LIMIT :limit"""
    return session.execute(text(sql), params).all()


def _matching_line(body: str, terms: list[str]) -> tuple[int, str]:
    """The passage's line that best shows the hit: the one holding the most query words (as
    typed, or else sharing their stem, as the index's stemming would); the first on a tie."""
    lowered = [t.lower() for t in terms]
    lines = body.split("\n")

    def score(line: str) -> int:
        words = [w.lower() for w in _WORD.findall(line)]
        return sum(2 if t in words else 1 if any(w.startswith(t[: max(3, len(t) - 2)]) for w in words) else 0
                   for t in lowered)

    scores = [score(line) for line in lines]
    best = max(range(len(lines)), key=lambda n: (scores[n], -n))
    return best, _shorten(lines[best].strip())


def _shorten(line: str) -> str:
    return line if len(line) <= _SNIPPET else line[: _SNIPPET - 1] + "…"
