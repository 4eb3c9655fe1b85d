"""How the parallel workers of ``scripts/test`` (pytest-xdist, ``--dist loadfile``) share the tests.

A unit of work is a module on one database backend: its tests on SQLite and on PostgreSQL use two
services (the module-scoped ``service`` fixture is parametrized by backend) and share nothing, so the
two halves may run on two workers, each starting only its own service. A module the whole time on
one worker made the run's tail as long as its longest module. Tests of a module without a backend
parameter stay one unit, as with plain ``loadfile``.

The units go out in collection order (runners, service, then unit modules, whose many short units
even out the workers' ends), except the few long unit modules (``LONG_UNITS``): they go first of the
unit modules. Met in alphabetical order, test_malformed_specs (60-80 s) or test_request_path left one
worker running alone for 30-50 s at the end of a run.
"""

from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

from tests.support import backends


def backend_of(nodeid: str) -> str | None:
    """The backend a test runs on: the first part of its parameters' id (``test_x[postgresql-a]``)."""
    _, bracket, params = nodeid.partition("::")[2].partition("[")
    first = params.split("-", 1)[0].removesuffix("]") if bracket else ""
    return first if first in backends() else None


# The unit modules that take 15 s or more of a worker (a run's --durations, setup to teardown).
LONG_UNITS = ("tests/unit/test_malformed_specs.py", "tests/unit/test_convert_writers.py",
              "tests/unit/test_request_path.py", "tests/unit/test_hosts_engine.py",
              "tests/unit/test_convert_openapi.py", "tests/unit/test_docflows_structures.py")


def long_units_first(scopes: list[str]) -> list[str]:
    """``scopes`` in their order, but the long unit modules (on each backend) before the other unit modules."""
    first_unit = next((n for n, scope in enumerate(scopes) if scope.startswith("tests/unit/")), len(scopes))
    long = [scope for scope in scopes if scope.partition("[")[0] in LONG_UNITS]
    rest = [scope for scope in scopes if scope not in long]
    return rest[:first_unit] + long + rest[first_unit:]


class ModuleOnBackendScheduling(LoadFileScheduling):
    _reordered = False

    def _split_scope(self, nodeid: str) -> str:
        module = super()._split_scope(nodeid)
        backend = backend_of(nodeid)
        return module if backend is None else f"{module}[{backend}]"

    def _assign_work_unit(self, node) -> None:
        if not self._reordered:  # the work queue is whole at the first assignment
            self._reordered = True
            units = dict(self.workqueue)
            self.workqueue.clear()
            for scope in long_units_first(list(units)):
                self.workqueue[scope] = units[scope]
        super()._assign_work_unit(node)


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadfile":
        return ModuleOnBackendScheduling(config, log)
    return None
