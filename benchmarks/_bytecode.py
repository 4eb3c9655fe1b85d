"""docsvc's modules compiled to bytecode once, as ``pip install`` of the wheel does.

The benchmarks run the editable checkout. Where ``PYTHONDONTWRITEBYTECODE`` is set (as in this
sandbox), Python then compiles every docsvc module from source on every start and never keeps the
result, which a user's installed package never does: it added 25-40 ms to each CLI start here.
``compileall`` writes the ``__pycache__`` files (gitignored) whatever that variable says, and
Python reads them either way.
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "docsvc"


def compile_package() -> None:
    compileall.compile_dir(str(PACKAGE), quiet=1)
