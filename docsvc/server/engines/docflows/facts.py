"""Facts that documentation talks about, found by comparing a changed file's old and new items:
command-line options and arguments, environment variables, settings, enum members, HTTP routes,
OpenAPI operations and parameters, public functions, classes and their parameters, and changed
defaults (``old → new``).

Rule-based (Docflows' first stage; a language model may replace it later): every fact names the
rule that found it. Code is read from its syntax tree: Python with ``ast`` (``facts_python``),
JavaScript/TypeScript (``facts_javascript``) and Go (``facts_go``) with tree-sitter grammars
(``syntax``); YAML, JSON, TOML, ``.env`` and OpenAPI as data (``facts_config``). A code file that
does not parse on either side gives no facts (and a note), rather than every item looking removed.

Infrastructure is not documentation: CI workflows and whatever else a hidden folder holds
(``.github/``, ``.vscode/``, ``.stackblitz/``: tools' configuration), tox/nox, pre-commit, packaging metadata
(``pyproject.toml``, ``setup.cfg``, ``package.json``), requirements and lock files, Dockerfiles,
linter and link-checker configuration, task runners (``Taskfile.yml``, ``justfile``), tools' own
``*.config.js``, vendored code, the docs' own build configuration (``mkdocs.yml``, Sphinx's
``conf.py``) and the like give no facts, unless the docs document that very file (a page
names its path), as the docs of a project whose product is a CI workflow do; a manifest's extras
(``pip install httpx[socks]``, ``facts_package``) are facts all the same. Tests give none.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import replace
from functools import cache
from pathlib import PurePosixPath
from typing import Callable, Iterable, Mapping

from .deprecations import Deprecations
from .facts_config import STRUCTURED_SUFFIXES, is_env_file, structured_items
from .facts_model import MARKED, METHOD_SIGNATURE, MOVED, Fact, Item, file_forms, member_of, owner_of, token
from .facts_package import MANIFESTS, package_items
from .facts_python import imported_names, is_imported, module_names, parameter_use, python_items, registry_callee
from .facts_go import go_items
from .facts_javascript import javascript_items, package_api
from .release import versions_between
from .repository import branch_moved, moved as moved_repository
from .version_output import programs

__all__ = ["Fact", "Item", "facts_of_change", "facts_between", "items_of", "is_infrastructure", "is_test_file",
           "speaks_to_users", "CODE_SUFFIXES"]

MAX_FILE_BYTES = 2 << 20

_INFRA = re.compile(r"""(?ix)
    (^|/)\.[\w-][\w.-]*/                              # a hidden folder is a tool's: .github, .vscode, .stackblitz
  | (^|/)docs?/(source/)?conf\.py$
  | ^(website|www)/                                   # the docs site's own code and data
  | (^|/)(vendors?|third[-_]party|node_modules)/       # other people's code, kept here
  | (^|/)[\w-]+\.config(\.[\w-]+)?\.[cm]?[jt]s$      # a tool's own config: vitest.config.e2e.ts
  | (^|/)[._][\w-]*rc(\.(json|ya?ml|js|cjs|mjs|toml))?$  # a tool's run configuration: .babelrc, .oxlintrc.json
  | (^|/)(requirements|ci|\.ci)/
  | (^|/)(
        \.gitlab-ci\.ya?ml | \.travis\.ya?ml | \.?appveyor\.ya?ml | \.?azure-pipelines[\w.-]*\.ya?ml | Jenkinsfile
      | bitbucket-pipelines\.ya?ml | \.drone\.ya?ml | tox\.ini | noxfile\.py | \.pre-commit-[\w.-]+ | pyproject\.toml
      | setup\.cfg | setup\.py | MANIFEST\.in | Makefile | GNUmakefile | \.?codecov\.ya?ml
      | \.?readthedocs\.ya?ml | \.flake8 | mypy\.ini | pytest\.ini | \.?ruff\.toml | \.editorconfig
      | \.git(ignore|attributes|modules) | \.mailmap | renovate\.json5? | \.?dependabot\.ya?ml | snapcraft\.ya?ml
      | Dockerfile[\w.-]* | \.dockerignore | docker-compose[\w.-]*\.ya?ml | compose\.ya?ml | package\.json
      | package-lock\.json | npm-shrinkwrap\.json | yarn\.lock | pnpm-lock\.yaml | poetry\.lock
      | Pipfile(\.lock)? | uv\.lock | pdm\.lock | \.python-version | go\.mod | go\.sum | Cargo\.lock | Gemfile\.lock
      | (requirements|constraints|dev-requirements)[\w.-]*\.(txt|in) | environment\.ya?ml | \.packit\.ya?ml
      | conftest\.py | \.?goreleaser\.ya?ml | \.?golangci\.ya?ml | \.eslintrc[\w.]* | \.prettierrc[\w.]*
      | tsconfig[\w.-]*\.json | mkdocs([.-][\w.-]+)?\.ya?ml | [Tt]askfile\.ya?ml | [Jj]ustfile | Rakefile | magefile\.go
      | Earthfile | htmltest\.ya?ml | pnpm-workspace\.ya?ml | lerna\.json | nx\.json | turbo\.json
      | netlify\.toml | vercel\.json | \.markdownlint[\w.-]* | lychee\.toml | \.vale\.ini | c?spell\.json | \.cspell\.json
      | _?typos\.toml
    )$
