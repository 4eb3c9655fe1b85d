"""Job handlers, one module per job kind: each loads what its job needs, calls services and
engines, and saves the result. Importing this package registers every handler with the queue
(``jobs.registry``); the app does so at start."""

from . import capture, chat, check, conversion, docflow, feature_draft, refresh, revise, scan, screenshots, sync

__all__ = ["capture", "chat", "check", "conversion", "docflow", "feature_draft", "refresh", "revise", "scan",
           "screenshots", "sync"]
