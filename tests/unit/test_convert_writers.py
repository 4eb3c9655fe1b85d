"""The writers, proven by each format's own parser.

A hand-built nasty document (every special character of every format, lines that would open a
block, tables with pipes, line breaks and empty cells, CJK headings, the same heading many times,
links, code that contains fences and delimiters) is rendered to all five targets. Each text must
pass its real parser with no error and no warning (``tests/formats.py``), and the HTML that parser
makes must still show the content: the special characters as themselves, every table row as wide
as its header, links that reach an id.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
import yaml

from docsvc.server.engines.convert import TARGETS, writers
from docsvc.server.engines.convert.doc import (Admonition, Anchors, BulletList, Code, CodeBlock, Document, Heading,
                                               Link, Para, Strong, Table)
from docsvc.server.engines.convert.writers import rst
from tests import formats

# Plain text with every character that means something in one of the formats.
SPECIALS = [
    r"* _ ` < > { } [ ] | # : .. :: + ^ ~ $ & \ ! ( ) = - ' \" / @ % ? ;",
    "{attr} _under_ <div> {props.x} </div> <!-- not a comment --> {set:a:b} {counter:n}",
    "**not strong** *not em* __init__ name_ snake_case x^2^ H~2~O #mark# C# a_b_",
    "[[x]] <<y>> <<y,z>> ++p++ +q+ $$d$$ pass:[z] link:x[y] footnote:[f] ((idx)) (((i)))",
    "(C) (R) (TM) a--b -- x... -> => <- <= &amp; &copy; &#42; `tick` |sub| :role:`x` [1]_ `ref`_",
    "don't stop http://example.com/a_b?c=d&e=f mail@example.com ${HOME} %(x)s \\n \\\\ trailing\\",
]
# Text that would open a block (or end one) if it began a line.
STARTS = [
    "# not a heading", "## neither", "- not a list", "+ not a list", "* not a list", "1. not a list",
    "2) not a list", "A. Smith", "(a) not a list", "iv. not a list", "#. auto", ".. not a directive",
    ".. _not-a-target:", "..", "::", "ends with::", "= not a title", "== not a section", "===", "----",
    "____", "****", "\\\\\\\\", "> not a quote", ">>> not doctest", ":field: not a field",
    "::: not an admonition", ":::note", "| not a line block", "|===", "[not attributes]", ".not a title",
    "// not a comment", "NOTE: not an admonition", "term:: not a definition", "include::x[]", "ifdef::x[]",
    "<1> not a callout", "'''", "<<<", "    indented four", "\ttabbed", "--", "__ anonymous", "[1] cite",
    "{attr} first", "<div>first</div>", "-", "+", "*", "1.", "#", "--verbose  two spaces", "/V  option",
    "import x from 'y'", "export const a = 1", "export data as CSV",
]
HEADER = ["Name | pipe", "", "日本語 <b>", "{x}"]
TITLE = "Pets {API} *v2* <beta> | 日本 — ::"
DESCRIPTION = 'A "quoted" description: {x} # not a comment\nsecond line \u2028 sep \x85 nel \\ back *s* `t`'
CODE_LINES = ["```", "````", "----", "-----", ".. note:: not a directive", "include::/etc/passwd[]",
              "ifdef::x[]", "- item # <1>", "{attr} {{ .Values.x }}", "<div>{props.x}</div>", "#!/bin/sh"]


def nasty() -> tuple[Document, Anchors]:
    anchors = Anchors()
    intro, cjk = anchors.make("intro"), anchors.make("cjk")
    doc = Document(TITLE, DESCRIPTION)
    doc.add(
        Heading(2, "Größe & Maß — naïve café", intro),
        *(Para([text]) for text in SPECIALS),
        Para(["bell\x07 nul\x00 esc\x1b del\x7f done"]),
        Para(["first line\n# second line\n- third\n\n1. new paragraph\n\n\n   \n:::note after blank lines"]),
        Para(["word", Code("code"), "word", Strong("strong"), "word", Link("link", intro), "word",
              Code("a``b"), Code("end\\"), Strong("**"), Code("|x|"), "."]),
        Para(["See ", Link("the intro", intro), ", ", Link("CJK", cjk), ", ", Link("the intro", intro), " again and ",
              Link("nowhere", "missing-anchor"), ". Specials: ", Link("a] [b <c> ,d `e` *f* {g} |h|", intro), "."]),
        Para([]), Para(["   \n  "]),
        Heading(3, "日本語の見出し 表 | 表 🐍", cjk),
        *(Para([text]) for text in STARTS),
        Heading(5, "Skipped levels *star* {x} _u_ `t` <b>", anchors.make("skipped")),
        Table(HEADER, [
            [["a|b"], [Code("x|y`z")], ["line1\nline2\n\nline3"], [Strong("s|t"), " ", Link("to | intro", intro)]],
            [[]],
            [["1"], ["2"], ["3"], ["4"], ["5 extra"]],
            [[""], [" "], ["- dash"], ["# hash"]],
            [[text] for text in STARTS[:4]],
        ]),
        *(Heading(2, "Parameters", anchors.make("op", str(n)) if n % 2 else None) for n in range(4)),
        Heading(2, "Parameters", intro),  # an anchor already used: the text stays, the anchor goes
        Heading(2, "Issue #"), Heading(2, "a == b =="), Heading(2, ""), Heading(2, "1. Numbered heading"),
        Heading(2, "- dash heading"), Heading(2, ".. dots"), Heading(2, "::"), Heading(1, "Level one later"),
        Heading(3, "three"), Heading(4, "four"), Heading(5, "five"), Heading(6, "six"), Heading(7, "seven"),
        CodeBlock("json", '{"a": "```", "b": "----", "c": "{props.x}"}'),
        CodeBlock("json", "{not json\n" + "\n".join(CODE_LINES) + "\n}"),
        CodeBlock("yaml", "key: value\n" + "\n".join(CODE_LINES) + "\n\tTab: here"),
        CodeBlock("weird lang!", "x = 1"),
        CodeBlock("cobol", "DISPLAY 'HI'."),
        CodeBlock("bash", "echo $((1+2)) `date` <<EOF\n  indented\nEOF"),
        CodeBlock("", "  leading spaces kept\n\n\nafter blank lines\n\n"),
        CodeBlock("text", "   \n  "),
        Admonition("note", [SPECIALS[0], " ", Code("c"), "\n\nsecond paragraph ", Link("back", intro)]),
        Admonition("warning", ["- starts with a dash {x}"]),
        Admonition("tip", ["an unknown kind is a note"]),
        Admonition("note", ["   "]),
        BulletList([["- dash item"], ["1. numbered"], [], [Code("code")], ["* star"], ["{x} <y>"], [Link("i", intro)]]),
        BulletList([["a second list right after the first"]]),
        BulletList([]),
        Para(["The end."]),
    )
    return doc, anchors


def check(target: str, text: str, tmp_path) -> str:
    """The text through its format's parser; the HTML."""
    if target == "md":
        return formats.check_markdown(text)
    if target == "docusaurus":
        return formats.check_mdx(text)
    if target == "rst":
        return formats.check_rst(text)
    if target == "sphinx":
        return formats.check_sphinx(text, tmp_path)
    return formats.check_adoc(text, tmp_path)


