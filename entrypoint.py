#!/usr/bin/env python3
"""CI entrypoint: ``python entrypoint.py <operation> [options]`` (sync, docflow, convert,
api-scan-pr, validate, check) on GitHub Actions, GitLab CI, Jenkins or locally.
See ``python entrypoint.py --help`` and the README."""

import sys
from pathlib import Path

# Run from a checkout without installing: the package sits beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from docsvc.ci import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
