import subprocess

import pytest

from docsvc.config import DEFAULT_BASE_URL, ConfigError, git_tracks, load_settings


def write(tmp_path, text: str):
    (tmp_path / "docsvc.yaml").write_text(text)
    return tmp_path


@pytest.mark.parametrize("env, file, expected_key, expected_url", [
    ({}, None, None, DEFAULT_BASE_URL),
    ({"DOCSVC_API_KEY": "env-key"}, None, "env-key", DEFAULT_BASE_URL),
    ({}, "api_key: file-key\nbase_url: https://docs.example.com/\n", "file-key", "https://docs.example.com"),
    ({"DOCSVC_API_KEY": "env-key", "DOCSVC_BASE_URL": "http://env:1"},
     "api_key: file-key\nbase_url: https://file\n", "env-key", "http://env:1"),
    ({"DOCSVC_API_KEY": ""}, "api_key: file-key\n", "file-key", DEFAULT_BASE_URL),
])
def test_environment_beats_the_file(tmp_path, env, file, expected_key, expected_url):
    if file is not None:
        write(tmp_path, file)
    settings = load_settings(env=env, cwd=tmp_path)
    assert (settings.api_key, settings.base_url) == (expected_key, expected_url)


@pytest.mark.parametrize("text, message", [
    ("api_key: [unclosed\n", "docsvc.yaml: not valid YAML at line"),
    ("- just\n- a list\n", "docsvc.yaml: must be a mapping"),
    ("integration_id: twelve\n", "docsvc.yaml: integration_id must be an integer, got 'twelve'"),
    ("integration_id: 1.5\n", "docsvc.yaml: integration_id must be an integer, got 1.5"),
    ("integration_id: true\n", "docsvc.yaml: integration_id must be an integer, got True"),
    ("integration_id: -3\n", "docsvc.yaml: integration_id must be a positive integer, got -3"),
    ("api_key: 12345\n", "docsvc.yaml: api_key must be a string"),
])
def test_malformed_file_names_the_file_and_the_key(tmp_path, text, message):
    write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(env={}, cwd=tmp_path)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_integration_id_from_the_file(tmp_path):
    write(tmp_path, "integration_id: 12\n")
    assert load_settings(env={}, cwd=tmp_path).integration_id == 12
    write(tmp_path, "integration_id: '7'\n")
    assert load_settings(env={}, cwd=tmp_path).integration_id == 7


def test_settings_repr_hides_the_key(tmp_path):
    settings = load_settings(env={"DOCSVC_API_KEY": "dsv_secret"}, cwd=tmp_path)
    assert "dsv_secret" not in repr(settings)


def test_git_tracks(tmp_path):
    path = write(tmp_path, "api_key: x\n") / "docsvc.yaml"
    assert not git_tracks(path)  # not a repository at all
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    assert not git_tracks(path)
    subprocess.run(["git", "add", "docsvc.yaml"], cwd=tmp_path, check=True)
    assert git_tracks(path)
