import subprocess

import pytest

from docsvc.config import DEFAULT_BASE_URL, ConfigError, git_tracks, load_settings


def no_user(tmp_path) -> dict[str, str]:
    """An environment whose per-user config directory is empty (never the developer's own)."""
    return {"DOCSVC_CONFIG_DIR": str(tmp_path / "user")}


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
    settings = load_settings(env={**no_user(tmp_path), **env}, cwd=tmp_path)
    assert (settings.api_key, settings.base_url) == (expected_key, expected_url)


@pytest.mark.parametrize("text, message", [
    ("api_key: [unclosed\n", "docsvc.yaml: not valid YAML at line"),
    ("- just\n- a list\n", "docsvc.yaml: must be a mapping"),
    ("integration_id: twelve\n", "docsvc.yaml: integration_id must be an integer, got 'twelve'"),
    ("integration_id: 1.5\n", "docsvc.yaml: integration_id must be an integer, got 1.5"),
    ("integration_id: true\n", "docsvc.yaml: integration_id must be an integer, got True"),
    ("integration_id: -3\n", "docsvc.yaml: integration_id must be a positive integer of at most 2147483647, got -3"),
    ("integration_id: 99999999999999999999999\n",
     "docsvc.yaml: integration_id must be a positive integer of at most 2147483647, got 99999999999999999999999"),
    ("api_key: 12345\n", "docsvc.yaml: api_key must be a string"),
    ("integration_id: [1, 2]\n", "docsvc.yaml: integration_id must be an integer, got a list"),
])
def test_malformed_file_names_the_file_and_the_key(tmp_path, text, message):
    write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(env=no_user(tmp_path), cwd=tmp_path)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("raw", [b"\xff\xfe\x00", b"api_key: caf\xe9\n"])
def test_a_file_that_is_not_utf8_names_the_file(tmp_path, raw):
    (tmp_path / "docsvc.yaml").write_bytes(raw)
    with pytest.raises(ConfigError, match=r"^docsvc\.yaml: not UTF-8 text \(byte \d+\)$"):
        load_settings(env=no_user(tmp_path), cwd=tmp_path)
    (tmp_path / "docsvc.yaml").unlink()
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "config.yaml").write_bytes(raw)
    with pytest.raises(ConfigError, match=r"/user/config\.yaml: not UTF-8 text"):
        load_settings(env=no_user(tmp_path), cwd=tmp_path)


BILLION_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))


@pytest.mark.parametrize("key", ["api_key", "base_url", "integration_id"])
def test_an_alias_bomb_in_the_file_is_refused_at_once(tmp_path, key):
    write(tmp_path, BILLION_LAUGHS + f"{key}: *i\n")  # 9^9 nodes once expanded
    with pytest.raises(ConfigError) as info:
        load_settings(env=no_user(tmp_path), cwd=tmp_path)
    assert str(info.value).startswith(f"docsvc.yaml: {key} must be") and len(str(info.value)) < 100


def test_integration_id_from_the_file(tmp_path):
    write(tmp_path, "integration_id: 12\n")
    assert load_settings(env=no_user(tmp_path), cwd=tmp_path).integration_id == 12
    write(tmp_path, "integration_id: '7'\n")
    assert load_settings(env=no_user(tmp_path), cwd=tmp_path).integration_id == 7


def test_settings_repr_hides_the_key(tmp_path):
    settings = load_settings(env={**no_user(tmp_path), "DOCSVC_API_KEY": "dsv_secret"}, cwd=tmp_path)
    assert "dsv_secret" not in repr(settings)


def test_git_tracks(tmp_path):
    path = write(tmp_path, "api_key: x\n") / "docsvc.yaml"
    assert not git_tracks(path)  # not a repository at all
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    assert not git_tracks(path)
    subprocess.run(["git", "add", "docsvc.yaml"], cwd=tmp_path, check=True)
    assert git_tracks(path)


def user_file(tmp_path, text: str) -> dict[str, str]:
    env = no_user(tmp_path)
    (tmp_path / "user").mkdir(exist_ok=True)
    (tmp_path / "user" / "config.yaml").write_text(text)
    return env


