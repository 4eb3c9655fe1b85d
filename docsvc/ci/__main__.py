"""``python -m docsvc.ci <operation> [options]``: the CI entrypoint of an installed package."""

import sys

from docsvc.ci import main

sys.exit(main())
