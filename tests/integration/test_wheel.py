"""The package installs anywhere (issue 16): ``python -m build`` makes an sdist and, from it, a
wheel; ``twine check`` passes both; the wheel installed with ``pip install --target DIR`` runs from
DIR alone: ``python -m docsvc --help``, a CI template rendered, and the service's package data
(migrations, demo data) found and used. Every file the code reads at run time is package data, so a
file left out of the wheel fails here, not on a user's machine."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from docsvc.ci.templates import ROOT, render_kind
from tests.support import clean_env


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
        timeout: float = 180) -> subprocess.CompletedProcess:
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{' '.join(args[:4])}...: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """An sdist and a wheel built from it, as a release would build them."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", str(out), str(ROOT), timeout=300)
    return out


@pytest.fixture(scope="module")
def target(dist, tmp_path_factory) -> Path:
    """The wheel and the client's dependencies, installed with ``pip install --target``."""
    folder = tmp_path_factory.mktemp("target")
    (wheel,) = dist.glob("*.whl")
    run(sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", str(folder),
        str(wheel), timeout=300)
    return folder


def from_target(target: Path, *args: str, site: bool = False, cwd: Path | None = None):
    """``PYTHONPATH=DIR python ARGS`` outside the checkout; without ``site`` the interpreter sees DIR
    and the standard library only (-S), so nothing of this checkout or its venv can stand in for
    the wheel."""
    flags = [] if site else ["-S"]
    return run(sys.executable, *flags, *args, cwd=cwd or target.parent, env=clean_env(PYTHONPATH=str(target)))


def test_twine_check_passes(dist):
    files = sorted(str(f) for f in dist.iterdir())
    assert len(files) == 2, files  # the sdist and the wheel
    assert "PASSED" in run(sys.executable, "-m", "twine", "check", "--strict", *files).stdout


def test_the_wheel_carries_license_types_and_metadata(dist):
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "docsvc/py.typed" in names
    assert "License-Expression: Apache-2.0" in metadata
    assert "Classifier: Programming Language :: Python :: 3.13" in metadata
    assert "Project-URL: Source, " in metadata


def test_the_cli_runs_from_a_target_folder(target, tmp_path):
    done = from_target(target, "-c", "import docsvc; print(docsvc.__file__)")
    assert Path(done.stdout.strip()).is_relative_to(target)
    assert "Usage: " in from_target(target, "-m", "docsvc", "--help").stdout


def test_a_ci_template_renders_from_a_target_folder(target, tmp_path):
    from_target(target, "-m", "docsvc", "ci", "init", "gitlab", "--dir", str(tmp_path))
    for path, text in render_kind("gitlab").items():
        assert (tmp_path / path).read_text(encoding="utf-8") == text, path


def test_the_service_package_data_works_from_a_target_folder(target, tmp_path):
    # The server's dependencies come from this venv (site on); docsvc itself from DIR, which
    # PYTHONPATH puts ahead of the venv's editable install.
    script = (
        "import docsvc, pathlib, sys\n"
        f"assert pathlib.Path(docsvc.__file__).is_relative_to({str(target)!r}), docsvc.__file__\n"
        "from docsvc.server.db.migrate import upgrade, head_revision, current_revision\n"
        f"url = 'sqlite:///{tmp_path / 'wheel.db'}'\n"
        "upgrade(url)\n"
        "assert current_revision(url) == head_revision(), (current_revision(url), head_revision())\n"
        "from docsvc.server.demo import chart_values\n"
        "assert b'replicaCount' in chart_values()\n"
        "print('ok')\n")
    assert from_target(target, "-c", script, site=True, cwd=tmp_path).stdout.strip() == "ok"