""")


def is_infrastructure(path: str) -> bool:
    """CI, packaging, dependency, container and tooling files: how the project is built and
    checked, not what it offers."""
    return _INFRA.search(path) is not None


def speaks_to_users(path: str, documented: Callable[[str], bool] | None = None) -> bool:
    """Whether a changed file can change what the docs say: not a test, and not infrastructure
    unless the docs document that very file."""
    if is_test_file(path):
        return False
    return not is_infrastructure(path) or bool(documented and documented(path))


def is_test_file(path: str) -> bool:
    """Tests change no documented behaviour: their facts are left out."""
    parts = PurePosixPath(path).parts
    name = PurePosixPath(path).name
    return (any(p in ("test", "tests", "testdata", "testing", "spec", "fixtures", "e2e", "__mocks__") or
                re.fullmatch(r"__\w*tests?\w*__", p) for p in parts[:-1])
            or name.startswith("test_") or re.search(r"(_test\.go|\.test\.[jt]sx?|\.spec\.[jt]sx?|_test\.py)$", name)
            is not None)


_PYTHON_SUFFIXES = (".py", ".pyi")  # read by python_items, which also takes what packages export
_BY_SUFFIX: dict[str, Callable[[str, str], list[Item] | None]] = {
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"), javascript_items),
    ".go": go_items,
}
CODE_SUFFIXES = _PYTHON_SUFFIXES + tuple(_BY_SUFFIX)


def items_of(path: str, text: str | None, notes: list[str] | None = None,
             exported: frozenset[str] = frozenset()) -> list[Item] | None:
    """What one version of a file offers; None for code that does not parse. ``exported``: names
    public Python packages import from other modules (``python_items``)."""
    if not text:
        return []
    name = PurePosixPath(path).name
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in _PYTHON_SUFFIXES:
        return python_items(text, path, exported)
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix](text, path)
    if suffix in STRUCTURED_SUFFIXES or is_env_file(name):
        return structured_items(path, text, notes)
    return []


_CHANGE_ORDER = {"renamed": 0, "removed": 1, "default-changed": 2, "help-changed": 3, "added": 4, "deprecated": 5}


def facts_of_change(path: str, old_text: str | None, new_text: str | None, old_path: str | None = None,
                    notes: list[str] | None = None, exported: frozenset[str] = frozenset()) -> list[Fact]:
    """The facts of one changed file (``old_text`` None: added file; ``new_text`` None: deleted)."""
    if is_test_file(path):
        return []
    if old_path and is_test_file(old_path):
        old_text = None  # a test's helper moved among the sources: nothing users had is gone
    old_items = items_of(old_path or path, old_text, notes, exported)
    new_items = items_of(path, new_text, notes, exported)
    if old_items is None or new_items is None:
        if notes is not None:
            notes.append(f"{path}: not read (its code does not parse {'before' if old_items is None else 'after'} "
                         f"the change)")
        return []
    return _facts_of_items(path, old_items, new_items, new_text)


def _facts_of_items(path: str, old_items: list[Item], new_items: list[Item], new_text: str | None) -> list[Fact]:
    """How the items of one file changed: added, removed, renamed, re-defaulted, reworded."""
    before, after = _index(old_items), _index(new_items)
    facts: list[Fact] = []
    removed = [before[k] for k in before if k not in after]
    # a method's parameter counts only when it goes (``METHOD_SIGNATURE``): not paired as a rename
    added = [after[k] for k in after if k not in before and after[k].rule != METHOD_SIGNATURE]
    if removed and PurePosixPath(path).suffix.lower() in _PYTHON_SUFFIXES:
        # A def replaced by an object or an import of the same name: still there, and its
        # parameters are no longer to be read from a signature.
        bound = module_names(new_text) & {i.name for i in removed if i.kind == "symbol"}
        removed = [i for i in removed if not (i.name if i.kind == "symbol" else i.owner) in bound]
    for key in before.keys() & after.keys():
        old, new = before[key], after[key]
        if new.rule == METHOD_SIGNATURE:
            continue
        if _default_changed(old, new):
            facts.append(Fact(new.kind, "default-changed", new.name, path, new.rule, old=old.default,
                              new=new.default, line=new.line, context=new.context))
        if _help_changed(old, new):
            facts.append(Fact(new.kind, "help-changed", new.name, path, new.rule, old=old.signature,
                              new=new.signature, line=new.line, context=new.context))
        if new.deprecated and not old.deprecated:
            facts.append(Fact(new.kind, "deprecated", new.name, path, f"{new.rule}; {MARKED}", line=new.line,
                              note=new.signature or None, context=new.context))
    for old, new in _pair_renames(removed, added):
        facts.append(Fact(new.kind, "renamed", new.name, path, f"{new.rule}; rename paired by "
                          f"{'help text' if old.signature and old.signature == new.signature else 'position'}",
                          old=old.name, new=new.default, line=new.line, context=new.context))
        if _default_changed(old, new):  # renamed and re-defaulted: both are facts
            facts.append(Fact(new.kind, "default-changed", new.name, path, new.rule, old=old.default,
                              new=new.default, line=new.line, context=new.context))
        removed.remove(old)
        added.remove(new)
    facts += [Fact(i.kind, "removed", i.name, path, i.rule, line=i.line, context=i.context) for i in removed]
    for item in added:
        # A symbol's kin are of its sort too: a new class's siblings are the file's classes.
        kin = sorted((o for (kind, _), o in after.items() if kind == item.kind and o.name != item.name
                      and _owner(o) == _owner(item) and (kind != "symbol" or o.rule == item.rule)),
                     key=lambda o: abs((o.line or 0) - (item.line or 0)))
        # Added ones follow too: two new options in a row are placed one after the other.
        follows = tuple(o.name for o in kin if (o.line or 0) < (item.line or 0))
        facts.append(Fact(item.kind, "added", item.name, path, item.rule, new=item.default, line=item.line,
                          # a deprecated sibling is one the docs may leave out: not a sibling to stand beside
                          note=item.signature or None,
                          siblings=tuple(o.name for o in kin if o not in added and not o.deprecated),
                          follows=follows, context=item.context, shows=item.shows,
                          short=item.short, doc=item.doc or None, bare=item.bare))
    return sorted(facts, key=lambda f: (f.line or 0, _CHANGE_ORDER[f.change], f.kind, f.name))


MIN_HELP = 24  # a help text shorter than this is too common a phrase to find in the docs


def _help_changed(old: Item, new: Item) -> bool:
    """The help text of an option or setting was reworded (pages that quote it need the new words);
    a function's doc comment is its reference's, not words the docs quote."""
    return old.kind != "symbol" and len(old.signature) >= MIN_HELP and bool(new.signature) and \
        " ".join(old.signature.split()) != " ".join(new.signature.split())


def _default_changed(old: Item, new: Item) -> bool:
    return old.compared is not None and new.compared is not None and old.compared != new.compared


def _owner(item: Item) -> str:
    """What an item belongs to (a function, a class), else the file as a whole."""
    return item.owner


def _index(items: Iterable[Item]) -> dict[tuple[str, str], Item]:
    index: dict[tuple[str, str], Item] = {}
    for item in items:
        index.setdefault((item.kind, item.name), item)
    return index


def _words(name: str) -> set[str]:
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])", name) if len(w) > 1}


def _local(item: Item) -> str:
    """An item's name without its owner's: ``f(x)`` → ``x``, ``Config.Check`` → ``Check`` (the
    owner's name is shared by every sibling, no sign of a rename)."""
    if item.owner and item.name.startswith(item.owner):
        return item.name[len(item.owner):].strip(".()")
    return item.name


def _pair_renames(removed: list[Item], added: list[Item]) -> list[tuple[Item, Item]]:
    """A removal and an addition of the same kind are a rename when they share a signature (the
    help text), or when each is the only one of its kind (and owner) left, they stand on nearby
    lines and their names share a word (``OLD_FLAG`` and ``NEW_FLAG``; not ``--legacy`` and
    ``--dry-run``)."""
    pairs = []
    free = list(added)
    for old in removed:
        same = [new for new in free if new.kind == old.kind and old.signature and new.signature == old.signature
                and _owner(new) == _owner(old)]
        if len(same) == 1:
            pairs.append((old, same[0]))
            free.remove(same[0])
    paired = [p[0] for p in pairs]
    for kind, owner in {(i.kind, _owner(i)) for i in removed} - {(k, "") for k in ("symbol", "operation", "route")}:
        olds = [o for o in removed if (o.kind, _owner(o)) == (kind, owner) and o not in paired]
        news = [n for n in free if (n.kind, _owner(n)) == (kind, owner)]
        if len(olds) == 1 and len(news) == 1 and abs((olds[0].line or 0) - (news[0].line or 0)) <= 3 \
                and _words(_local(olds[0])) & _words(_local(news[0])):
            pairs.append((olds[0], news[0]))
            free.remove(news[0])
    return pairs


def facts_between(mirror, base: str, head: str, documented: Callable[[str], bool] | None = None,
                  notes: list[str] | None = None) -> list[Fact]:
    """Every fact of the change from ``base`` to ``head`` in a git mirror (``engines.git.Mirror``).

    ``documented(path)`` says whether the docs name a file by its path: an infrastructure file's
    facts then count, and a named file renamed, deleted or changed is a fact of its own (kind
    ``file``); ``notes`` collects what could not be read and why."""
    def text(commit: str, path: str) -> str | None:
        data = mirror.show(commit, path)
        if data is None or b"\0" in data[:8192]:
            return None
        if len(data) > MAX_FILE_BYTES:
            if notes is not None:
                notes.append(f"{path}: not read (over {MAX_FILE_BYTES >> 20} MB)")
            return None
        return data.decode("utf-8", "replace")

    @cache  # one read and parse per package __init__.py, however many symbols it may export
    def names_imported_by(init: str, commit: str = head) -> frozenset[str] | None:
        found = text(commit, init)
        return None if found is None else imported_names(found)

    # What the top-level public packages import, before and after: a private module's names
    # among them are public API (pytest's live in _pytest).
    exports: dict[str, list[str]] = {}
    for commit in (base, head):
        for init in _package_inits(mirror.tree(commit, ".")):
            for name in names_imported_by(init, commit) or ():
                if init not in exports.setdefault(name, []):
                    exports[name].append(init)
    exported = frozenset(exports)
    js_api = _javascript_api(mirror, (base, head), text)

    facts: list[Fact] = []
    named_files: list[Fact] = []
    deprecations = Deprecations()
    # extras compared across the manifests changed: moved from setup.py to pyproject.toml is no change
    packaged: tuple[list[Item], list[Item]] = ([], [])
    manifests: list[str] = []
    for status, old_path, new_path in mirror.changed_files(base, head):
        # a workflow that goes breaks the links to its runs too; one that changes stays where they lead
        if status in "RDM" and documented and any(map(documented, file_forms(old_path) if status != "M" else [old_path])):
            named_files.append(_file_fact(status, old_path, new_path))
        speaks = speaks_to_users(new_path, documented)
        # packaging is no documentation, save for the extras users install
        manifest = not speaks and PurePosixPath(new_path).name in MANIFESTS and not is_test_file(new_path)
        if not (speaks or manifest):
            continue
        old = None if status == "A" else text(base, old_path)
        new = None if status == "D" else text(head, new_path)
        if manifest:
            packaged[0].extend(package_items(old_path, old))
            packaged[1].extend(package_items(new_path, new))
            manifests.append(new_path)
            continue
        facts += facts_of_change(new_path, old, new, old_path=old_path, notes=notes, exported=exported)
        if PurePosixPath(new_path).suffix.lower() in CODE_SUFFIXES:
            deprecations.count(new_path, old, new)

    if manifests:
        # the supported Python versions matter when they change; a manifest that starts or stops
        # stating them changes nothing a user reads
        facts += [f for f in _facts_of_items(manifests[0], *packaged, None)
                  if f.kind != "requirement" or f.change == "default-changed"]

    @cache
    def text_at_head(path: str) -> str | None:
        return text(head, path)

    @cache
    def items_at_head(path: str) -> frozenset[tuple[str, str]]:
        return frozenset((i.kind, i.name) for i in items_of(path, text_at_head(path), None, exported) or ())

    @cache
    def registry_family(rule: str) -> tuple[tuple[str, str], ...]:
        return _registry_family(mirror, head, rule, text_at_head, lambda p: speaks_to_users(p, documented), exported)

    kept: list[Fact] = []
    moved = _moved_paths(facts, lambda p: module_names(text_at_head(p)))
    for fact in _without_owned(_without_moves(facts)) + moved:
        if not _in_javascript_api(fact, js_api):
            continue
        if fact.change == "removed":
            fact = _still_named(mirror, head, fact, items_at_head, text_at_head,
                                lambda p: speaks_to_users(p, documented))
        elif fact.kind == "symbol" and fact.change == "added":
            fact = _importable(fact, names_imported_by, exports)
        elif fact.change == "added" and registry_callee(fact.rule):
            kin = set(fact.siblings) | {fact.name}
            fact = replace(fact, family=tuple(dict.fromkeys(
                name for path, name in registry_family(fact.rule) if path != fact.path and name not in kin)))
        if fact is not None:
            kept.append(fact)
    deprecation = deprecations.fact()
    named = {(k.kind, k.name) for k in kept}
    warned = [f for f in deprecations.warned() if (f.kind, f.name) not in named]
    version = _version_fact(mirror, base, head, text)
    moves = _repository_facts(text, base, head)
    return named_files + kept + warned + ([deprecation] if deprecation else []) + ([version] if version else []) + moves


def _repository_facts(text: Callable[[str, str], str | None], base: str, head: str) -> list[Fact]:
    """The project's repository moved to another address, or its links moved into another branch
    (``repository``), as its manifests say: one fact of kind ``repository``, old → new (a branch
    written ``host/owner/name@branch``)."""
    found = moved_repository(text, base, head)
    if found:
        return [Fact("repository", "renamed", found[1], found[2], "manifest: the project's repository address",
                     old=found[0])]
    branch = branch_moved(text, base, head)
    if branch:
        root, old, new, manifest = branch
        return [Fact("repository", "renamed", f"{root}@{new}", manifest,
                     "manifest: the branch the project's links lead into", old=f"{root}@{old}")]
    return []


def _version_fact(mirror, base: str, head: str, text: Callable[[str, str], str | None]) -> Fact | None:
    """The project's declared version set anew (``release.versions_between``): a fact of kind
    ``version`` (old → new), its siblings the names of the project's own programs
    (``version_output.programs``), whose ``--version`` output the docs may show; none for a project
    without a program of its own."""
    found = versions_between(mirror.tree(head, "."), text, base, head)
    if found is None or found[1] is None or found[1] == found[2]:
        return None
    path, old, new = found
    names = programs(path, lambda p: text(head, p))
    if not names:
        return None  # no program of its own to print it: a version of packaging only
    return Fact("version", "default-changed", names[0], path, "version: the project's declared version",
                old=old, new=new, siblings=names)


_JAVASCRIPT = tuple(s for s, reader in _BY_SUFFIX.items() if reader is javascript_items)


def _javascript_api(mirror, commits: tuple[str, ...], text: Callable[[str, str], str | None]
                    ) -> dict[str, frozenset[str]]:
    """Per JavaScript/TypeScript package folder (``""`` for the top), the names its entry points
    export, before and after the change; packages whose entries are not found here are left out."""
    api: dict[str, set[str]] = {}
    texts: dict[str, str | None] = {}  # by blob: the two commits share most files

    for commit in commits:
        tree = mirror.tree(commit, ".")

        def read(path: str, commit: str = commit, tree: dict[str, str] = tree) -> str | None:
            blob = tree.get(path)
            if blob is not None and blob not in texts:
                texts[blob] = text(commit, path)
            return texts.get(blob) if blob is not None else None

        for manifest in tree:
            if PurePosixPath(manifest).name != "package.json" or not is_imported(manifest) or \
                    is_test_file(manifest) or re.search(r"(^|/)node_modules/", manifest):
                continue
            folder = manifest.rpartition("/")[0]
            found = package_api(read(manifest) or "", folder, tree, read)
            if found is not None:
                api.setdefault(folder, set()).update(found)
    return {folder: frozenset(names) for folder, names in api.items()}


def _in_javascript_api(fact: Fact, api: Mapping[str, frozenset[str]]) -> bool:
    """Whether a JavaScript/TypeScript symbol (or a parameter of one) is its package's API: a name
    its entry points export. A module's other exports are the package's internals (prettier's
    source exports hundreds of names between its own modules)."""
    if fact.kind not in ("symbol", "parameter") or not fact.path.endswith(_JAVASCRIPT):
        return True
    folder = max((f for f in api if f == "" or fact.path.startswith(f + "/")), key=len, default=None)
    if folder is None:
        return True
    return (owner_of(fact.name) or fact.name) in api[folder] or \
        (fact.change == "renamed" and fact.old in api[folder])


def _package_inits(paths: Iterable[str]) -> list[str]:
    """The ``__init__.py`` of each top-level public package (``pkg/``, ``src/pkg/``)."""
    found = []
    for path in paths:
        parts = path.split("/")
        package = parts[1:] if parts[0] in ("src", "lib") else parts  # [name, "__init__.py"]
        if len(package) == 2 and package[1] == "__init__.py" and not package[0].startswith("_") and \
                is_imported(path) and not is_test_file(path):
            found.append(path)
    return found


def _file_fact(status: str, old_path: str, new_path: str) -> Fact:
    """A file the docs name by its path (an included example, a linked script) that the pull
    request renames or deletes (the reference must follow it, or go) or changes (what the page
    shows of it may be out of date)."""
    if status == "R":
        return Fact("file", "renamed", new_path, new_path, "git: file renamed", old=old_path)
    if status == "M":
        # A workflow or test a contributing page names is still where it says; only a page
        # that shows its content needs another look.
        tooling = is_infrastructure(new_path) or is_test_file(new_path)
        return Fact("file", "changed", new_path, new_path, "git: file changed", tooling=tooling)
    return Fact("file", "removed", old_path, old_path, "git: file deleted")


def _importable(fact: Fact, names_imported_by: Callable[[str], frozenset[str] | None],
                exports: Mapping[str, list[str]]) -> Fact:
    """An added Python symbol with the files users can import it from: its own module, each
    package ``__init__.py`` above it that imports it, and the top-level packages that do (the
    Writer names it so that an API-reference directive resolves from the page's current module)."""
    if not fact.path.endswith(".py"):
        return fact
    found, folder = [fact.path], PurePosixPath(fact.path).parent
    while str(folder) not in (".", ""):
        init = str(folder / "__init__.py")
        names = names_imported_by(init)
        if names is None:
            break
        if init != fact.path and fact.name in names:
            found.append(init)
        folder = folder.parent
    found += [init for init in exports.get(fact.name, ()) if init not in found]
    # Imported by a package, it is of the package's API; its siblings are the names the package
    # imports too (click's ``pause`` beside ``getchar``, not the module's own helpers).
    public = set().union(*(names_imported_by(init) or () for init in found[1:]))
    siblings = tuple(s for s in fact.siblings if s in public) if public else fact.siblings
    return replace(fact, importable=tuple(found), siblings=siblings)


_CODE_GLOBS = tuple(f"*{suffix}" for suffix in CODE_SUFFIXES)


MAX_STILL_READ = 25  # files read to tell whether a removed name is still defined or read elsewhere


def _still_named(mirror, head: str, fact: Fact, items_at: Callable[[str], frozenset[tuple[str, str]]],
                 text_at: Callable[[str], str | None], wanted: Callable[[str], bool]) -> Fact | None:
    """A removal is certain only when the name is gone from the code. Where another file still
    defines or reads it (a deleted script's ``GITHUB_TOKEN`` that the program itself reads),
    nothing was removed: no fact. Named some other way (a deprecation shim, an alias, a move to a
    private module), it is 'deprecated', which the Writer points out but never deletes. A Python
    parameter is its own function's (``parameter_use``): a certain removal carries the parameters
    that function still takes as its siblings."""
    word = token(fact.name)
    owner = owner_of(fact.name) if fact.kind == "parameter" else None
    own = parameter_use(text_at(fact.path), owner, word) if owner and fact.path.endswith(_PYTHON_SUFFIXES) else None
    if len(word) < 3 and own is None:
        return fact
    # a file that names it only in its comments and docstrings (an exception hierarchy drawn in a
    # module's docstring) names it to a reader, not to the program: not a sign that it lives on
    files = [path for path in mirror.grep(head, word, _CODE_GLOBS) if _named_in_code(path, text_at(path) or "", word)] \
        if len(word) >= 3 else []
    if any(_still_there(fact, path, items_at, text_at) for path in [p for p in files if wanted(p)][:MAX_STILL_READ]):
        return None
    if own is not None:  # a parameter is its function's: still there only if that function takes or uses it
        files = [fact.path] if own[0] else []
    if not files:
        return replace(fact, siblings=own[1]) if own is not None else fact
    return Fact(fact.kind, "deprecated", fact.name, fact.path, fact.rule + "; still named in the code",
                line=fact.line)


_C_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\w])//[^\n]*", re.DOTALL)


