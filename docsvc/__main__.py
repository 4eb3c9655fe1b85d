"""``python -m docsvc``: the same as the ``docsvc`` command."""

from docsvc.cli.main import main

main()
