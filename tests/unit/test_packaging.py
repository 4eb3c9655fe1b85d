"""What the package and its image carry, held to their sources: the demo's copy of the chart values, the
locks against pyproject.toml, the Dockerfile against the lock and the chart."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_carries_the_charts_values():
    """The demo converts this project's own chart values from any install, so the package holds a
    copy of them; this keeps the copy equal to the chart's file."""
    chart = ROOT / "deploy" / "helm" / "docsvc-server" / "values.yaml"
    copy = ROOT / "docsvc" / "server" / "demo_data" / "chart-values.yaml"
    assert copy.read_bytes() == chart.read_bytes(), f"run: cp {chart.relative_to(ROOT)} {copy.relative_to(ROOT)}"


def test_the_charts_image_installs_the_locked_service_as_the_charts_user():
    """No docker engine here to build it: the Dockerfile is held to the lock and to the chart."""
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    helpers = (ROOT / "deploy" / "helm" / "docsvc-server" / "templates" / "_helpers.tpl").read_text(encoding="utf-8")
    assert "--constraint requirements/server.txt '.[server,postgres]'" in dockerfile
    assert "USER 10001:10001" in dockerfile and "runAsUser: 10001" in helpers and "runAsGroup: 10001" in helpers
    lock = (ROOT / "requirements" / "server.txt").read_text(encoding="utf-8")
    assert "\npsycopg==" in lock and "\nfastapi==" in lock



def locked(lock: Path) -> dict[str, list[str]]:
    """name -> the versions a lock pins (one per Python range where they differ)."""
    pins: dict[str, list[str]] = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split(";")[0].split("#")[0].strip().split("==")
            pins.setdefault(canonical_name(name), []).append(version)
    return pins


def canonical_name(name: str) -> str:
    import re

    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.parametrize("lock, extras", [("server.txt", ("server", "postgres")),
                                          ("dev.txt", ("server", "postgres", "dev", "docs"))])
def test_the_locks_hold_every_dependency_of_pyproject(lock, extras):
    """A dependency added or re-bounded in pyproject.toml without `scripts/lock` fails here."""
    from packaging.requirements import Requirement

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + [r for extra in extras for r in project["optional-dependencies"][extra]]
    pins = locked(ROOT / "requirements" / lock)
    for text in wanted:
        requirement = Requirement(text)
        versions = pins.get(canonical_name(requirement.name), [])
        assert versions, f"{requirement.name} is not in requirements/{lock}: run scripts/lock"
        assert all(requirement.specifier.contains(v, prereleases=True) for v in versions), \
            f"requirements/{lock} pins {requirement.name}=={versions} outside {requirement.specifier}: run scripts/lock"
