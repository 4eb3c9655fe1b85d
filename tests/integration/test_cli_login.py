"""The CLI for people, through the real CLI against the real local service: login, logout,
whoami, `config list` and its precedence, shell completion, and errors that say what to do."""

from __future__ import annotations

import subprocess

import pytest

from tests.support import command, free_port, run_cli


@pytest.fixture(scope="module")
def org(service):
    """An organisation with a System Administrator and a Writer: (admin key, writer key)."""
    admin_key = service.admin("init", "--org", "Login Co", "--admin-email", "ada@login.test", "--admin-name", "Ada")
    service.admin("users", "add", "--org", "Login Co", "--email", "wes@login.test", "--role", "writer",
                  "--name", "Wes")
    writer_key = service.admin("keys", "create", "--email", "wes@login.test")
    return admin_key, writer_key


def cli(*args, cfg, base_url=None, key=None, input=None, cwd=None):
    return run_cli(*args, key=key, base_url=base_url, cwd=cwd, input=input, env={"DOCSVC_CONFIG_DIR": str(cfg)})


def test_login_with_a_good_key_saves_it_privately_and_later_commands_use_it(service, org, tmp_path):
    admin_key, _ = org
    cfg = tmp_path / "cfg"
    done = cli("login", "--with-token", "--base-url", service.base_url, cfg=cfg, input=admin_key + "\n",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"Logged in to {service.base_url} as Ada (System Administrator, Login Co)" in done.stderr
    assert admin_key not in done.stderr + done.stdout
    saved = cfg / "config.yaml"
    assert saved.stat().st_mode & 0o777 == 0o600
    assert admin_key in saved.read_text()

    # No key and no URL in the environment: both come from what login saved.
    work = cli("mywork", cfg=cfg, cwd=tmp_path)
    assert (work.returncode, work.stdout) == (0, "0 open · 0 blocked · 0 Docflows to review\n")
    who = cli("whoami", cfg=cfg, cwd=tmp_path)
    assert who.returncode == 0, who.stderr
    assert "User: Ada <ada@login.test>" in who.stdout and "Organisation: Login Co" in who.stdout
    assert "Role: System Administrator" in who.stdout
    assert f"Base URL: {service.base_url} (from user config {saved})" in who.stdout
    assert f"API key: {admin_key[:4]}…{admin_key[-2:]} (from user config {saved})" in who.stdout
    assert admin_key not in who.stdout

    out = cli("logout", cfg=cfg, cwd=tmp_path)
    assert out.returncode == 0 and admin_key not in saved.read_text()
    again = cli("logout", cfg=cfg, cwd=tmp_path)
    assert (again.returncode, again.stderr) == (1, f"Error: not logged in: no key saved in {saved}\n")
    gone = cli("mywork", cfg=cfg, cwd=tmp_path)
    assert (gone.returncode, gone.stderr) == (4, "Error: DOCSVC_API_KEY missing\n")


def test_login_with_a_bad_key_saves_nothing(service, org, tmp_path):
    admin_key, _ = org
    cfg = tmp_path / "cfg"
    assert cli("login", "--with-token", "--base-url", service.base_url, cfg=cfg, input=admin_key).returncode == 0
    before = (cfg / "config.yaml").read_text()
    bad = cli("login", "--with-token", "--base-url", service.base_url, cfg=cfg, input="dsv_not_a_real_key\n")
    assert bad.returncode == 4
    assert bad.stderr.startswith(f"Error: {service.base_url} refused the key (401")
    assert bad.stderr.endswith("; nothing was saved\n") and len(bad.stderr.splitlines()) == 1
    assert (cfg / "config.yaml").read_text() == before  # the working key is still there


def test_a_config_folder_that_cannot_be_made_is_one_line(service, org, tmp_path):
    admin_key, _ = org
    (tmp_path / "f").write_text("")
    saved = tmp_path / "f" / "cfg" / "config.yaml"
    bad = cli("login", "--with-token", "--base-url", service.base_url, cfg=tmp_path / "f" / "cfg", input=admin_key)
    assert (bad.returncode, bad.stderr) == (
        2, f"Error: {saved}: cannot be written: {tmp_path / 'f'} is not a folder; the key was not saved\n")


def test_login_without_a_terminal_asks_for_with_token(tmp_path):
    done = cli("login", cfg=tmp_path / "cfg", base_url=f"http://127.0.0.1:{free_port()}")
    assert done.returncode == 2
    assert done.stderr.startswith("Error: no terminal to ask for the key on; pipe it in with --with-token")
    assert not (tmp_path / "cfg").exists()


def test_config_list_shows_each_source_with_the_key_masked(service, org, tmp_path):
    admin_key, writer_key = org
    cfg = tmp_path / "cfg"
    assert cli("login", "--with-token", "--base-url", service.base_url, cfg=cfg, input=admin_key).returncode == 0
    project = tmp_path / "project"
    project.mkdir()
    (project / "docsvc.yaml").write_text("integration_id: 3\n")

    listed = cli("config", "list", cfg=cfg, cwd=project)
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in listed.stdout.splitlines()[1:4]}
    assert rows["api_key"] == [f"{admin_key[:4]}…{admin_key[-2:]}", f"user config {cfg / 'config.yaml'}"]
    assert rows["base_url"] == [service.base_url, f"user config {cfg / 'config.yaml'}"]
    assert rows["integration_id"] == ["3", "./docsvc.yaml"]
    assert admin_key not in listed.stdout

    # The environment beats the user config; the flag beats the environment.
    import json

    shown = cli("--base-url", "http://127.0.0.1:9", "config", "list", "--json", cfg=cfg, cwd=project,
                key=writer_key, base_url="http://127.0.0.1:8")
    settings = {row["name"]: row for row in json.loads(shown.stdout)["settings"]}
    assert (settings["api_key"]["source"], settings["base_url"]["source"]) == ("$DOCSVC_API_KEY", "--base-url")
    assert settings["base_url"]["value"] == "http://127.0.0.1:9"
    assert writer_key not in shown.stdout
    # and whoami follows the same precedence: the environment's key is the writer's
    who = cli("whoami", "--json", cfg=cfg, cwd=project, key=writer_key)
    assert json.loads(who.stdout)["user"]["role"] == "writer"


