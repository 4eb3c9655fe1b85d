"""Function sections: a guide page that gives each of a module's public functions a section of its
own, the section's prose introducing it by reference (``:func:`getchar```, ```clear()```), gets a
section for a new function of that module, after the section of the function above it in the code.

Carries: an added Python function with a docstring. The section has a heading of the siblings'
level with the function's name as code (the page's titles are the maintainers' words: a person may
retitle it), the version mark the siblings' sections carry with the version the docstring gives
(``.. versionadded:: 2.0``) or else the coming release, the docstring's first paragraph (and the
literal block it introduces, its own example), and, where the sibling's section shows an example
(``Example::`` and its imports) and the function takes no argument, the same example calling it.
Nothing else is written: where the siblings are documented as rows, items or directives instead,
``siblings`` places it.
"""

from __future__ import annotations

import re

from ..evidence.docs import spoken
from ..facts_model import Fact
from ..new_section import section_end, section_mark
from ..structure import FENCE, Block, is_rst
from ..version_marks import Mark
from .base import Page, Structure
from .common import NEAREST_SIBLINGS, _about_blocks, _said, addition, apart

__all__ = ["FunctionSections", "docstring_parts", "introduced"]

_VERSION_ADDED = re.compile(r"^\s*\.\.\s+versionadded::\s*(\S+)\s*$", re.M)
_ROLE = re.compile(r":[\w:]+:`~?([^`]+)`")
_IMPORT = re.compile(r"^\s*(?:import\s+[\w.]+|from\s+[\w.]+\s+import\s+[\w, ]+)\s*$")


def _reference(name: str) -> re.Pattern:
    """A reference to a function in prose: a role (``:func:`x```, ``:func:`~pkg.x```) or inline
    code (```x```, ```x()```, ```pkg.x()```)."""
    escaped = re.escape(name)
    return re.compile(rf":[\w:]+:`~?(?:[\w.]+\.)?{escaped}(?:\(\))?`|`{{1,2}}(?:[\w.]+\.)?{escaped}(?:\(\))?`{{1,2}}")


def _own_end(found: list[Block], section: Block) -> int:
    """Where a section's own text ends: at the next heading of any level."""
    return min([b.start for b in found if b.kind == "section" and section.start < b.start < section.end]
               + [section.end])


def _prose(lines: list[str], found: list[Block], section: Block) -> list[int]:
    """The indices of a section's own prose lines: not code, not a directive, not indented."""
    code = {i for b in found if b.kind == "code" for i in range(b.start, b.end)}
    literal, out = False, []
    for i in range(section.start + 1, _own_end(found, section)):
        line = lines[i]
        if literal and (not line.strip() or line[:1].isspace()):
            continue
        literal = False
        if i in code or not line.strip() or line.lstrip().startswith("..") or line[:1].isspace():
            continue
        out.append(i)
        literal = line.rstrip().endswith("::")
    return out


def introduced(lines: list[str], found: list[Block], section: Block, names: list[str]) -> str | None:
    """The function a section introduces: the first of ``names`` its own prose refers to."""
    patterns = [(n, _reference(n)) for n in names]
    for i in _prose(lines, found, section):
        hits = [(m.start(), n) for n, p in patterns for m in [p.search(lines[i])] if m]
        if hits:
            return min(hits)[1]
    return None


def docstring_parts(doc: str) -> tuple[list[str], list[str], str | None]:
    """A docstring's first paragraph, the literal block it introduces (ending with ``::``), and the
    version its ``.. versionadded::`` gives."""
    paragraphs = [p.split("\n") for p in re.split(r"\n\s*\n", doc.strip())]
    first = paragraphs[0] if paragraphs and not paragraphs[0][0].lstrip().startswith((":", "..")) else []
    literal: list[str] = []
    if first and first[-1].rstrip().endswith("::"):
        for paragraph in paragraphs[1:]:
            if not all(line[:1].isspace() for line in paragraph):
                break
            literal += ([""] if literal else []) + paragraph
    version = _VERSION_ADDED.search(doc)
    return first, literal, version.group(1) if version else None


def _markdown(first: list[str], literal: list[str]) -> list[str]:
    """A docstring's paragraph and literal block as Markdown: roles as code, a fenced block."""
    text = [_ROLE.sub(lambda m: f"`{m.group(1).lstrip('~')}`", line).replace("``", "`") for line in first]
    if not literal:
        return text
    text[-1] = re.sub(r"::\s*$", ":", text[-1])
    indent = min(len(line) - len(line.lstrip()) for line in literal if line.strip())
    return text + ["", "```python"] + [line[indent:] for line in literal] + ["```"]


