"""Checkers that hand documentation text to the real parser of its format.

Each ``check_*`` feeds the text to the tool that readers of that format will use and raises
``AssertionError`` carrying the tool's own messages when it reports an error or a warning. On
success it returns the page as HTML, so a test can also check that the content came through
(a parser that accepts the text may still have read ``{x}`` as an expression or ``*a*`` as
emphasis).

- ``check_markdown``: markdown-it-py, CommonMark with GFM tables; internal links must resolve.
- ``check_mdx``: the MDX v3 compiler (``@mdx-js/mdx`` from ``.tools/``, run by node), as Docusaurus
  uses it; the YAML front matter is split off first, as Docusaurus does, and must be a mapping.
- ``check_rst``: docutils, no message of level WARNING or above.
- ``check_sphinx``: ``sphinx-build -W --keep-going -b html`` on a throw-away project.
- ``check_adoc``: Debian's ``asciidoctor`` with ``--failure-level=WARN``; nothing on stderr.
- ``check_mermaid``: Mermaid's own parser (``mermaid`` with ``jsdom`` from ``.tools/``, run by node);
  returns what it parsed (nodes and edges, or participants and messages) instead of HTML.

A checker whose tool is missing skips the test (``pytest.skip``) with the reason and how to install
it; ``skip_unless_tool`` does the same as a decorator. ``scripts/setup-ci-tools`` installs them all.
"""

from __future__ import annotations

import atexit
import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
import yaml

__all__ = ["check_markdown", "check_mdx", "check_rst", "check_sphinx", "check_adoc", "tool_missing",
           "require_tool", "skip_unless_tool", "TOOLS", "check_mermaid"]

ROOT = Path(__file__).resolve().parents[1]
MDX_SCRIPT = Path(__file__).with_name("mdx_compile.mjs")
MDX_PACKAGE = ROOT / ".tools" / "node_modules" / "@mdx-js" / "mdx" / "package.json"
MERMAID_SCRIPT = Path(__file__).with_name("mermaid_parse.mjs")
MERMAID_PACKAGES = [ROOT / ".tools" / "node_modules" / name / "package.json" for name in ("mermaid", "jsdom")]
TOOLS = ("markdown-it", "mdx", "docutils", "sphinx", "asciidoctor", "mermaid")
_SETUP = "run scripts/setup-ci-tools"
_DEV = "install the dev extras: pip install -e '.[server,dev]'"

_HREF = re.compile(r'href="#([^"]*)"')
_ID = re.compile(r'\bid="([^"]*)"')
_FRONT_MATTER = re.compile(r"\A---\n(.*?)^---[ \t]*(?:\n|\Z)", re.S | re.M)


def tool_missing(name: str) -> str | None:
    """Why the tool ``name`` (one of ``TOOLS``) cannot run here, or None when it can."""
    if name == "markdown-it":
        return None if importlib.util.find_spec("markdown_it") else f"markdown-it-py is not installed ({_DEV})"
    if name == "docutils":
        return None if importlib.util.find_spec("docutils") else f"docutils is not installed ({_DEV})"
    if name == "sphinx":
        return None if importlib.util.find_spec("sphinx") else f"Sphinx is not installed ({_DEV})"
    if name == "asciidoctor":
        return None if shutil.which("asciidoctor") else f"asciidoctor is not on PATH ({_SETUP})"
    if name == "mdx":
        if not shutil.which("node"):
            return f"node is not on PATH ({_SETUP})"
        return None if MDX_PACKAGE.is_file() else f"@mdx-js/mdx is not in {MDX_PACKAGE.parent.parent} ({_SETUP})"
    if name == "mermaid":
        if not shutil.which("node"):
            return f"node is not on PATH ({_SETUP})"
        absent = [p.parent.name for p in MERMAID_PACKAGES if not p.is_file()]
        return f"{' and '.join(absent)} not in {ROOT / '.tools'} ({_SETUP})" if absent else None
    raise ValueError(f"unknown tool {name!r}; one of {', '.join(TOOLS)}")


