"""Small shared types of the client: the ``NOT_GIVEN`` sentinel and a few aliases.

``NOT_GIVEN`` exists because in a PATCH or PUT body "leave this field alone" and "set it to
null" are different requests (``writer_user_id=None`` clears a writer tag). ``None`` therefore
cannot double as "not given".
"""

from __future__ import annotations

import os
from typing import IO, Any, Callable, Mapping, Sequence, Tuple, Union

__all__ = [
    "NOT_GIVEN",
    "NotGiven",
    "FileContent",
    "FilesFactory",
    "PathLike",
    "strip_not_given",
    "strip_none",
]


class NotGiven:
    """Type of ``NOT_GIVEN``: the argument was not passed, so the field is left out of the body.

    Falsy, so ``if value:`` style checks treat it like an absent value; a singleton, so
    ``value is NOT_GIVEN`` is the test to use.
    """

    _instance: NotGiven | None = None

    def __new__(cls) -> NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __reduce__(self) -> str:  # pickling keeps the singleton
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()

PathLike = Union[str, os.PathLike[str]]

# One multipart file part: (filename, open binary file, content type or None).
FileContent = Tuple[str, IO[bytes], Union[str, None]]

# Builds the multipart body of one attempt: (text fields, file parts). It is called again on
# every retry so each attempt streams freshly opened files from disk.
FilesFactory = Callable[[], Tuple[Mapping[str, Any], Sequence[Tuple[str, FileContent]]]]


def strip_not_given(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields that were given; ``None`` is kept (it is sent as JSON null)."""
    return {key: value for key, value in fields.items() if value is not NOT_GIVEN}


def strip_none(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields that are set, for bodies and queries where ``None`` means "not given"."""
    return {key: value for key, value in fields.items() if value is not None}
