"""JavaScript/TypeScript and Go facts read from tree-sitter syntax trees (issue 13: "for
JavaScript/TypeScript and Go use tree-sitter grammars rather than regexes")."""

import pytest

from docsvc.server.engines.docflows.facts import facts_of_change
from docsvc.server.engines.docflows.facts_go import go_items
from docsvc.server.engines.docflows.facts_javascript import javascript_items


def described(path, old, new, notes=None):
    return sorted(f.describe() for f in facts_of_change(path, old, new, notes=notes))


def names(items):
    return sorted((i.kind, i.name, i.default) for i in items)


# -- JavaScript / TypeScript ----------------------------------------------------------------------

def test_yargs_cac_parseargs_and_commander_option_objects():
    old = """
yargs.option('verbose', { alias: 'v', type: 'boolean', default: false, describe: 'Run with verbose logging' })
  .options({ retries: { default: 3, describe: 'how often' } })
  .positional('file', { describe: 'the input' });
cli.option('--port <port>', 'Port to use', { default: 3000 });
program.addOption(new Option('-t, --timeout <ms>', 'timeout').default(60));
const { values } = parseArgs({ options: { color: { type: 'string', short: 'c', default: 'auto' } } });
"""
    new = old.replace("default: 3,", "default: 5,").replace("3000", "8080").replace("default(60)", "default(90)") \
        .replace("'auto'", "'never'")
    assert described("bin/cli.js", old, new) == [
        "flag --color default 'auto' → 'never'", "flag --port default 3000 → 8080", "flag --retries default 3 → 5",
        "flag --timeout default 60 → 90"]
    found = names(javascript_items(old, "bin/cli.js"))
    assert ("flag", "--verbose", "false") in found and ("argument", "file", None) in found


def test_commander_parser_function_before_the_default_and_no_default_for_a_parser_alone():
    items = javascript_items("program.option('-n, --number <n>', 'a number', parseInt, 7)"
                             ".option('--list <items>', 'a list', (v) => v.split(','));", "cli.js")
    assert names(items) == [("flag", "--list", None), ("flag", "--number", "7")]


def test_a_quote_style_or_a_line_break_is_no_default_change():
    old = "program.option('--mode <m>', 'how', 'fast');\nconst x = process.env.HOME_DIR || '/home';\n"
    new = 'program.option(\n  "--mode <m>",\n  "how",\n  "fast",\n);\nconst x = process.env.HOME_DIR || "/home";\n'
    assert described("cli.js", old, new) == []


def test_a_string_or_comment_that_looks_like_code_is_not_read():
    text = """// program.option('--ghost', 'in a comment', 1)
const help = "call app.get('/fake', h) or process.env.NOT_READ";
"""
    assert javascript_items(text, "src/x.js") == []


def test_environment_reads_with_their_defaults():
    text = """
const { PORT = 3000, HOST } = process.env;
const mode = import.meta.env.VITE_MODE ?? 'dev';
const key = Deno.env.get("API_KEY");
const level = process.env['LOG_LEVEL'];
"""
    assert names(javascript_items(text, "src/env.ts")) == [
        ("env", "API_KEY", None), ("env", "HOST", None), ("env", "LOG_LEVEL", None), ("env", "PORT", "3000"),
        ("env", "VITE_MODE", "'dev'")]


def test_defaults_objects_options_interfaces_and_enums_are_settings():
    old = """
const defaults = { timeout: 0, transitional: { clarifyTimeoutError: false } };
export interface ServerOptions { port?: number; host: string }
export enum Level { Debug = "debug", Info = "info" }
"""
    new = """
const defaults = { timeout: 1000, maxRedirects: 5, transitional: { clarifyTimeoutError: false } };
export interface ServerOptions { port?: number; host: string; tls?: boolean }
export enum Level { Debug = "debug", Info = "info", Warn = "warn" }
"""
    assert described("lib/defaults.ts", old, new) == [
        "config maxRedirects added", "config timeout default 0 → 1000", "config tls added", "enum Warn added"]