@pytest.mark.parametrize("args, code, message", [
    (["mywork"], 4, "Error: Unknown or revoked API key (check DOCSVC_API_KEY or run `docsvc login`)\n"),
    (["admin", "users", "list"], 4, "Error: Listing users is for System Administrators only\n"),
    (["items", "rename", "captures", "999999", "x"], 1, "Error: Capture 999999 not found\n"),
])
def test_errors_say_what_to_do(service, org, tmp_path, args, code, message):
    _, writer_key = org
    key = "dsv_wrong_key_for_this_test" if code == 4 and args == ["mywork"] else writer_key
    done = cli(*args, cfg=tmp_path, key=key, base_url=service.base_url)
    assert (done.returncode, done.stderr) == (code, message)


def test_refused_connection_and_url_without_scheme(tmp_path):
    port = free_port()
    refused = cli("mywork", cfg=tmp_path, key="dsv_k", base_url=f"http://127.0.0.1:{port}")
    assert refused.returncode == 1 and len(refused.stderr.splitlines()) == 1
    assert refused.stderr.rstrip().endswith("(is the service running? `docsvc-server run` starts the local one)")
    bare = cli("mywork", cfg=tmp_path, key="dsv_k", base_url=f"127.0.0.1:{port}")
    assert (bare.returncode, bare.stderr) == (
        2, f"Error: $DOCSVC_BASE_URL: base URL '127.0.0.1:{port}' has no scheme; "
           f"write http://127.0.0.1:{port} or https://127.0.0.1:{port}\n")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell, tmp_path):
    done = cli("completion", shell, cfg=tmp_path)
    assert done.returncode == 0 and "_DOCSVC_COMPLETE" in done.stdout


def test_bash_completion_loads_and_completes(tmp_path):
    docsvc = command("docsvc")
    assert len(docsvc) == 1, "the docsvc console script is needed for the shell to call"
    bin_dir = str(tmp_path)
    (tmp_path / "docsvc").symlink_to(docsvc[0])
    script = ('source <(docsvc completion bash) && complete -p docsvc && '
              'COMP_WORDS=(docsvc ite); COMP_CWORD=1; _docsvc_completion docsvc && echo "${COMPREPLY[@]}"')
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin", "DOCSVC_CONFIG_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "complete -o nosort -F _docsvc_completion docsvc" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "items"
