"""Organisations, users (Writer, System Administrator) and API keys.

Keys are shown once, when created, and stored as SHA-256 hashes: they are long random tokens, so
a fast hash is enough (as for GitHub's tokens) and lookups stay one indexed query.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import Select, bindparam, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ..db.folded import Unfolder, fold
from ..db.tables import ApiKey, Organization, User, utcnow
from ..problems import Problem

ROLES = ("writer", "admin")
ROLE_NAMES = {"writer": "Writer", "admin": "System Administrator"}
KEY_PREFIX = "dsv_"


class AdminError(Exception):
    """A ``docsvc-server`` admin command cannot be carried out; the message says why."""


@dataclass(frozen=True)
class Caller:
    user_id: int
    org_id: int
    role: str
    name: str
    email: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def get_org(session: Session, name: str) -> Organization:
    org = session.scalar(select(Organization).where(Organization.name == name))
    if org is None:
        raise AdminError(f"organisation {name!r} does not exist (create it with docsvc-server init)")
    return org


def get_user_by_email(session: Session, email: str) -> User:
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise AdminError(f"no user with email {email!r}")
    return user


def create_org(session: Session, name: str) -> Organization:
    name = name.strip()
    if not name:
        raise AdminError("organisation name must not be empty")
    if session.scalar(select(Organization).where(Organization.name == name)) is not None:
        raise AdminError(f"organisation {name!r} already exists")
    org = Organization(name=name)
    session.add(org)
    session.flush()
    return org


def add_user(session: Session, org: Organization, email: str, role: str, name: str | None = None) -> User:
    email = email.strip().lower()
    if "@" not in email:
        raise AdminError(f"{email!r} is not an email address")
    if role not in ROLES:
        raise AdminError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    if session.scalar(select(User).where(User.email == email)) is not None:
        raise AdminError(f"a user with email {email!r} already exists")
    user = User(org_id=org.id, email=email, role=role, name=(name or email.split("@")[0]).strip())
    session.add(user)
    session.flush()
    return user


def create_key(session: Session, user: User, name: str | None = None) -> tuple[ApiKey, str]:
    """Returns the stored record and the key itself, which is never kept."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    record = ApiKey(user_id=user.id, name=name or "default", prefix=key[:10], key_hash=hash_key(key))
    session.add(record)
    session.flush()
    return record, key


def list_keys(session: Session, org: Organization) -> list[ApiKey]:
    return list(session.scalars(
        select(ApiKey).join(User).where(User.org_id == org.id).order_by(ApiKey.id)
    ))


def revoke_key(session: Session, key_id: int) -> ApiKey:
    record = session.get(ApiKey, key_id)
    if record is None:
        raise AdminError(f"no API key with id {key_id}")
    if record.revoked_at is None:
        record.revoked_at = utcnow()
    return record


_LAST_USED = dt.timedelta(minutes=1)  # the resolution of a key's stamp of last use


def bearer_token(authorization: str | None) -> str:
    """The API key of ``Authorization: Bearer <key>``, or 401 (no database needed to tell)."""
    if not authorization:
        raise Problem(401, "Missing API key: send it as 'Authorization: Bearer <API_KEY>'",
                      headers={"WWW-Authenticate": "Bearer"})
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "Malformed Authorization header: expected 'Bearer <API_KEY>'",
                      headers={"WWW-Authenticate": "Bearer"})
    return token.strip()


_keys, _users = ApiKey.__table__, User.__table__
# Built once, of table columns: every request runs them, and building a statement (or going
# through the ORM's compile step) cost more CPU than the indexed lookup itself.
_CALLER_OF_KEY = (
    select(_keys.c.id.label("key_id"), _keys.c.last_used_at, _users.c.id.label("user_id"), _users.c.org_id,
           _users.c.role, _users.c.name, _users.c.email)
    .join_from(_keys, _users, _users.c.id == _keys.c.user_id)
    .where(_keys.c.key_hash == bindparam("key_hash"), _keys.c.revoked_at.is_(None))
)
_HEAD = len(_CALLER_OF_KEY.selected_columns)  # the lookup's columns, before any folded read's
_STAMP_LAST_USE = update(_keys).where(_keys.c.id == bindparam("key_id")).values(last_used_at=bindparam("now"))