def test_doc_comments_give_options_their_defaults_and_descriptions():
    old = """export interface BuildOptions {
  /**
   * Directory to write the build to.
   * @default 'dist'
   */
  outDir?: string
}
"""
    new = old.replace("'dist'", '"build"').replace("  outDir?: string\n", "  outDir?: string\n"
                                                   "  /** Remove the directory first. @see {@link emptyDir} */\n"
                                                   "  emptyOutDir?: boolean\n")
    facts = {f.describe(): f for f in facts_of_change("src/build.ts", old, new)}
    assert sorted(facts) == ["config emptyOutDir added", "config outDir default 'dist' → \"build\""]
    assert facts["config emptyOutDir added"].note == "Remove the directory first."
    assert described("src/build.ts", old, old.replace("'dist'", "`dist`")) == []  # quotes are no change


def test_exports_and_signatures():
    old = """
export function connect(url, { retries = 3, secure } = {}) {}
export class Client { constructor(base, timeout = 30) {} }
export const VERSION = '1.0';
export { helper as publicHelper };
module.exports.legacy = 1;
"""
    new = """
export function connect(url, { retries = 5, secure, proxy } = {}) {}
export class Client { constructor(base, timeout = 60) {} }
export const VERSION = '1.0';
export { helper as publicHelper, other, printer as "estree-json" };
"""
    assert described("src/index.js", old, new) == [
        "parameter Client(timeout) default 30 → 60", "parameter connect(proxy) added",
        "parameter connect(retries) default 3 → 5", "symbol legacy removed", "symbol other added"]


def test_the_object_an_exported_factory_returns_is_its_api():
    old = """
function build (options) {
  const app = {
    route: function _route (opts) {},
    propfind: function _propfind (url) {},
    get server () { return server },
    [kOptions]: options,
  }
  return app
}
function helper () { return { internal: 1 } }
module.exports = build
module.exports.build = build
"""
    new = old.replace("    propfind: function _propfind (url) {},\n", "    addHttpMethod (method) {},\n")
    assert described("fastify.js", old, new) == ["symbol build.addHttpMethod added", "symbol build.propfind removed"]
    members = sorted(i.name for i in javascript_items(old, "fastify.js") if i.owner == "build")
    assert members == ["build.propfind", "build.route", "build.server"]  # a computed [kOptions] is no name
    # a function nobody can import: what it returns is nobody's API
    assert not [i for i in javascript_items(old.split("module.exports")[0], "fastify.js") if i.owner]


def test_routes_express_fastify_and_nestjs():
    text = """
router.get('/users/:id', getUser);
fastify.route({ method: 'POST', url: '/items', handler });
cache.get('/not-a-route');
@Controller('orders')
export class OrdersController {
  @Get(':id')
  findOne() {}
  @Post()
  create() {}
}
"""
    routes = sorted(i.name for i in javascript_items(text, "src/app.ts") if i.kind == "route")
    assert routes == ["GET /orders/:id", "GET /users/:id", "POST /items", "POST /orders"]


def test_examples_export_no_api():
    text = "export function demo() {}\nprogram.option('--x', 'y');\n"
    assert names(javascript_items(text, "examples/demo.js")) == [("flag", "--x", None)]


def test_code_that_does_not_parse_gives_no_facts_and_a_note():
    notes = []
    old = "export function a() {}\nexport function b() {}\n"
    assert described("src/m.js", old, "export function a() {\n", notes) == []
    assert notes == ["src/m.js: not read (its code does not parse after the change)"]
    assert javascript_items("export function a() {\n", "src/m.js") is None


def test_a_sliver_the_grammar_does_not_know_is_read_around():
    # one line of syntax newer than the grammar amid a long file: the rest still reads
    text = "".join(f"export function f{i}(a = {i}) {{ return a; }}\n" for i in range(60))
    text += "export type * as Proxy from 'http-proxy-3'\n"
    items = javascript_items(text, "src/index.ts")
    assert items is not None and len([i for i in items if i.kind == "symbol"]) == 60


def test_jsx_and_tsx_parse():
    assert names(javascript_items("export const App = () => <div className='x'>{1}</div>;\n", "src/App.jsx")) == [
        ("symbol", "App", None)]
    assert names(javascript_items("export function View(p: {n: number}) { return <b>{p.n}</b>; }\n",
                                  "src/View.tsx")) == [("parameter", "View(p)", None), ("symbol", "View", None)]


# -- Go -------------------------------------------------------------------------------------------

GO_CONFIG_OLD = """package config

type Config struct {
	Port    int    `yaml:"port" default:"8080"`
	LogDir  string `yaml:"log_dir"`
	secret  string
	Token   string `json:"-" env:"APP_TOKEN"`
}

func Load(path string) (*Config, error) { return nil, nil }
func (c *Config) Validate() error { return nil }
func helper() {}
"""


