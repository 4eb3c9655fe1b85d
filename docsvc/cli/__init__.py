"""The ``docsvc`` command line: one module per noun; parsing here, HTTP in ``docsvc.client``.

stdout carries data (one line per record, or JSON with ``--json``); stderr carries status and
errors. Exit codes live in ``docsvc.exit_codes`` (shared with the CI layer).
"""