def require_tool(name: str) -> None:
    """Skip the running test when the tool is missing, saying which and how to get it."""
    reason = tool_missing(name)
    if reason:
        pytest.skip(reason)


def skip_unless_tool(name: str) -> pytest.MarkDecorator:
    """``@skip_unless_tool("asciidoctor")``: a skipif mark with the reason ``tool_missing`` gives."""
    reason = tool_missing(name)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def _numbered(text: str) -> str:
    return "\n".join(f"{n:5} | {line}" for n, line in enumerate(text.split("\n"), 1))


def _fail(tool: str, messages: str, text: str) -> None:
    # The numbered source makes "line 12: ..." readable straight from the test report.
    excerpt = text if len(text) < 20_000 else text[:20_000] + "\n[...]"
    raise AssertionError(f"{tool} reported:\n{messages.strip()}\n--- the text ---\n{_numbered(excerpt)}")


def _check_internal_links(tool: str, html: str, text: str) -> None:
    ids = set(_ID.findall(html))
    broken = sorted({href for href in _HREF.findall(html) if href not in ids})
    if broken:
        _fail(tool, "links to anchors that no element has: " + ", ".join(f"#{b}" for b in broken), text)


def check_markdown(text: str) -> str:
    """CommonMark with GFM tables, as markdown-it-py reads it; returns the HTML.

    Markdown has no syntax errors, so what is checked is what can go wrong all the same: every
    ``#anchor`` link must reach an element with that id."""
    require_tool("markdown-it")
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(text)
    _check_internal_links("markdown-it", html, text)
    return html


def check_mdx(text: str, *, allow_javascript: bool = False) -> str:
    """Docusaurus Markdown compiled by the MDX v3 compiler; returns the page as HTML.

    Front matter (``---`` lines at the very top) is not MDX: Docusaurus removes it before compiling,
    so it is split off here, must be YAML giving a mapping, and the rest is compiled. In the HTML,
    JSX stays as written, an MDX expression shows as ``<mdx-expression>`` and ``import``/``export``
    as ``<mdx-esm>``. Those are JavaScript that Docusaurus runs when it builds the site: generated
    text must not contain any, so they fail the check unless ``allow_javascript``."""
    require_tool("mdx")
    body = text
    if text.startswith("---\n"):
        match = _FRONT_MATTER.match(text)
        if not match:
            _fail("front matter", "it starts with --- but has no closing --- line", text)
        try:
            meta = yaml.safe_load(match.group(1))
        except yaml.YAMLError as exc:
            _fail("front matter (YAML)", str(exc), text)
        if not isinstance(meta, (dict, type(None))):  # empty front matter is None
            _fail("front matter", f"it is {type(meta).__name__}, not a mapping", text)
        # Blank lines keep the compiler's line numbers those of the whole file.
        body = "\n" * match.group(0).count("\n") + text[match.end():]
    answer = _MDX.ask(body)
    if "error" in answer:
        _fail("MDX compiler", answer["error"], text)
    html = answer["result"]
    if not allow_javascript and ("<mdx-expression>" in html or "<mdx-esm>" in html):
        code = re.findall(r"<mdx-(?:expression|esm)>(.*?)</mdx-", html, re.S)
        _fail("MDX compiler", "JavaScript in the page (text read as code): " + " | ".join(code), text)
    _check_internal_links("MDX compiler", html, text)
    return html


def check_rst(text: str) -> str:
    """reStructuredText that docutils reads with no warning or error; returns the HTML page.

    File inclusion and raw output are off: the text under test must not need them."""
    require_tool("docutils")
    from docutils.core import publish_parts

    stream = io.StringIO()
    settings = {"report_level": 2, "halt_level": 5, "warning_stream": stream, "file_insertion_enabled": False,
                "raw_enabled": False}
    parts = publish_parts(source=text, source_path="<text>", writer="html5", settings_overrides=settings)
    if stream.getvalue():
        _fail("docutils", stream.getvalue(), text)
    return parts["whole"]


