"""The dashboard (``GET /dashboard``): numbers computed from the database for the caller's
organisation.

Filters: ``release_id`` (an id, or ``none`` for items without a release), ``writer_id`` (an id,
``none`` for items without a writer, ``me``, or ``all``: the default), ``tool``. They narrow the
item counts, the work per writer and the items that need attention. A release's progress is a
property of the release: it always counts all of its items (``done`` / all but ``rejected``: a
rejected item is dropped work, not work left to do).

Sections of the answer:
- ``release``: with ``release_id`` an id, its timeline: status, target date, first planned date,
  progress and every date change (old, new, when, who, why);
- ``counts``: items by tool and by work status;
- ``releases``: each release's progress, when no release is picked;
- ``writers``: work per writer (open / done / total), ``Unassigned`` for items without a writer;
- ``attention``: blocked items, Docflows suggestions whose pull request has new commits, items on
  which changes were requested and are not answered yet, releases past their target date and
  not released.

Chats are private: other users' chats are never counted or shown.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from sqlalchemy import Row, Select, bindparam, func, select
from sqlalchemy.orm import Session

from ...endpoints import TOOLS, WORK_STATUSES
from ..db.session import rfc3339
from ..db.tables import Integration, Item, Release, ReleaseDateChange, User
from ...egress import Egress
from ..problems import Problem, as_id, not_found
from .accounts import Caller, read_as
from .items import ITEMS, OPEN_STATUSES, ORG_ID, USER_ID, is_open, tag_conditions, tag_shape, visible_to

UNASSIGNED = "Unassigned"


@dataclass(frozen=True)
class Filters:
    """The parsed query: ``None`` = no filter, ``"none"`` = untagged, else an id."""

    release: int | str | None
    writer: int | str | None
    tool: str | None

    def view(self) -> dict[str, Any]:
        return {"release_id": self.release, "writer_id": self.writer if self.writer is not None else "all",
                "tool": self.tool}


def _query_value(value: str | None, name: str, words: tuple[str, ...]) -> int | str | None:
    """An id or one of ``words``; anything else is a 422 naming the parameter."""
    if value is None or value == "":
        return None
    text = value.strip().lower()
    if text in words:
        return text
    if as_id(text) is not None:
        return as_id(text)
    allowed = "an ID or " + " or ".join(repr(w) for w in words)
    raise Problem(422, f"{name} must be {allowed}, got {value!r}", errors=[{"loc": ["query", name], "msg": allowed}])


def parse_filters(release_id: str | None, writer_id: str | None, tool: str | None) -> Filters:
    """Check the query's values (422 for one that is none); ``writer_id=me`` stays ``"me"``, the
    caller (``_shape``). Whether an id is the organisation's is ``check_filters``'."""
    release = _query_value(release_id, "release_id", ("none",))
    writer = _query_value(writer_id, "writer_id", ("none", "me", "all"))
    if tool is not None and tool not in TOOLS:
        raise Problem(422, f"tool must be one of {', '.join(TOOLS)}, got {tool!r}",
                      errors=[{"loc": ["query", "tool"], "msg": "unknown tool"}])
    return Filters(release, None if writer == "all" else writer, tool)


def check_filters(caller: Caller, filters: Filters, names: dict[int, str], releases: list) -> Filters:
    """``filters`` with ``me`` the caller's id; unknown release or writer ids (other organisations'
    too) are 404: a release must be among the organisation's ``releases``, a writer among its
    users (``names``)."""
    if isinstance(filters.release, int) and not any(r.id == filters.release for r in releases):
        raise not_found("Release", filters.release)
    if isinstance(filters.writer, int) and filters.writer not in names:
        raise not_found("User", filters.writer)
    return Filters(filters.release, caller.user_id if filters.writer == "me" else filters.writer, filters.tool)


_writer, _release = User.__table__.alias("writer"), Release.__table__
_RELEASES, _USERS = Release.__table__.c, User.__table__.c
# The organisation's writers' names, and its releases (the columns the summaries read, by name).
_NAMES = select(_USERS.id, _USERS.name).where(_USERS.org_id == ORG_ID)
_ORG_RELEASES = (select(_RELEASES.id, _RELEASES.name, _RELEASES.status, _RELEASES.target_date)
                 .where(_RELEASES.org_id == ORG_ID)
                 .order_by(_RELEASES.target_date.is_(None), _RELEASES.target_date, _RELEASES.id))
# Status counts of each release's items (all of them: progress is the release's own).
_BY_RELEASE = (select(ITEMS.release_id, ITEMS.work_status, func.count())
               .where(*visible_to(ORG_ID, USER_ID, ITEMS), ITEMS.release_id.is_not(None))
               .group_by(ITEMS.release_id, ITEMS.work_status))


def _shape(filters: Filters) -> tuple:
    """What the statements of ``filters`` depend on (their values are bound, not built in; the
    writer ``me`` is the caller's ``user_id``)."""
    return tag_shape(filters.release), "me" if filters.writer == "me" else tag_shape(filters.writer), \
        filters.tool is not None


def _bound(filters: Filters) -> dict[str, Any]:
    return {"release_id": filters.release, "writer_id": None if filters.writer == "me" else filters.writer,
            "tool": filters.tool}


@functools.lru_cache(maxsize=None)
def _statements(release: str | None, writer: str | None, tool: bool) -> tuple[Select, Select]:
    """The filtered statements of one shape of filters (``_shape``), built once: the counts by
    tool, writer and status (one query grouped by all three), and the open items that may need
    attention, with their writer's and release's names."""
    conditions = [*visible_to(ORG_ID, USER_ID, ITEMS), *tag_conditions(release, None if writer == "me" else writer)]
    if writer == "me":
        conditions.append(ITEMS.writer_user_id == USER_ID)
    if tool:
        conditions.append(ITEMS.tool == bindparam("tool"))
    counts = (select(ITEMS.tool, ITEMS.writer_user_id, ITEMS.work_status, func.count()).where(*conditions)
              .group_by(ITEMS.tool, ITEMS.writer_user_id, ITEMS.work_status))
    joined = (Item.__table__.outerjoin(_writer, _writer.c.id == ITEMS.writer_user_id)
              .outerjoin(_release, _release.c.id == ITEMS.release_id))
    open_items = (select(ITEMS.id, ITEMS.tool, ITEMS.title, ITEMS.work_status, ITEMS.status_note, ITEMS.data,
                         _writer.c.name.label("writer_name"), _release.c.name.label("release_name"))
                  .select_from(joined).where(*conditions, is_open(ITEMS.work_status))
                  .order_by(ITEMS.created_at, ITEMS.id))
    return counts, open_items


def progress(by_status: dict[str, int]) -> dict[str, int]:
    """``done`` of ``total`` (rejected items left out) and the rounded-down percentage."""
    total = sum(n for status, n in by_status.items() if status != "rejected")
    done = by_status.get("done", 0)
    return {"done": done, "total": total, "percent": (100 * done // total) if total else 0}


def past_target(release: Release | Row, today: dt.date) -> bool:
    return release.target_date is not None and release.target_date < today and release.status != "released"


def work_rows(counts: Iterable[tuple[int | None, str, int]], names: dict[int, str]) -> list[dict[str, Any]]:
    """Work per writer from (writer id, status, count) rows: open / done / total each, busiest
    first, ``Unassigned`` (writer None) last."""
    rows: dict[int | None, dict[str, Any]] = {}
    for writer_id, status, n in counts:
        row = rows.setdefault(writer_id, {"writer_id": writer_id,
                                          "name": names.get(writer_id, UNASSIGNED) if writer_id else UNASSIGNED,
                                          "open": 0, "done": 0, "total": 0})
        row["total"] += n
        if status in OPEN_STATUSES:
            row["open"] += n
        elif status == "done":
            row["done"] += n
    return sorted(rows.values(), key=lambda r: (r["writer_id"] is None, -r["open"], -r["total"], r["name"]))


def _release_summary(release: Release | Row, by_status: dict[str, int], today: dt.date) -> dict[str, Any]:
    return {"id": release.id, "name": release.name, "status": release.status,
            "target_date": release.target_date.isoformat() if release.target_date else None,
            "progress": progress(by_status), "past_target": past_target(release, today)}


_CHANGES, _CHANGER = ReleaseDateChange.__table__.c, User.__table__.alias("changer")
# A release's date changes, oldest first, with the name of who made each.
_DATE_CHANGES = (select(_CHANGES.old_date, _CHANGES.new_date, _CHANGES.changed_at, _CHANGER.c.name.label("changed_by"),
                        _CHANGES.reason)
                 .select_from(ReleaseDateChange.__table__.outerjoin(_CHANGER, _CHANGER.c.id == _CHANGES.changed_by_id))
                 .where(_CHANGES.release_id == bindparam("release_id"))
                 .order_by(_CHANGES.changed_at, _CHANGES.id))


def _timeline(changes: list, release: Row, by_status: dict[str, int], today: dt.date) -> dict[str, Any]:
    # The first record sets the first date (old None); a release dated before its history was
    # kept starts with a move, whose old date is the first one.
    first = (changes[0].old_date or changes[0].new_date) if changes else release.target_date
    return {**_release_summary(release, by_status, today),
            "first_planned_date": first.isoformat() if first else None,
            "date_changes": [{"old_date": c.old_date.isoformat() if c.old_date else None,
                              "new_date": c.new_date.isoformat() if c.new_date else None,
                              "changed_at": rfc3339(c.changed_at), "changed_by": c.changed_by, "reason": c.reason}
                             for c in changes]}


def _by_release(rows: list) -> dict[int, dict[str, int]]:
    """Status counts of each release's items (all of them: progress is the release's own)."""
    out: dict[int, dict[str, int]] = {}
    for release_id, status, n in rows:
        out.setdefault(release_id, {})[status] = n
    return out


def _item_ref(item, **extra: Any) -> dict[str, Any]:
    """An open item (a row of ``_statements``' open items) as the attention lists show it."""
    return {"id": item.id, "tool": item.tool, "title": item.title, "writer_name": item.writer_name,
            "release_name": item.release_name, **extra}


def _attention(open_items: list, releases: list, today: dt.date) -> tuple[dict[str, list[dict[str, Any]]], list[Row]]:
    """The attention lists but ``new_commits``, and the open suggestions it is to be computed of
    (``moved``): that takes an ls-remote each, which ``read`` must not make."""
    blocked = [_item_ref(i, note=i.status_note) for i in open_items if i.work_status == "blocked"]
    requested = []
    for item in open_items:
        request = (item.data or {}).get("changes_requested")
        if request:
            by = request.get("by") if isinstance(request, dict) else None
            requested.append(_item_ref(item, requested_by=by))
    suggestions = [i for i in open_items if i.tool == "docflows" and (i.data or {}).get("integration_id")
                   and not (i.data or {}).get("dismissed")]
    late = [{"id": r.id, "name": r.name, "status": r.status, "target_date": r.target_date.isoformat(),
             "days_late": (today - r.target_date).days} for r in releases if past_target(r, today)]
    return {"blocked": blocked, "new_commits": [], "changes_requested": requested, "releases_past_target": late}, \
        suggestions


def moved(session: Session, org_id: int, suggestions: list[Row], egress: Egress | None = None) -> list[dict[str, Any]]:
    """The attention list ``new_commits``: those of ``read``'s open ``suggestions`` whose pull
    request's head moved, by the check GET /docflows/<id> makes (``docflows.new_commits``): their
    integrations read in one query, then one ls-remote each. Blocking: in a thread."""
    from .docflows import head_moved, integration_id_of

    ids = [integration_id_of(i.data) for i in suggestions]
    found = {integration.id: integration for integration in session.scalars(
        select(Integration).where(Integration.id.in_({n for n in ids if n is not None}), Integration.org_id == org_id))}
    return [_item_ref(i) for i, n in zip(suggestions, ids) if head_moved(i.data, found.get(n), egress)]


def read(*, release_id: str | None = None, writer_id: str | None = None, tool: str | None = None,
         today: dt.date | None = None):
    """The dashboard's reads as the caller (``accounts.Read``), and its answer of their rows: the
    dashboard but for ``attention.new_commits`` (left empty), and the open suggestions to fill it
    from (``moved``). Only reads: the route runs it with the key's lookup (``deps.hot_read``)."""
    filters = parse_filters(release_id, writer_id, tool)
    counts, open_items = _statements(*_shape(filters))
    bound = _bound(filters)
    reads = [(_NAMES, {}), (_ORG_RELEASES, {}), (counts, bound), (_BY_RELEASE, {}), (open_items, bound)]
    if isinstance(filters.release, int):
        reads.append((_DATE_CHANGES, bound))

    def answer(_connection, caller: Caller, rows: list[list]) -> tuple[dict[str, Any], list[Row]]:
        names, releases = dict(rows[0]), rows[1]
        chosen = check_filters(caller, filters, names, releases)
        day = today or dt.datetime.now(dt.timezone.utc).date()
        # The counts by tool, by status and by writer, from one query grouped by all three.
        by_tool: Counter[str] = Counter()
        by_status: Counter[str] = Counter()
        by_writer: Counter[tuple[int | None, str]] = Counter()
        for item_tool, writer, status, n in rows[2]:
            by_tool[item_tool] += n
            by_status[status] += n
            by_writer[writer, status] += n
        writer_counts = [(writer, status, n) for (writer, status), n in by_writer.items()]
        per_release = _by_release(rows[3])
        picked = next((r for r in releases if r.id == chosen.release), None) if isinstance(chosen.release, int) \
            else None
        attention, suggestions = _attention(rows[4], [picked] if picked else releases, day)
        return {
            "filters": {**chosen.view(), "writer_name": names.get(chosen.writer) if isinstance(chosen.writer, int)
                        else None},
            "release": _timeline(rows[5], picked, per_release.get(picked.id, {}), day) if picked else None,
            "counts": {"total": sum(by_tool.values()),
                       "by_tool": {t: by_tool.get(t, 0) for t in TOOLS if chosen.tool in (None, t)},
                       "by_status": {s: by_status.get(s, 0) for s in WORK_STATUSES}},
            "releases": [] if picked else [_release_summary(r, per_release.get(r.id, {}), day) for r in releases],
            "writers": work_rows(writer_counts, names),
            "attention": attention,
        }, suggestions

    return reads, answer


def dashboard(session: Session, caller: Caller, *, release_id: str | None = None, writer_id: str | None = None,
              tool: str | None = None, today: dt.date | None = None, egress: Egress | None = None) -> dict[str, Any]:
    """The dashboard's answer (``read``, then ``moved``), in one go."""
    reads, answer_of = read(release_id=release_id, writer_id=writer_id, tool=tool, today=today)
    answer, suggestions = answer_of(session, caller, read_as(session, caller, reads))
    if suggestions:
        answer["attention"]["new_commits"] = moved(session, caller.org_id, suggestions, egress)
    return answer