class _Page(HTMLParser):
    """The visible text of a page (outside <head>, <style>, <script>), its ids and its tables."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.ids: list[str] = []
        self.tables: list[list[list[str]]] = []
        self.description: str | None = None
        self._skip = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.ids += [value for name, value in attrs if name == "id"]
        if tag == "meta" and ("name", "description") in attrs:
            self.description = dict(attrs)["content"]
        if tag in ("head", "style", "script"):
            self._skip += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("head", "style", "script"):
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(_normal("".join(self._cell)))
            self._cell = None

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)
            if self._cell is not None:
                self._cell.append(data)


# What the tools may do to text on purpose: typographic quotes (Sphinx, Asciidoctor), an ellipsis
# (Sphinx), Sphinx's heading permalinks. Everything else must come out as it went in.
_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "…": "...", "¶": " "})


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_TYPOGRAPHY)).strip()


def page(html: str) -> _Page:
    parsed = _Page()
    parsed.feed(html)
    parsed.close()
    return parsed


def visible(html: str) -> str:
    return _normal("".join(page(html).text))


def _front_matter(text: str) -> dict:
    assert text.startswith("---\n")
    return yaml.safe_load(text[4:text.index("\n---\n")])


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    doc, _ = nasty()
    return {target: writers.render(doc, target) for target in TARGETS}


@pytest.mark.parametrize("target", TARGETS)
def test_nasty_document_passes_the_parser_and_keeps_its_content(rendered, target, tmp_path):
    text = rendered[target]
    html = check(target, text, tmp_path)
    shown = visible(html)
    for phrase in [*SPECIALS, *STARTS, *CODE_LINES, "bell nul esc del done"]:
        assert _normal(phrase) in shown, (phrase, shown)
    for heading in ["Größe & Maß — naïve café", "日本語の見出し 表 | 表 🐍", "Skipped levels *star* {x} _u_ `t` <b>",
                    "Issue #", "a == b ==", "Untitled", "1. Numbered heading", "- dash heading", ".. dots"]:
        assert heading in shown, heading
    assert "wordcodewordstrongwordlinkworda``bend\\**|x|." in shown  # markup next to words and to markup
    assert "nowhere" in shown and "missing-anchor" not in html  # a link to nowhere is its plain text
    ids = page(html).ids
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    description = _normal(DESCRIPTION.replace("\x85", ""))  # a C1 control character: dropped
    if target == "docusaurus":  # check_mdx has seen that no text became JavaScript
        assert _front_matter(text) == {"title": _normal(TITLE), "description": description}
    elif target != "md":  # plain Markdown has no place for it
        assert page(html).description == description


@pytest.mark.parametrize("target", TARGETS)
def test_table_rows_are_as_wide_as_the_header(rendered, target, tmp_path):
    text = rendered[target]
    if target == "docusaurus":
        # The MDX compiler alone has no GFM tables (Docusaurus adds remark-gfm): the same
        # Markdown, less the front matter, shows them through markdown-it.
        text = text[text.index("\n---\n") + 5:]
        html = formats.check_markdown(text)
    else:
        html = check(target, text, tmp_path)
    (table,) = [t for t in page(html).tables if t and _normal(HEADER[0]) in t[0]]
    assert table[0] == [_normal(h) for h in HEADER] + [""]
    assert [len(row) for row in table] == [5] * 6
    assert table[1][:3] == ["a|b", "x|y`z", "line1 line2 line3"]
    assert table[1][3].startswith("s|t") and "to | intro" in table[1][3]
    assert table[2] == [""] * 5 and table[3] == ["1", "2", "3", "4", "5 extra"]
    assert table[4] == ["", "", "- dash", "# hash", ""] and table[5][:4] == STARTS[:4]


@pytest.mark.parametrize("target", TARGETS)
def test_links_reach_their_headings(rendered, target, tmp_path):
    html = check(target, rendered[target], tmp_path)
    parsed = page(html)
    hrefs = re.findall(r'href="#([^"]+)"', html)
    # The links of the nasty document: seven to the intro, one to the CJK heading.
    internal = [h for h in hrefs if h in parsed.ids]
    assert len(internal) >= 8, hrefs
    # Every heading with an anchor can be linked to by that anchor, in every format but docutils
    # and Sphinx, which derive the HTML id from the name.
    if target in ("md", "docusaurus", "adoc"):
        assert {"intro", "cjk", "skipped", "op-1", "op-3"} <= set(parsed.ids)


# Pieces of random text: every special sequence of the five formats, words, wide characters, spaces.
PIECES = [*"*_`<>{}[]|#:.+^~$&\\!()=-'\"/@%?;,", "..", "::", ":::", "--", "---", "...", "**", "__", "##", "++",
          "$$", "<<", ">>", "[[", "]]", "((", "{x}", "{attr}", "<div>", "</div>", "<!--", "-->", "(C)", "(TM)", "->",
          "&amp;", "&#42;", "import ", "export ", "NOTE: ", "include::", "ifdef::", "1. ", "A. ", "iv) ", "(a) ",
          "http://x.y/a_b", "pass:[", "link:", ":role:", "word", "snake_case", "日本", "é", "🐍", " ", " ", " ", "\n",
          "\n\n", "\t", "|===", "----", "====", "//"]


def random_document(seed: int) -> Document:
    r = random.Random(seed)

    def text(n: int = 0) -> str:
        return "".join(r.choice(PIECES) for _ in range(n or r.randint(1, 8)))

    anchors: list[str] = []

    def inline() -> list:
        kinds = [lambda: text(), lambda: Code(text(3)), lambda: Strong(text(3)),
                 lambda: Link(text(3), r.choice(anchors) if anchors and r.random() < 0.9 else "nowhere")]
        return [r.choices(kinds, weights=[6, 2, 1, 1])[0]() for _ in range(r.randint(1, 6))]

    blocks = []
    for n in range(r.randint(5, 15)):
        kind = r.randrange(6)
        if kind == 0:
            anchors.append(f"a{n}")
            blocks.append(Heading(r.randint(1, 7), text(), anchors[-1] if r.random() < 0.7 else None))
        elif kind == 1:
            blocks.append(Para(inline()))
        elif kind == 2:
            blocks.append(BulletList([inline() for _ in range(r.randint(0, 3))]))
        elif kind == 3:
            blocks.append(Table([text(2) for _ in range(r.randint(0, 3))],
                                [[inline() for _ in range(r.randint(0, 4))] for _ in range(r.randint(0, 3))]))
        elif kind == 4:
            blocks.append(CodeBlock(r.choice(["json", "yaml", "bash", "text", "", "x y"]),
                                    "\n".join(text() for _ in range(r.randint(1, 4)))))
        else:
            blocks.append(Admonition(r.choice(["note", "warning"]), inline()))
    return Document(text(), text(), blocks)


def shown_text(parts: list, anchors: set[str]) -> str:
    """What a paragraph's parts should show, as ``visible`` gives it."""
    words = []
    for part in parts:
        if isinstance(part, str):
            words.append(part)
        elif isinstance(part, Link) and part.anchor in anchors:
            words.append(" ".join(part.text.split()) or part.anchor)
        else:
            words.append(" ".join(part.text.split()))
    return _normal("".join(words))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("target", TARGETS)
