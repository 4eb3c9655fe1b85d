"""The root group registers its commands module by module (docsvc.cli.main.COMMAND_MODULES):
the table must say exactly which top-level commands each module registers or extends, and one
command loads only the modules that name it."""

from __future__ import annotations

import json
import subprocess
import sys

from docsvc.cli.main import COMMAND_MODULES

# In a fresh interpreter: register the modules in order into a plain group, and after each one
# note which top-level commands were added or gained (nested) subcommands.
_TOUCHED = """
import click, importlib, json, sys
modules = json.loads(sys.argv[1])
group = click.Group()
def paths(command, path=()):
    found = set()
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            found |= {path + (name,)} | paths(sub, path + (name,))
    return found
before, touched = set(), {}
for module in modules:
    importlib.import_module("docsvc.cli." + module).register(group)
    now = paths(group)
    touched[module] = sorted({path[0] for path in now - before})
    before = now
print(json.dumps(touched))
"""


def test_the_table_names_what_each_module_registers_or_extends():
    done = subprocess.run([sys.executable, "-c", _TOUCHED, json.dumps(list(COMMAND_MODULES))],
                          capture_output=True, text=True, check=True)
    touched = json.loads(done.stdout)
    assert touched == {module: sorted(commands) for module, commands in COMMAND_MODULES.items()}


def test_one_command_loads_only_its_own_module():
    code = ("import sys\nfrom click.testing import CliRunner\nfrom docsvc.cli.main import cli\n"
            "CliRunner().invoke(cli, ['mywork', '--help'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('docsvc.cli.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.rsplit(".", 1)[1] for name in eval(done.stdout)}
    assert loaded & set(COMMAND_MODULES) == {"work"}, loaded


def test_help_lists_every_command():
    from click.testing import CliRunner
    from docsvc.cli.main import cli

    out = CliRunner().invoke(cli, ["--help"]).output
    for commands in COMMAND_MODULES.values():
        for command in commands:
            assert f"  {command} " in out or f"  {command}\n" in out, command