@pytest.mark.parametrize("flags, env, project, user, expected", [
    # each source in turn is the strongest one present
    ({"base_url": "http://flag"}, {"DOCSVC_BASE_URL": "http://env"}, "base_url: http://project\n",
     "base_url: http://user\n", ("http://flag", "--base-url")),
    ({}, {"DOCSVC_BASE_URL": "http://env"}, "base_url: http://project\n", "base_url: http://user\n",
     ("http://env", "$DOCSVC_BASE_URL")),
    ({}, {}, "base_url: http://project\n", "base_url: http://user\n", ("http://project", "./docsvc.yaml")),
    ({}, {}, None, "base_url: http://user/\n", ("http://user", "user config")),
    ({}, {}, None, None, (DEFAULT_BASE_URL, "default")),
])
def test_precedence_flags_environment_project_user(tmp_path, flags, env, project, user, expected):
    full_env = {**(user_file(tmp_path, user) if user else no_user(tmp_path)), **env}
    if project:
        write(tmp_path, project)
    settings = load_settings(env=full_env, cwd=tmp_path, flags=flags)
    assert settings.base_url == expected[0]
    assert settings.source("base_url").startswith(expected[1])


def test_key_from_the_user_config_names_its_file(tmp_path):
    env = user_file(tmp_path, "api_key: dsv_user_key_123\n")
    settings = load_settings(env=env, cwd=tmp_path)
    assert settings.api_key == "dsv_user_key_123"
    assert settings.source("api_key") == f"user config {tmp_path / 'user' / 'config.yaml'}"
    write(tmp_path, "api_key: dsv_project_key\n")
    assert load_settings(env=env, cwd=tmp_path).source("api_key") == "./docsvc.yaml"


@pytest.mark.parametrize("url, message", [
    ("localhost:8080", "$DOCSVC_BASE_URL: base URL 'localhost:8080' has no scheme; write http://localhost:8080 "
                       "or https://localhost:8080"),
    ("ftp://host", "$DOCSVC_BASE_URL: base URL 'ftp://host' must start with http:// or https://"),
    ("http://", "$DOCSVC_BASE_URL: base URL 'http://' has no host"),
    ("http://[::1", "$DOCSVC_BASE_URL: base URL 'http://[::1' is malformed (Invalid IPv6 URL)"),
    ("http://host:80x", "$DOCSVC_BASE_URL: base URL 'http://host:80x' is malformed "
                        "(Port could not be cast to integer value as '80x')"),
    ("https://host:99999", "$DOCSVC_BASE_URL: base URL 'https://host:99999' is malformed (Port out of range 0-65535)"),
    ("https://ada:hunter2@[::1", "$DOCSVC_BASE_URL: base URL 'https://***@[::1' is malformed (Invalid IPv6 URL)"),
    ("ada:hunter2@host", "$DOCSVC_BASE_URL: base URL '***@host' has no scheme; write http://***@host "
                         "or https://***@host"),
])
def test_base_url_without_an_http_scheme_is_refused(tmp_path, url, message):
    with pytest.raises(ConfigError) as info:
        load_settings(env={**no_user(tmp_path), "DOCSVC_BASE_URL": url}, cwd=tmp_path)
    assert str(info.value) == message


@pytest.mark.parametrize("key", ["dsv_a b", "dsv_a\x00b", "dsv_a\nb", "dsv_é", "é", "dsv_\u00a0k", "dsv_\udcff"])
def test_a_key_that_no_header_can_carry_is_refused(tmp_path, key):
    with pytest.raises(ConfigError) as info:
        load_settings(env={**no_user(tmp_path), "DOCSVC_API_KEY": key}, cwd=tmp_path)
    assert str(info.value).startswith("$DOCSVC_API_KEY: the API key must be printable ASCII without spaces")
    assert key.strip() not in str(info.value)


def test_a_non_ascii_key_in_the_user_config_names_the_file(tmp_path):
    env = user_file(tmp_path, "api_key: dsv_caf\u00e9\n")
    with pytest.raises(ConfigError, match=r"^user config .*config\.yaml: the API key must be printable ASCII"):
        load_settings(env=env, cwd=tmp_path)


def test_a_trailing_newline_is_not_part_of_the_key(tmp_path):
    assert load_settings(env={**no_user(tmp_path), "DOCSVC_API_KEY": "dsv_k\n"}, cwd=tmp_path).api_key == "dsv_k"


def test_user_config_is_written_private_and_whole(tmp_path):
    from docsvc.config import mask_key, write_user_config

    path = tmp_path / "cfg" / "config.yaml"
    write_user_config(path, {"api_key": "dsv_secret_value_1", "base_url": "http://x"})
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["config.yaml"]  # no temporary file left
    assert load_settings(env={"DOCSVC_CONFIG_DIR": str(path.parent)}, cwd=tmp_path).api_key == "dsv_secret_value_1"
    assert mask_key("dsv_secret_value_1") == "dsv_…_1" and "secret" not in mask_key("dsv_secret_value_1")