def _example(lines: list[str], found: list[Block], section: Block, sibling: str, name: str) -> list[str]:
    """The sibling section's example calling the new function with no argument: its lead line when
    it says nothing of the sibling (``Example::``, ``::``) or its fence, its imports, the call as it
    writes it (``click.getchar()``: ``click.pause()``)."""
    call = re.compile(rf"^(\s*)(?:\w+\s*=\s*)?((?:[\w.]+\.)?){re.escape(sibling)}\(")
    for i in range(section.start + 1, _own_end(found, section)):
        match = call.match(lines[i])
        if not match:
            continue
        fenced = next((b for b in found if b.kind == "code" and i in b and FENCE.match(lines[b.start])), None)
        if fenced:
            head = fenced.start
        else:
            head = i - 1
            while head > section.start and (not lines[head].strip() or lines[head][:1].isspace()):
                head -= 1
            if not re.fullmatch(r"\s*(?:[A-Z][a-z]+)?::\s*", lines[head]):
                return []  # a lead line of the sibling's own words, or no literal block
        imports = [k for k in range(head + 1, i) if _IMPORT.match(lines[k])]
        body = [lines[k] for k in imports]
        if imports and imports[-1] + 1 < i and not lines[imports[-1] + 1].strip():
            body.append("")
        body.append(f"{match.group(1)}{match.group(2)}{name}()")
        if fenced:
            return [lines[head]] + body + [FENCE.match(lines[head])["fence"]]
        return [lines[head], ""] + body
    return []


def _one_each(sections: list[tuple[Block, str]], mark: str) -> bool:
    """Whether the page's sections at this level are one a function: two or more introduce a
    sibling each, none the same one as another (a tutorial's sections come back to a function)."""
    terms = [t for b, t in sections if b.mark == mark]
    return len(terms) >= 2 and len(set(terms)) == len(terms)


class FunctionSections(Structure):
    name = "function sections"
    carries = "a new Python function: a section of its own where each of its siblings has one introducing it"
    entry = True
    describes = False

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "symbol" and fact.change == "added" and bool(fact.doc) and "." not in fact.name

    def write(self, fact: Fact, page: Page) -> bool:
        start = addition(fact, page.path, page.lines)
        if start is None:
            return False
        name, _, _, found = start
        lines, said = page.lines, _said(page.lines)
        terms = [spoken(s, said) for s in fact.siblings]
        if any(_about_blocks(found, lines, term) for term in terms[:NEAREST_SIBLINGS]):
            return False  # rows, items or directives document them: ``siblings`` places it
        sections = [(b, introduced(lines, found, b, terms)) for b in found if b.kind == "section"]
        sections = [(b, t) for b, t in sections if t]
        by_term = {t: b for b, t in reversed(sections)}  # the first section introducing each
        if len(by_term) < 2 or not any(t in by_term for t in terms[:NEAREST_SIBLINGS]):
            return False
        above = [spoken(s, said) for s in fact.follows]
        model_term = next((t for t in above if t in by_term), None) or next(t for t in terms if t in by_term)
        model = by_term[model_term]
        if not _one_each(sections, model.mark):
            return False
        first, literal, version = docstring_parts(fact.doc or "")
        if not first:
            return False
        rst = is_rst(page.path)
        text = [line.strip() for line in first] if rst else _markdown([line.strip() for line in first], literal)
        if rst and literal:
            text += [""] + literal
        example = _example(lines, found, model, model_term, name) if fact.bare and not literal else []
        title = f"``{name}``" if rst else f"`{name}`"
        head = [f"{model.mark} {title}"] if model.mark.startswith("#") else [title, model.mark[0] * len(title)]
        code = {i for b in found if b.kind == "code" for i in range(b.start, b.end)}
        marked = section_mark(lines, [model] + [b for b in by_term.values() if b.mark == model.mark], code)
        mark = _mark(marked[0], version or page.release) if marked else None
        body = text + ([""] + example if example else [])
        if mark:
            body = [mark, ""] + body if marked[1] else body + ["", mark]
        at = section_end(lines, model)
        new = apart(lines, at, head + [""] + body)
        page.lines = lines[:at] + new + lines[at:]
        page.draft.added_entry(page.path, name, f"{page.path}: added a section for {name} after the one introducing "
                               f"{model_term}, from its docstring: give it a title in the page's words [rule: a new "
                               "function's section in the format of its siblings']")
        return True


def _mark(mark: Mark, version: str | None) -> str | None:
    return mark.for_release(version) if version else None