def _named_in_code(path: str, text: str, word: str) -> bool:
    """Whether ``word`` stands as a whole word in the file's code, its comments and (Python)
    docstrings left out; a file that cannot be tokenized counts as naming it."""
    if PurePosixPath(path).suffix.lower() in _PYTHON_SUFFIXES:
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        except (tokenize.TokenError, SyntaxError, IndentationError):
            return True
        kept, previous = [], tokenize.NEWLINE
        for tok in tokens:
            if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and previous in _STATEMENT_START):
                continue  # a comment, or a string standing as a statement of its own: a docstring
            kept.append(tok.string)
            if tok.type not in (tokenize.NL, tokenize.COMMENT):
                previous = tok.type
        code = " ".join(kept)
    else:
        code = _C_COMMENT.sub(" ", text)
    return re.search(rf"(?<![\w$]){re.escape(word)}(?![\w$])", code) is not None


_STATEMENT_START = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


MAX_FAMILY_READ = 40  # files read for the other names a registry call adds


def _registry_family(mirror, head: str, rule: str, text_at: Callable[[str], str | None],
                     wanted: Callable[[str], bool], exported: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """(file, name) of everything a registry call (``rule``'s) adds across the project: pytest's
    plugins each call ``parser.addini(...)``, and the docs list every ini option in one place,
    whatever file adds it (``Fact.family``)."""
    files = [path for path in mirror.grep(head, registry_callee(rule), ("*.py",)) if wanted(path)][:MAX_FAMILY_READ]
    return tuple((path, item.name) for path in files
                 for item in python_items(text_at(path) or "", path, exported) or () if item.rule == rule)


def _still_there(fact: Fact, path: str, items_at: Callable[[str], frozenset[tuple[str, str]]],
                 text_at: Callable[[str], str | None]) -> bool:
    """Whether ``path`` still has the fact's item: the same kind and name, or for an environment
    variable its name as a string of its own (``load_env("GITHUB_TOKEN", ...)``: code that reads or
    sets a variable quotes its name alone, where a message quotes it amid words: ``"set 'X' or"``)."""
    if (fact.kind, fact.name) in items_at(path):
        return True
    literal = rf"""["'`]{re.escape(fact.name)}["'`]\s*(?:[,)\]}};:]|$)"""
    return fact.kind == "env" and re.search(literal, text_at(path) or "", re.MULTILINE) is not None


def _without_owned(facts: list[Fact]) -> list[Fact]:
    """Leave out the parameters and methods added or removed with their own function or class: the
    symbol is the fact, and a parameter's bare name (``src``) would send the planner to every page
    that uses the word. After ``_without_moves``: a class moved to another module, its parameters
    with it, is no change at all."""
    symbols = {(f.path, f.change, f.name) for f in facts if f.kind == "symbol"}
    return [f for f in facts if (f.path, f.change, _owner_symbol(f)) not in symbols]


def _owner_symbol(fact: Fact) -> str | None:
    """The function or class a parameter (``run(quiet)``) or a method (``Stream.read``) belongs to."""
    return owner_of(fact.name) if fact.kind == "parameter" else member_of(fact)


def _moved_key(fact: Fact) -> tuple[str, str]:
    """What stays the same when a name moves: a method keeps its own name when it moves to a base
    class (flask 3.0 moved ``Flask.logger`` to ``App``, which ``Flask`` extends)."""
    name = token(fact.name)
    return fact.kind, name.rsplit(".", 1)[-1] if fact.kind == "symbol" else name


def _module(path: str) -> str | None:
    """The dotted name users import a Python file by (``src/black/concurrency.py`` →
    ``black.concurrency``, ``click/__init__.py`` → ``click``); None for another file."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if not path.endswith(".py") or not parts:
        return None
    if parts[0] in ("src", "lib") and len(parts) > 1:
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def _moved_paths(facts: list[Fact], bound_at_head: Callable[[str], frozenset[str]]) -> list[Fact]:
    """A top-level Python function or class moved to another module is no new name, but its old
    dotted path (``black.schedule_formatting``, as an autodoc directive or a reference writes it) is
    gone when the old module no longer binds the name, not even by importing it: that path is
    renamed to the new one (``black.concurrency.schedule_formatting``)."""
    def top(fact: Fact) -> bool:
        return fact.kind == "symbol" and "." not in fact.name and _module(fact.path) is not None
    added: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.change == "added" and top(fact):
            added.setdefault(fact.name, []).append(fact)
    out = []
    for fact in facts:
        if fact.change != "removed" or not top(fact) or len(added.get(fact.name, ())) != 1:
            continue
        to = added[fact.name][0]
        if fact.name in bound_at_head(fact.path):
            continue  # still importable where it was
        old, new = f"{_module(fact.path)}.{fact.name}", f"{_module(to.path)}.{fact.name}"
        out.append(Fact("symbol", "renamed", new, to.path, MOVED, old=old,
                        line=to.line))
    return out


def _without_moves(facts: list[Fact]) -> list[Fact]:
    """A name removed from one file and added in another has moved: neither is a fact for the
    docs (a function moved between modules, a setting to another class)."""
    added = {_moved_key(f) for f in facts if f.change == "added"}
    removed = {_moved_key(f) for f in facts if f.change == "removed"}
    moved = added & removed
    return [f for f in facts if not (f.change in ("added", "removed") and _moved_key(f) in moved)]