_SPHINX_CONF = 'project = "check"\nextensions = []\n'


def check_sphinx(text: str, tmp_path: Path) -> str:
    """``index.rst`` of a throw-away Sphinx project built with ``-W``; returns ``index.html``.

    A fresh folder under ``tmp_path`` each call, so one test may check several texts."""
    require_tool("sphinx")
    work = Path(tempfile.mkdtemp(prefix="sphinx-", dir=tmp_path))
    source, out = work / "src", work / "out"
    source.mkdir()
    (source / "conf.py").write_text(_SPHINX_CONF, encoding="utf-8")
    (source / "index.rst").write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(source), str(out)], capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or done.stderr.strip():
        _fail("sphinx-build -W", done.stderr or done.stdout or f"exit status {done.returncode}", text)
    return (out / "index.html").read_text(encoding="utf-8")


def check_adoc(text: str, tmp_path: Path) -> str:
    """AsciiDoc that Asciidoctor converts with nothing on stderr (warnings, references to missing
    attributes, and with ``-v`` the INFO ``possible invalid reference`` of a link to a missing
    anchor); returns the HTML.

    Secure mode: the text under test may not read files (``include::``) or the environment."""
    require_tool("asciidoctor")
    work = Path(tempfile.mkdtemp(prefix="adoc-", dir=tmp_path))
    source, out = work / "index.adoc", work / "index.html"
    source.write_text(text, encoding="utf-8")
    # attribute-missing=warn: "{name}" left in plain text is otherwise dropped without a word.
    done = subprocess.run(["asciidoctor", "--failure-level=WARN", "--verbose", "--safe-mode=secure",
                           "-a", "attribute-missing=warn", "-o", out.name, source.name],
                          cwd=work, capture_output=True, text=True, timeout=600)  # secure mode: files under cwd
    if done.returncode != 0 or done.stderr.strip():
        _fail("asciidoctor", done.stderr or f"exit status {done.returncode}", text)
    return out.read_text(encoding="utf-8")


def check_mermaid(text: str) -> dict:
    """A Mermaid diagram as Mermaid's own parser reads it; returns what it understood.

    A flowchart gives ``{type: "flowchart", direction, nodes: [{id, label, shape}], edges: [{from,
    to, label, stroke}]}``, a sequence diagram ``{type: "sequence", participants: [{id, label}],
    messages: [{from, to, text, kind}]}`` (kind ``solid``, ``dashed``, ``note``, ``alt``, ``else``,
    ``end``), labels with Mermaid's entity codes decoded: a parser that accepts the text may still
    have cut a label short at a ``#`` or ``;``, which only the labels show."""
    require_tool("mermaid")
    answer = _MERMAID.ask(text)
    if "error" in answer:
        _fail("Mermaid parser", answer["error"], text)
    return answer["result"]


class _NodeCheck:
    """One ``node SCRIPT --serve`` for the whole test process, started on first use: loading
    mermaid and jsdom, or the MDX compiler, takes a second or more of CPU, a check milliseconds.
    One text per line, as a JSON string; one JSON answer per line (tests/node_check.mjs). A
    process that died is started again."""

    def __init__(self, script: Path) -> None:
        self.script = script
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def ask(self, text: str) -> dict:
        with self.lock:
            for attempt in (1, 2):
                if self.process is None or self.process.poll() is not None:
                    self.process = subprocess.Popen(["node", str(self.script), "--serve"], stdin=subprocess.PIPE,
                                                    stdout=subprocess.PIPE, text=True, encoding="utf-8")
                    atexit.register(self.process.kill)
                try:
                    self.process.stdin.write(json.dumps(text) + "\n")
                    self.process.stdin.flush()
                    line = self.process.stdout.readline()
                except BrokenPipeError:
                    line = ""
                if line:
                    return json.loads(line)
                self.process.kill()
            raise AssertionError(f"{self.script.name} --serve gave no answer")


_MERMAID = _NodeCheck(MERMAID_SCRIPT)
_MDX = _NodeCheck(MDX_SCRIPT)