def caller_of_key(session: Session, token: str) -> Caller:
    """The caller whose API key is ``token``, or 401 for an unknown or revoked one. Looked up in
    the database on every call (no cache): a revoked or deleted key stops working at once."""
    caller, stamp, _ = look_up_key(session, token)
    if stamp is not None:
        stamp_last_use(session, stamp)
    return caller


# A read as the caller: a statement built once whose bind parameters ``org_id`` and ``user_id`` are
# the caller's (``items.ORG_ID``, ``USER_ID``), and the values of its others.
Read = tuple[Select, dict[str, Any]]
_FOLDED: dict[tuple[int, ...], tuple[tuple[Select, ...], Select, list[Unfolder]]] = {}
_MAX_FOLDED = 256  # the hot reads' combinations are a few dozen


def _folded(reads: tuple[Select, ...]) -> tuple[Select, list[Unfolder]]:
    """The key's lookup with ``reads`` folded in (``db.folded``), built once per combination."""
    key = tuple(map(id, reads))
    try:
        return _FOLDED[key][1:]
    except KeyError:
        made = fold(_CALLER_OF_KEY, reads, {"org_id": "org_id", "user_id": "user_id"}), [Unfolder(r) for r in reads]
        if len(_FOLDED) < _MAX_FOLDED:
            _FOLDED[key] = (reads, *made)  # the statements kept, so that their ids stay theirs
        return made


def look_up_key(session: Session | Connection, token: str,
                reads: Sequence[Read] = ()) -> tuple[Caller, int | None, list[list]]:
    """``caller_of_key``'s lookup alone, which only reads: the caller, the key's id when its last
    use is due to be stamped (``stamp_last_use``), else None, and the rows of each of ``reads``
    read as the caller, in the same statement (one round trip: ``db.folded``)."""
    values = {"key_hash": hash_key(token)}
    if reads:
        statement, unfold = _folded(tuple(read for read, _ in reads))
        for _, given in reads:
            values.update(given)
    else:
        statement, unfold = _CALLER_OF_KEY, []
    row = session.execute(statement, values).first()
    if row is None:
        raise Problem(401, "Unknown or revoked API key", headers={"WWW-Authenticate": "Bearer"})
    key_id, last, user_id, org_id, role, name, email = row[:_HEAD]
    due = last is None or utcnow() - (last if last.tzinfo else last.replace(tzinfo=dt.timezone.utc)) > _LAST_USED
    caller = Caller(user_id=user_id, org_id=org_id, role=role, name=name, email=email)
    return caller, key_id if due else None, [rows(value) for rows, value in zip(unfold, row[_HEAD:])]


def read_as(session: Session | Connection, caller: Caller, reads: Sequence[Read]) -> list[list]:
    """The rows of each of ``reads`` read as ``caller``, a statement each (``look_up_key`` folds
    them into the key's lookup)."""
    who = {"org_id": caller.org_id, "user_id": caller.user_id}
    return [session.execute(read, {**given, **who}).all() for read, given in reads]


def stamp_last_use(session: Session, key_id: int) -> None:
    """Stamp the key's last use (at most once a minute: ``look_up_key`` says when), committed."""
    session.execute(_STAMP_LAST_USE, {"key_id": key_id, "now": utcnow()})
    session.commit()


def authenticate(session: Session, authorization: str | None) -> Caller:
    """Resolve ``Authorization: Bearer <key>`` to the caller, or raise 401."""
    return caller_of_key(session, bearer_token(authorization))


def require_admin(caller: Caller, what: str) -> None:
    if not caller.is_admin:
        raise Problem(403, f"{what} is for System Administrators only")


def org_member(session: Session, org_id: int, user_id: int) -> User | None:
    user = session.get(User, user_id)
    return user if user is not None and user.org_id == org_id else None