def test_random_documents_pass_the_parser_and_keep_their_paragraphs(target, seed, tmp_path):
    doc = random_document(seed)
    shown = visible(check(target, writers.render(doc, target), tmp_path))
    anchors = {b.anchor for b in doc.blocks if isinstance(b, Heading) and b.anchor}
    for block in doc.blocks:
        if isinstance(block, Para):
            assert shown_text(block.parts, anchors) in shown, block


def test_every_target_has_a_writer():
    assert set(writers.WRITERS) == set(TARGETS)
    with pytest.raises(ValueError, match="unknown target format 'html'"):
        writers.render(Document("x"), "html")


def _headings(text: str, pattern: str) -> list[str]:
    return re.findall(pattern, text, re.M)


def test_heading_levels_never_skip_and_start_below_the_title():
    doc = Document("T", blocks=[Heading(4, "a"), Heading(6, "b"), Heading(2, "c"), Heading(1, "d"), Heading(9, "e")])
    assert _headings(writers.render(doc, "md"), r"^#+ ") == ["# ", "## ", "### ", "## ", "## ", "### "]
    assert _headings(writers.render(doc, "adoc"), r"^=+ ") == ["= ", "== ", "=== ", "== ", "== ", "=== "]
    assert _headings(writers.render(doc, "rst"), r"^([=\-~^\"])\1*$") == ["=", "=", "=", "-", "=", "=", "-"]


