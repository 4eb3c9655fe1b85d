"""How the parallel workers of ``scripts/test`` (pytest-xdist, ``--dist loadfile``) share the tests.

A unit of work is a module on one database backend: its tests on SQLite and on PostgreSQL use two
services (the module-scoped ``service`` fixture is parametrized by backend) and share nothing, so the
two halves may run on two workers, each starting only its own service. A module the whole time on
one worker made the run's tail as long as its longest module. Tests of a module without a backend
parameter stay one unit, as with plain ``loadfile``.
"""

from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

from tests.support import backends


def backend_of(nodeid: str) -> str | None:
    """The backend a test runs on: the first part of its parameters' id (``test_x[postgresql-a]``)."""
    _, bracket, params = nodeid.partition("::")[2].partition("[")
    first = params.split("-", 1)[0].removesuffix("]") if bracket else ""
    return first if first in backends() else None


class ModuleOnBackendScheduling(LoadFileScheduling):
    def _split_scope(self, nodeid: str) -> str:
        module = super()._split_scope(nodeid)
        backend = backend_of(nodeid)
        return module if backend is None else f"{module}[{backend}]"


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadfile":
        return ModuleOnBackendScheduling(config, log)
    return None
