"""Facts found in code and config changes: the first stage of Docflows (groundwork for issue 5)."""

import pytest

from docsvc.server.engines.docflows.facts import facts_of_change


def described(path, old, new):
    return [f.describe() for f in facts_of_change(path, old, new)]


PY_OLD = '''import argparse, os

def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs-root", default="docs", help="folder of the docs")
    parser.add_argument("--retries", type=int, default=3, help="how often to retry")
    parser.add_argument("--legacy", action="store_true", help="old mode")
    return parser

TOKEN = os.environ["DEPLOY_TOKEN"]

def deploy(target):
    pass
'''
PY_NEW = '''import argparse, os

def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs-dir", default="docs", help="folder of the docs")
    parser.add_argument("--retries", type=int, default=5, help="how often to retry")
    parser.add_argument("--dry-run", action="store_true", help="show what would happen")
    return parser

TOKEN = os.environ["DEPLOY_TOKEN"]
REGION = os.getenv("DEPLOY_REGION", "eu-west-1")

def deploy(target):
    pass

class Deployer:
    pass
'''


def test_python_flags_env_defaults_and_symbols():
    assert sorted(described("app/cli.py", PY_OLD, PY_NEW)) == sorted([
        "flag --docs-root renamed to --docs-dir", "flag --retries default 3 → 5", "flag --dry-run added",
        "flag --legacy removed", "env DEPLOY_REGION added", "symbol Deployer added"])


def test_every_fact_says_which_rule_found_it():
    facts = facts_of_change("app/cli.py", PY_OLD, PY_NEW)
    assert all(f.rule for f in facts)
    rename = next(f for f in facts if f.change == "renamed")
    assert rename.rule == "python: click/typer/argparse option; rename paired by help text" and rename.line == 5


def test_javascript_commander_env_and_routes():
    old = """program
  .option('-p, --port <number>', 'port to listen on', 8080)
  .option('--verbose', 'more output');
const host = process.env.APP_HOST || 'localhost';
app.get('/api/users', listUsers);
export function listUsers(req, res) {}
"""
    new = """program
  .option('-p, --port <number>', 'port to listen on', 9090)
  .option('--quiet', 'less output');
const host = process.env.APP_HOST || 'localhost';
const level = process.env["LOG_LEVEL"] ?? 'info';
app.get('/api/users', listUsers);
app.post('/api/users', createUser);
export function listUsers(req, res) {}
export async function createUser() {}
"""
    assert sorted(described("src/server.ts", old, new)) == sorted([
        "flag --port default 8080 → 9090", "flag --verbose removed", "flag --quiet added", "env LOG_LEVEL added",
        "route POST /api/users added", "symbol createUser added"])


def test_go_flags_env_routes_and_exported_names():
    old = """package main
func main() {
	addr := flag.String("addr", ":8080", "listen address")
	flag.BoolVar(&debug, "debug", false, "debug logs")
	cmd.Flags().StringP("output", "o", "text", "output format")
	token := os.Getenv("API_TOKEN")
	http.HandleFunc("/healthz", health)
}
func Health() {}
"""
    new = """package main
func main() {
	addr := flag.String("addr", ":9090", "listen address")
	flag.BoolVar(&debug, "verbose", false, "debug logs")
	cmd.Flags().StringP("output", "o", "json", "output format")
	token := os.Getenv("API_TOKEN")
	timeout := os.Getenv("API_TIMEOUT")
	mux.HandleFunc("GET /users/{id}", getUser)
	http.HandleFunc("/healthz", health)
}
func Health() {}
type Server struct{}
"""
    # package main: its exported names are no one's to import (Server is no symbol)
    assert sorted(described("cmd/app/main.go", old, new)) == sorted([
        'flag --addr default ":8080" → ":9090"', "flag --debug renamed to --verbose",
        'flag --output default "text" → "json"', "env API_TIMEOUT added", "route GET /users/{id} added"])


