"""Docflows on TypeScript and Go projects, through the real CLI and service: the facts come from
tree-sitter syntax trees (a commander option, a Go flag and settings struct), and the Writer
edits the table row and list item that document them."""

from __future__ import annotations

import pytest

from tests.support import GitRemote, docflow, docflow_project

TS_OLD = """import { Command } from 'commander';
// .option('--ghost', 'a comment is no option', 1)
export const program = new Command('serve')
  .option('-p, --port <number>', 'port to listen on', 3000)
  .option('--cache-dir <dir>', 'where to keep the cache', '.cache');
const level = process.env.SERVE_LOG_LEVEL ?? 'info';
"""
TS_NEW = TS_OLD.replace("3000", "8080").replace("'--cache-dir <dir>'", "'--cache-path <dir>'")
TS_PAGE = """# serve

| Option | Description | Default |
|---|---|---|
| `--port` | port to listen on | `3000` |
| `--cache-dir` | where to keep the cache | `.cache` |

Set `SERVE_LOG_LEVEL` for more output.
"""

GO_OLD = """package server

type Config struct {
\tAddr    string `yaml:"addr" default:":8080"`
\tWorkers int    `yaml:"workers" default:"4"`
}

func Register() {
\tflag.Int("max-conns", 100, "connections at most")
}
"""
GO_NEW = GO_OLD.replace('default:"4"', 'default:"8"').replace('"max-conns", 100', '"max-conns", 250')
GO_PAGE = """# Configuration

- `addr`: where to listen. Default: `:8080`.
- `workers`: how many requests run at once. Default: `4`.

Start with `--max-conns` (default `100`) to cap connections.
"""

CASES = {
    "typescript": ({"src/cli.ts": TS_OLD}, {"src/cli.ts": TS_NEW}, {"docs/serve.md": TS_PAGE},
                   {"flag --cache-dir renamed to --cache-path", "flag --port default 3000 → 8080"},
                   ["-| `--port` | port to listen on | `3000` |", "+| `--port` | port to listen on | `8080` |",
                    "+| `--cache-path` | where to keep the cache | `.cache` |"]),
    "go": ({"server/config.go": GO_OLD}, {"server/config.go": GO_NEW}, {"docs/config.md": GO_PAGE},
           {"config workers default 4 → 8", "flag --max-conns default 100 → 250"},
           ["+- `workers`: how many requests run at once. Default: `8`.",
            "+Start with `--max-conns` (default `250`) to cap connections."]),
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_facts_from_syntax_trees_edit_the_rows_that_document_them(service, tmp_path, language):
    code_files, changed, pages, facts, lines = CASES[language]
    code = GitRemote(tmp_path, "code", code_files)
    code.branch("change", changed, "Change the defaults")
    cli = docflow_project(service, tmp_path, language, code, pages)
    result = docflow(cli, 7, "change", "Change the defaults")
    assert {f["text"] for f in result["facts"]} == facts
    assert result["files"] == sorted(pages)
    diff = cli("items", "diff", "docflows", str(result["suggestion_id"])).stdout.splitlines()
    assert all(line in diff for line in lines), "\n".join(diff)
