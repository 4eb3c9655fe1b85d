"""httpx without its own command-line client at import time.

``import httpx`` runs ``from ._main import main``, which loads rich, pygments and click's help
machinery for httpx's ``httpx`` command: about half of httpx's import time, and the largest part
of ``docsvc mywork``'s start after pydantic. This module puts a stand-in ``httpx._main`` in place
before httpx is first imported; its ``main`` loads the real one when (if ever) it is called.
Imported first by ``docsvc.client`` and ``docsvc.server`` (whose code hosts' clients use httpx: every
service and job workers' process paid for rich and pygments); a no-op when httpx is already imported.
"""

from __future__ import annotations

import sys
import types

_NAME = "httpx._main"


def _main(*args, **kwargs):
    """httpx's own ``main``, loaded now."""
    if sys.modules.get(_NAME) is _stub:
        del sys.modules[_NAME]
    import importlib

    return importlib.import_module(_NAME).main(*args, **kwargs)


_stub = types.ModuleType(_NAME)
_stub.main = _main  # type: ignore[attr-defined]

if "httpx" not in sys.modules and _NAME not in sys.modules:
    sys.modules[_NAME] = _stub