def test_go_settings_structs_env_tags_and_exported_names():
    new = GO_CONFIG_OLD.replace('default:"8080"', 'default:"9090"').replace(
        '`yaml:"log_dir"`', '`yaml:"log_dir"`\n\tCacheTTL int `yaml:"cache_ttl" default:"60"`').replace(
        "func (c *Config) Validate", "func (c *Config) Check")
    assert described("pkg/config/config.go", GO_CONFIG_OLD, new) == [
        "config cache_ttl added", "config port default 8080 → 9090", "symbol Config.Check added",
        "symbol Config.Validate removed"]
    found = names(go_items(GO_CONFIG_OLD, "pkg/config/config.go"))
    assert ("env", "APP_TOKEN", None) in found and ("symbol", "Load", None) in found
    assert not any(name in ("secret", "helper", "Token") for _, name, _ in found)
    # a struct read from a YAML file is documented by its keys, not its Go name; an API's is a symbol
    assert ("symbol", "Config", None) not in found
    assert ("symbol", "Client", None) in names(go_items("package api\n\ntype Client struct {\n\tURL string\n}\n",
                                                        "pkg/api/client.go"))


def test_go_settings_take_their_doc_comment_as_description():
    old = "package config\n\ntype Options struct {\n\tPort int `yaml:\"port\"`\n}\n"
    new = old.replace("}\n", "\t// How many requests run at once.\n\tWorkers int `yaml:\"workers\" default:\"4\"`\n}\n")
    [added] = facts_of_change("pkg/config/options.go", old, new)
    assert (added.describe(), added.note, added.new) == ("config workers added", "How many requests run at once.", "4")


def test_go_urfave_cli_flags_viper_and_pflag_shorthands():
    old = """package main

func main() {
	app := &cli.App{Flags: []cli.Flag{
		&cli.StringFlag{Name: "lang", Aliases: []string{"l"}, Value: "english", Usage: "language", EnvVars: []string{"APP_LANG"}},
	}}
	viper.SetDefault("log.level", "info")
	viper.BindEnv("log.level", "LOG_LEVEL")
	cmd.PersistentFlags().StringVarP(&cfgFile, "config", "c", "", "config file")
	flag.Func("tag", "a tag", parseTag)
}
"""
    new = old.replace('"english"', '"spanish"').replace('"info")', '"warn")')
    assert described("cmd/app/main.go", old, new) == [
        'config log.level default "info" → "warn"', 'flag --lang default "english" → "spanish"']
    assert names(go_items(old, "cmd/app/main.go")) == [
        ("config", "log.level", '"info"'), ("env", "APP_LANG", None), ("env", "LOG_LEVEL", None),
        ("flag", "--config", '""'), ("flag", "--lang", '"english"'), ("flag", "--tag", None)]


@pytest.mark.parametrize("path,package", [("cmd/tool/main.go", "main"), ("internal/store/store.go", "store")])
def test_go_names_nobody_can_import_are_no_api(path, package):
    assert go_items(f"package {package}\n\nfunc Open() {{}}\ntype Store struct{{}}\n", path) == []


def test_go_raw_and_escaped_strings_and_a_broken_file():
    items = go_items('package web\n\nfunc R() {\n\tmux.Handle(`/raw`, h)\n\thttp.HandleFunc("/a\\x62", h)\n}\n',
                     "web/routes.go")
    assert sorted(i.name for i in items if i.kind == "route") == ["ANY /ab", "ANY /raw"]
    assert go_items("package web\nfunc (\n", "web/x.go") is None


def test_go_urfave_cli_flags_show_their_value_and_alias_as_its_help_prints_them():
    source = """package main

func main() {
	app := &cli.App{Flags: []cli.Flag{
		&cli.StringFlag{Name: "lang", Aliases: []string{"l", "language"}, Usage: "language"},
		&cli.StringFlag{Name: "config", Usage: "Load configuration from `FILE`"},
		&cli.BoolFlag{Name: "loud", Usage: "shout"},
	}}
}
"""
    flags = {i.name: (i.shows, i.short) for i in go_items(source, "cmd/app/main.go") if i.kind == "flag"}
    assert flags == {"--lang": ("value", "-l"), "--config": ("FILE", None), "--loud": ("", None)}