def test_helm_values_yaml_json_toml_and_env_files():
    assert sorted(described("chart/values.yaml", "replicaCount: 1\nimage:\n  tag: '1.0'\n  pullPolicy: Always\n",
                            "replicaCount: 2\nimage:\n  tag: '1.0'\nservice:\n  port: 80\n")) == sorted([
        "config replicaCount default 1 → 2", "config image.pullPolicy removed", "config service.port added"])
    assert described("config.json", '{"cache": {"ttl": 60}}', '{"cache": {"ttl": 120}}') == [
        "config cache.ttl default 60 → 120"]
    assert described("pyproject.toml", "[tool.app]\nlevel = 'info'\n", "[tool.app]\nlevel = 'debug'\n") == [
        'config tool.app.level default "info" → "debug"']
    assert described(".env.example", "DB_URL=postgres://x\nOLD_FLAG=1\n", "DB_URL=postgres://x\nNEW_FLAG=1\n") == [
        "env OLD_FLAG renamed to NEW_FLAG"]


def test_openapi_operations_and_parameters():
    old = """openapi: 3.0.0
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer, default: 20}}
"""
    new = """openapi: 3.0.0
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer, default: 50}}
        - {name: cursor, in: query, schema: {type: string}}
    post:
      operationId: createPet
"""
    assert sorted(described("api/openapi.yaml", old, new)) == sorted([
        "parameter GET /pets query:limit default 20 → 50", "parameter GET /pets query:cursor added",
        "operation POST /pets added"])


@pytest.mark.parametrize("path", ["tests/test_cli.py", "pkg/server_test.go", "src/app.test.ts", "src/__tests__/a.js",
                                  "test_something.py", "src/node/__tests_dts__/glob.ts", "e2e/login.ts",
                                  "src/__mocks__/fs.js"])
def test_changes_to_tests_give_no_facts(path):
    assert facts_of_change(path, 'x = os.getenv("A")\n', 'x = os.getenv("B")\ny = os.getenv("C")\n') == []


def test_added_and_deleted_files_and_broken_configs():
    assert described("app/new.py", None, "def run():\n    pass\n") == ["symbol run added"]
    assert described("app/old.py", "class Old:\n    pass\n", None) == ["symbol Old removed"]
    assert described("config.yaml", "a: [unclosed\n", "a: 1\n") == ["config a added"]
    assert described("README.md", "# x\n", "# y\n") == []


def test_facts_between_two_commits_of_a_real_repository(tmp_path):
    from docsvc.server.engines.docflows.facts import facts_between
    from docsvc.server.engines.git import Mirror
    from tests.support import GitRemote, git

    remote = GitRemote(tmp_path, "app", {"app/cli.py": PY_OLD, "app/old_name.py": "def helper():\n    pass\n",
                                         "tests/test_cli.py": "def test_x():\n    pass\n"})
    base = git("rev-parse", "HEAD", cwd=remote.work)
    git("mv", "app/old_name.py", "app/new_name.py", cwd=remote.work)
    head = remote.commit({"app/cli.py": PY_NEW, "tests/test_cli.py": "def test_y():\n    pass\n"}, "the PR")
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    assert mirror.merge_base(base, head) == base
    assert ("R", "app/old_name.py", "app/new_name.py") in mirror.changed_files(base, head)
    facts = facts_between(mirror, base, head)
    assert {f.path for f in facts} == {"app/cli.py"}  # the renamed module keeps its symbols; tests give none
    assert "flag --docs-root renamed to --docs-dir" in [f.describe() for f in facts]


def test_code_that_stops_parsing_gives_a_note_not_a_list_of_removals():
    # (or syntax newer than the service's Python): every item would otherwise look removed
    notes = []
    assert facts_of_change("app/api.py", "def run(x=1): ...\nclass Job: ...\n", "def run(x=1:\n", notes=notes) == []
    assert notes == ["app/api.py: not read (its code does not parse after the change)"]


