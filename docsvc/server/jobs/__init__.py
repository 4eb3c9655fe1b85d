"""Durable jobs: the table's queue operations (``queue``), handlers by kind (``registry``),
and the worker threads that run them (``worker``)."""
