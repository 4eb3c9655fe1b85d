import pytest


@pytest.fixture(autouse=True)
def _in_a_fresh_folder(tmp_path, monkeypatch):
    """Each CI test runs in its own folder: the step's report files (docsvc.sarif, JUnit, the result
    file) land there, never in the checkout."""
    monkeypatch.chdir(tmp_path)