def test_a_removed_class_named_only_in_a_docstring_or_comment_is_removed_for_certain(tmp_path):
    from docsvc.server.engines.docflows.facts import facts_between
    from docsvc.server.engines.git import Mirror
    from tests.support import GitRemote

    hierarchy = ('"""The exceptions:\n\n* HTTPError\n  + BodyUnavailable\n"""\n\n\n'
                 'class HTTPError(Exception):\n    pass\n')
    old = hierarchy + "\n\nclass BodyUnavailable(HTTPError):\n    pass\n"
    client = "def failed(errors):\n    return errors.HTTPError\n"
    remote = GitRemote(tmp_path, "app", {"app/errors.py": old, "app/client.py": client})
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    base = mirror.head("main")
    gone = {"app/errors.py": hierarchy + "\n# BodyUnavailable went away\n"}
    read = {**gone, "app/client.py": client.replace("HTTPError", "BodyUnavailable")}  # code still reads it
    for change, described in ((gone, "symbol BodyUnavailable removed"),
                              (read, "symbol BodyUnavailable removed from its definition, still named in the code "
                                     "(deprecated or moved)")):
        remote.commit(change, "the PR")
        mirror.fetch()
        assert [f.describe() for f in facts_between(mirror, base, mirror.head("main"))] == [described]


MKDOCS_OLD = '''from mkdocs.config import config_options as c

DEFAULT_SCHEMA = (
    ("site_name", c.Type(str, required=True)),
    ("google_analytics", c.Type(list, default=None)),
)


class ThemeConfig(c.Config):
    """The theme's settings."""

    palette = c.Type(str, default="light")
    navigation_depth = c.Type(int, default=2)
'''

GO_OLD = '''package config

// Config is read from .app.yaml.
type Config struct {
	// Dist is the output folder.
	Dist string `yaml:"dist"`
	// Snapshot builds without a tag.
	Snapshot bool `yaml:"snapshot"`
}

func init() {
	rootCmd.Flags().String("rm-dist", "", "remove the dist folder")
	rootCmd.Flags().Bool("clean", false, "clean the dist folder")
}
'''


@pytest.mark.parametrize("path, old, new, expected", [
    # mkdocs: a setting wrapped in Deprecated(...), its default read from the option it wraps
    ("mkdocs/config/defaults.py", MKDOCS_OLD,
     MKDOCS_OLD.replace('("google_analytics", c.Type(list, default=None))',
                        '("google_analytics", c.Deprecated(message="Use theme.analytics", '
                        'option_type=c.Type(list, default=None)))')
     .replace('navigation_depth = c.Type(int, default=2)',
              'navigation_depth = c.Deprecated(option_type=c.Type(int, default=2))'),
     ["config google_analytics deprecated: its definition says so",
      "config navigation_depth deprecated: its definition says so"]),
    # Go: pflag's MarkDeprecated, a settings field whose doc comment gains a Deprecated: paragraph
    ("pkg/config/config.go", GO_OLD,
     GO_OLD.replace("\t// Snapshot builds without a tag.\n",
                    "\t// Snapshot builds without a tag.\n\t//\n\t// Deprecated: use --snapshot.\n")
     .replace('"clean the dist folder")\n}', '"clean the dist folder")\n'
              '\trootCmd.Flags().MarkDeprecated("rm-dist", "use --clean")\n}'),
     ["a deprecation warning added in pkg/config/config.go", "config snapshot deprecated: its definition says so",
      "flag --rm-dist deprecated: its definition says so"]),
])
def test_a_setting_or_flag_the_code_now_declares_deprecated_is_a_deprecated_fact(tmp_path, path, old, new, expected):
    from docsvc.server.engines.docflows.facts import facts_between
    from docsvc.server.engines.git import Mirror
    from tests.support import GitRemote

    remote = GitRemote(tmp_path, "app", {path: old})
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    base = mirror.head("main")
    remote.commit({path: new}, "deprecate")
    mirror.fetch()
    assert sorted(f.describe() for f in facts_between(mirror, base, mirror.head("main"))) == expected


