"""Parameter types shared by commands."""

from __future__ import annotations

import click

from ..config import MAX_ID

# An ID (or a pull-request number, a version): the service stores them as 64-bit integers, so a
# larger one is refused here, as bad input (exit 2) naming the option, not by the service (exit 1).
ID = click.IntRange(1, MAX_ID)
