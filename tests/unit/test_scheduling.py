"""The parallel workers' units of work: a module on one backend (tests/scheduling.py)."""

import pytest

from tests.scheduling import ModuleOnBackendScheduling, backend_of


@pytest.mark.parametrize(("nodeid", "backend"), [
    ("tests/integration/test_x.py::test_a[sqlite]", "sqlite"),
    ("tests/integration/test_x.py::test_a[sqlite-change0-pr_data.title]", "sqlite"),
    ("tests/unit/test_x.py::test_a", None),
    ("tests/unit/test_x.py::test_a[openapi-3.0.yaml]", None),
    ("tests/unit/test_x.py::test_a[x-sqlite]", None),  # a later parameter is not the service's backend
    ("tests/unit/test_x.py::Case::test_a[sqlite]", "sqlite"),
])
def test_the_backend_is_the_first_parameter(nodeid, backend):
    assert backend_of(nodeid) == backend


def test_a_module_splits_by_backend_and_nothing_else(monkeypatch):
    monkeypatch.setenv("DOCSVC_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    scope = ModuleOnBackendScheduling.__new__(ModuleOnBackendScheduling)._split_scope  # needs no state
    assert scope("tests/integration/test_x.py::test_a[postgresql]") == "tests/integration/test_x.py[postgresql]"
    assert scope("tests/integration/test_x.py::test_b[sqlite]") == "tests/integration/test_x.py[sqlite]"
    assert scope("tests/integration/test_x.py::test_c") == "tests/integration/test_x.py"


def test_the_long_unit_modules_go_first_of_the_unit_modules():
    from tests.scheduling import LONG_UNITS, long_units_first

    scopes = ["tests/ci/test_runners.py", "tests/integration/test_a.py[sqlite]", "tests/unit/test_a.py",
              f"{LONG_UNITS[2]}[postgresql]", "tests/unit/test_b.py", LONG_UNITS[0], f"{LONG_UNITS[2]}[sqlite]"]
    assert long_units_first(scopes) == [
        "tests/ci/test_runners.py", "tests/integration/test_a.py[sqlite]", f"{LONG_UNITS[2]}[postgresql]",
        LONG_UNITS[0], f"{LONG_UNITS[2]}[sqlite]", "tests/unit/test_a.py", "tests/unit/test_b.py"]
    assert long_units_first(["tests/unit/test_a.py"]) == ["tests/unit/test_a.py"]


def test_the_long_unit_modules_exist():
    from pathlib import Path

    from tests.scheduling import LONG_UNITS

    root = Path(__file__).resolve().parents[2]
    assert all((root / module).is_file() for module in LONG_UNITS)
