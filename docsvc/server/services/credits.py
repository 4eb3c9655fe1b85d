"""Credits: an organisation's balance pays for the actions the interface prices (Sync Latest
Code 5, or 8 with an update for the Editor; request-changes 8; the extra reading of check-docs
1 per suggestion). A charge is taken only when the action succeeds; an action the balance cannot
pay is refused with 402 before anything runs.

An organisation starts with DEFAULT_BALANCE credits; ``docsvc-server credits set`` changes it.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..db.tables import CreditAccount, CreditCharge
from ..problems import Problem

DEFAULT_BALANCE = 100


def _account(session: Session, org_id: int) -> CreditAccount:
    account = session.get(CreditAccount, org_id)
    if account is None:
        account = CreditAccount(org_id=org_id, balance=DEFAULT_BALANCE)
        session.add(account)
        session.flush()
    return account


def balance(session: Session, org_id: int) -> int:
    return _account(session, org_id).balance


def set_balance(session: Session, org_id: int, amount: int) -> int:
    _account(session, org_id).balance = amount
    session.flush()
    return amount


def require(session: Session, org_id: int, amount: int, action: str) -> None:
    have = balance(session, org_id)
    session.commit()
    if have < amount:
        raise Problem(402, f"Not enough credits: {action} costs {amount}, the balance is {have}",
                      extra={"balance": have, "cost": amount})


class NotEnoughCredits(Exception):
    pass


def charge(session: Session, org_id: int, amount: int, action: str, *, item_id: int | None = None,
           job_id: str | None = None) -> int:
    """Take ``amount`` in one conditional update; raises NotEnoughCredits when it cannot be paid.

    A job pays once per action and item: when the job's earlier attempt (cut off after it
    committed the charge) already paid, nothing more is taken."""
    if amount <= 0:
        return balance(session, org_id)
    if job_id is not None and session.scalar(select(CreditCharge.id).where(
            CreditCharge.org_id == org_id, CreditCharge.job_id == job_id, CreditCharge.action == action,
            CreditCharge.item_id == item_id if item_id is not None else CreditCharge.item_id.is_(None))) is not None:
        return balance(session, org_id)
    _account(session, org_id)
    taken = session.execute(update(CreditAccount).where(CreditAccount.org_id == org_id,
                                                        CreditAccount.balance >= amount)
                            .values(balance=CreditAccount.balance - amount)).rowcount
    if taken != 1:
        raise NotEnoughCredits(f"{action} costs {amount}, the balance is {balance(session, org_id)}")
    session.add(CreditCharge(org_id=org_id, amount=amount, action=action, item_id=item_id, job_id=job_id))
    session.flush()
    return balance(session, org_id)
