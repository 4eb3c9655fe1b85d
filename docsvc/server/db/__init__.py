"""Database layer: tables (``tables``), engine and sessions (``session``), migrations (``migrate``)."""
