"""The CI layer: ``python entrypoint.py <operation> [options]`` on GitHub, GitLab, Jenkins or a
workstation. Inputs come from flags and ``DOCSVC_*`` variables (``settings``); what the CI
system knows comes from ``context``; results go where each system shows them (``providers``).

Exit codes are the CLI's: 0 success, 1 failed, 2 bad input, 4 authentication or permission,
8 a job still running at the timeout (0 with a warning when ``timeout-ok`` is set).
"""

from __future__ import annotations

from .runner import main

__all__ = ["main"]