def test_javascript_error_and_warning_codes_defined_by_a_factory_with_their_message():
    old = """const createError = require('@fastify/error')
const codes = {
  FST_ERR_NOT_FOUND: createError('FST_ERR_NOT_FOUND', 'Not Found', 404),
}
const FSTDEP010 = createWarning({ name: 'FastifyDeprecation', code: 'FSTDEP010', message: 'reply.sent is deprecated' })
log.info('SOME_EVENT', 'a log line, not a code')
"""
    new = """const createError = require('@fastify/error')
const codes = {
  FST_ERR_NOT_FOUND: createError('FST_ERR_NOT_FOUND', 'Not Found', 404),
  FST_ERR_BAD_URL: createError('FST_ERR_BAD_URL', "'%s' is not a valid url component", 400),
}
log.info('SOME_EVENT', 'a log line, not a code')
warning.create('FastifyDeprecation', 'FSTDEP001', 'request.req is deprecated')
"""
    facts = facts_of_change("lib/errors.js", old, new)
    # the code among a call's first strings (a warning's name first), its message after it
    assert sorted(f.describe() for f in facts) == ["enum FSTDEP001 added", "enum FSTDEP010 removed",
                                                   "enum FST_ERR_BAD_URL added"]
    added = next(f for f in facts if f.name == "FST_ERR_BAD_URL")
    # its message is its description; the codes the same factory defines are its siblings
    assert (added.note, added.siblings) == ("'%s' is not a valid url component", ("FST_ERR_NOT_FOUND",))


def test_typescript_union_of_string_literals_is_an_enum_of_its_members():
    old = "export type ApplicationHook = 'onRoute'\n  | 'onReady'\n  | 'onClose'\nexport type Mode = string | 'auto'\n"
    new = "export type ApplicationHook = 'onRoute'\n  | 'onReady'\n  | 'onListen'\n  | 'onClose'\n" \
          "export type Mode = string | 'auto' | 'manual'\n"
    facts = facts_of_change("types/hooks.d.ts", old, new)
    # a union with another type than string literals is no list of names (Mode)
    assert [f.describe() for f in facts] == ["enum onListen added"]
    assert (facts[0].siblings, facts[0].follows) == (("onReady", "onClose", "onRoute"), ("onReady", "onRoute"))


def test_go_exported_fields_of_an_exported_struct_of_a_library_are_settings_users_set():
    old = """package cli

// App is the main structure of a cli application.
type App struct {
	// The name of the program
	Name string
	// Boolean to enable short-option handling
	UseShortOptionHandling bool
	didSetup bool
}
"""
    new = old.replace("	didSetup bool", "	// Enable suggestions for commands and flags\n	Suggest bool\n	didSetup bool")
    facts = facts_of_change("app.go", old, new)
    assert [f.describe() for f in facts] == ["config Suggest added"]
    assert (facts[0].note, facts[0].siblings) == ("Enable suggestions for commands and flags",
                                                  ("UseShortOptionHandling", "Name"))
    # a program's own structs are no one's to set (package main)
    assert facts_of_change("main.go", old.replace("package cli", "package main"),
                           new.replace("package cli", "package main")) == []


def test_a_dropped_parameter_is_still_there_only_if_its_own_function_takes_or_uses_it(tmp_path):
    from docsvc.server.engines.docflows.facts import facts_between
    from docsvc.server.engines.git import Mirror
    from tests.support import GitRemote

    old = ("class Type:\n    def complete(self, ctx, param, args, incomplete):\n        return []\n\n\n"
           "def run(name, old=None):\n    return name\n")
    other = "def main(args):\n    return args\n"  # a common word turns up in any code
    remote = GitRemote(tmp_path, "app", {"app/types.py": old, "app/cli.py": other})
    mirror = Mirror.for_url(tmp_path / "data", str(remote.bare))
    mirror.fetch()
    base = mirror.head("main")
    new = ("class Type:\n    def complete(self, ctx, param, incomplete):\n        return []\n\n\n"
           "def run(name, **kwargs):\n    if kwargs.pop(\"old\", None):\n        warn()\n    return name\n")
    remote.commit({"app/types.py": new}, "the PR")
    mirror.fetch()
    facts = {f.name: f for f in facts_between(mirror, base, mirror.head("main"))}
    assert facts["Type.complete(args)"].change == "removed"
    assert facts["Type.complete(args)"].siblings == ("ctx", "param", "incomplete")
    assert facts["run(old)"].change == "deprecated"  # its function still reads it: a shim
