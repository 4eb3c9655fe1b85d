"""Pure work, with no database, no services and no jobs: inputs in, results out.

``convert/`` and ``validate/`` (OpenAPI and Helm), ``docflows/`` (facts, planner, writer,
editor), ``git`` mirrors, the search ``indexer``, ``diagram`` and ``ocr``, ``mail`` over SMTP,
the ``browser`` (Chromium screenshots) and ``capture`` walks, ``chat`` answers and the Feature
Author's drafts. The job handlers in ``server/tasks`` and the services call them."""