def test_a_first_level_one_heading_is_the_title_not_a_second_one():
    doc = Document("Pets", blocks=[Heading(1, "Pets API", "top"), Para(["Back to ", Link("top", "top")])])
    md = writers.render(doc, "md")
    assert md.count("# ") == 1 and '<a id="top"></a>\n\n# Pets API' in md and "[top](#top)" in md
    adoc = writers.render(doc, "adoc")
    assert adoc.startswith("[[top]]\n= Pets API\n") and "<<top,top>>" in adoc


def test_rst_underlines_count_wide_characters_twice():
    text = writers.render(Document("日本語", blocks=[Heading(2, "表 a")]), "rst")
    assert "======\n日本語\n======" in text
    assert "表 a\n====\n" in text
    assert rst.width("日本語 a🐍") == 10


def test_anchors_made_valid_and_used_once():
    doc = Document("T", blocks=[Heading(2, "A", "Some Anchor!"), Heading(2, "B", "some-anchor"),
                                Heading(2, "C", "200-ok"), Para([Link("x", "Some Anchor!"), Link("y", "200-ok")])])
    md = writers.render(doc, "md")
    assert md.count('<a id="some-anchor">') == 1 and "[x](#some-anchor)" in md
    adoc = writers.render(doc, "adoc")
    assert "[[_200-ok]]" in adoc and "<<_200-ok,y>>" in adoc  # an AsciiDoc id must not start with a digit


