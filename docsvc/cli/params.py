"""Parameter types shared by commands."""

from __future__ import annotations

import click

from ..config import MAX_ID

# An ID (or a pull-request number, a version): the service takes at most MAX_ID (2**31-1), so a
# larger one is refused here, as bad input (exit 2) naming the option, not by the service (exit 1).
ID = click.IntRange(1, MAX_ID)