def test_code_fences_and_delimiters_outgrow_the_code():
    code = CodeBlock("text", "````\n```\n----\n-----\n------")
    doc = Document("T", blocks=[code])
    assert "\n`````text\n````\n" in writers.render(doc, "md")
    assert "\n-------\n````\n" in writers.render(doc, "adoc")


def test_sphinx_labels_code_it_can_highlight_without_warnings():
    doc = Document("T", blocks=[CodeBlock("json", '{"a": 1}'), CodeBlock("json", "{a: 1}"),
                                CodeBlock("json", '{"a": NaN}'), CodeBlock("YAML", "a: [b"),
                                CodeBlock("brainfuck-2000", "+[]"), CodeBlock("text", "plain")])
    text = writers.render(doc, "sphinx")
    assert re.findall(r"^\.\. code-block:: .*(?:\n   :force:)?", text, re.M) == [
        ".. code-block:: json", ".. code-block:: text", ".. code-block:: text",
        ".. code-block:: yaml\n   :force:", ".. code-block:: text", ".. code-block:: text"]
    plain = writers.render(doc, "rst")
    assert re.findall(r"^\.\. code::.*$", plain, re.M) == [
        ".. code:: json", ".. code:: json", ".. code:: json", ".. code:: yaml", ".. code::", ".. code::"]


def test_every_language_rst_names_is_a_pygments_lexer():
    pygments_lexers = pytest.importorskip("pygments.lexers")
    for name in rst._LEXERS:
        pygments_lexers.get_lexer_by_name(name)


def test_a_huge_document_renders_to_every_target():
    # The size of a 22,000-operation spec: 100,000 blocks of every kind. Linear writers take seconds.
    anchors = Anchors()
    blocks = []
    for n in range(20_000):
        anchor = anchors.make("op", str(n))
        blocks += [Heading(2 + n % 3, f"GET /pets/{{id}}/items_{n}", anchor),
                   Para(["Returns ", Code(f"item_{n}"), " <see> ", Link("the first", "op-0"), " {x}."]),
                   Table(["Name", "Type"], [[["id"], [Code("string")]], [["limit|max"], ["int"]]]),
                   CodeBlock("json", '{"id": "%d", "tags": ["a", "b"]}' % n),
                   Admonition("warning", ["Deprecated *soon*."])]
    doc = Document("Huge", "big", blocks)
    for target in TARGETS:
        text = writers.render(doc, target)
        assert "items\\_19999" in text or "items_19999" in text, target
