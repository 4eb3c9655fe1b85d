"""Render the jinja2 templates of ``docsvc/ci/jinja/``: the composite action's ``action.yml``,
the GitLab CI/CD catalog component of docsvc's own project (``templates/docsvc.yml``), and the
GitHub workflow, GitLab include and Jenkins shared-library step that ``docsvc ci init`` writes into
a user's repository. Every input name comes from the one contract in ``settings``; the pinned
dependencies all three CI systems install come from one file, ``requirements.txt`` beside this.

The templates are package data, read through ``importlib.resources`` (jinja2's PackageLoader), so
an editable checkout, a wheel in site-packages, a ``pip install --target`` folder and a zip import
all render the same files."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from pathlib import Path

from .settings import INPUTS, OPERATIONS, OUTPUTS

# The checkout's root: only meaningful in a checkout (scripts/render-templates and the tests write
# and compare the committed examples there); an installed package never uses it.
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "templates" / "examples"
COMPONENT = ROOT / "templates" / "docsvc.yml"  # the catalog component (render_component)

OUTPUT_DESCRIPTIONS = {
    "job-id": "ID of the service job that ran",
    "status": "completed, failed, running (still running at the timeout) or dry-run",
    "result": "the job's result as JSON, when it is under 1 KiB (result-file always has all of it)",
    "result-file": "path of the JSON file holding the job's whole result",
    "url": "link to the result in the service, when there is one",
    "item-id": "ID of the item the operation created (suggestion, conversion)",
    "output-path": "convert: where the document was written",
    "pull-requests": "api-scan-pr: the pull requests opened, one URL per line",
    "errors": "number of error annotations the step wrote: findings, its own error, files it could not write",
    "warnings": "number of warning annotations the step wrote",
}

KINDS = ("github", "gitlab", "jenkins")


_NAME = r"[A-Za-z0-9_.-]+"
_RELATIVE_PATH = r"(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_.@+-]+(?:/[A-Za-z0-9_.@+-]+)*/?"
# What each text option may hold, and how to say so. They are written as they are into YAML values,
# Groovy strings, comments and HTML, so each is held to the characters its kind of name uses: none
# can end the string or the line it stands in (a quote, a newline, ``: ``, `` #``) or add markup.
SHAPES = {
    "action": (rf"{_NAME}/[A-Za-z0-9_./-]+@[A-Za-z0-9_./-]+|\./{_RELATIVE_PATH}",
               "OWNER/REPO@REF or ./PATH"),
    "screenshots_dir": (_RELATIVE_PATH, "a relative path of letters, digits and . _ - @ + /"),
    "spec_file": (_RELATIVE_PATH, "a relative path of letters, digits and . _ - @ + /"),
    "job_name": (r"[A-Za-z0-9_-]+", "letters, digits, _ and -"),
    "credentials_id": (_NAME, "letters, digits, . _ and -"),
    "gitlab_project": (rf"{_NAME}(?:/{_NAME})+", "GROUP/PROJECT"),
    "repository": (r"(?:https://|ssh://)[A-Za-z0-9_.@:/~+-]+", "an https:// or ssh:// Git URL"),
}


@dataclass(frozen=True)
class InitOptions:
    """Options of ``docsvc ci init``; the defaults give the committed examples. A text option that
    does not have its shape (``SHAPES``) is a ValueError naming it."""

    integration_id: int = 1
    action: str = "docsvc/docsvc-action@v1"
    screenshots_dir: str = "screenshots"
    spec_file: str = "openapi.yaml"
    job_name: str = "docsvc"
    credentials_id: str = "docsvc-api-key"
    # Where docsvc's own repository lives: the GitLab component project (catalog path on the
    # user's GitLab server) and the Git URL the Jenkins library and a GitLab local include install
    # from. Each install is pinned to a commit or tag of it, never to a package name someone else
    # could register.
    gitlab_project: str = "docsvc/docsvc-action"
    repository: str = "https://github.com/docsvc/docsvc-action.git"
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for option in fields(self):
            if option.name in SHAPES:
                pattern, shape = SHAPES[option.name]
                value = getattr(self, option.name)
                if not (isinstance(value, str) and re.fullmatch(pattern, value)):
                    raise ValueError(f"--{option.name.replace('_', '-')}: {value!r} is not {shape}")


# Where each kind's files go in the user's repository.
TARGETS = {
    "github": {"github-workflow.yml.j2": ".github/workflows/docsvc.yml"},
    "gitlab": {"gitlab-component.yml.j2": "templates/docsvc.yml", "gitlab-ci-include.yml.j2": ".gitlab-ci.docsvc.yml"},
    "jenkins": {"jenkins-step.groovy.j2": "vars/docsvc.groovy", "jenkins-help.txt.j2": "vars/docsvc.txt",
                "Jenkinsfile.j2": "Jenkinsfile.docsvc"},
}


def _environment():
    try:
        import jinja2
    except ImportError:  # pragma: no cover - a dependency of docsvc-cli
        raise RuntimeError("jinja2 is missing: pip install jinja2") from None
    env = jinja2.Environment(loader=jinja2.PackageLoader("docsvc.ci", "jinja"), keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, autoescape=False)
    import json

    env.globals.update(gh=lambda expr: "${{ " + expr + " }}", gl=lambda expr: "$[[ " + expr + " ]]")
    env.filters["q"] = lambda text: json.dumps(str(text), ensure_ascii=False)  # a YAML double-quoted string
    env.filters["flow"] = lambda value: json.dumps(value, ensure_ascii=False)  # YAML flow: typed scalars, lists
    env.filters["camel"] = lambda name: name.split("_")[0] + "".join(p.title() for p in name.split("_")[1:])
    return env


class _InputView:
    def __init__(self, spec) -> None:
        self.spec = spec

    def __getattr__(self, name):
        return getattr(self.spec, name)

    @property
    def default_text(self) -> str:
        value = self.spec.default
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        if isinstance(value, tuple):
            return ",".join(value)
        return str(value)

    @property
    def gitlab(self) -> dict:
        """The GitLab ``spec:inputs`` entry: booleans and numbers typed (GitLab checks them before
        the pipeline starts), choices as ``options``, ids as digit strings (no default: optional).

        A boolean without a default means "unset" (validate's stages: the saved configuration), a
        third value GitLab's ``type: boolean`` cannot hold (its default would be false): it is a
        string of ``""``, ``true`` or ``false``, and the empty string reaches the step as unset."""
        spec = self.spec
        if spec.kind == "bool" and spec.default is None:
            return {"type": "string", "default": "", "options": ["", "true", "false"]}
        if spec.kind == "bool":
            return {"type": "boolean", "default": bool(spec.default)}
        if spec.kind == "float" and spec.default is not None:
            return {"type": "number", "default": int(spec.default) if float(spec.default).is_integer() else spec.default}
        if spec.kind == "int":
            return {"default": "", "regex": "^[0-9]*$"}
        if spec.kind == "choice":
            default = self.default_text if spec.default is not None else ""
            return {"default": default, "options": ([] if default else [""]) + list(spec.choices)}
        if spec.gitlab_default is not None:
            return {"default": spec.gitlab_default}
        return {"default": self.default_text if spec.default not in (None, ()) else ""}


def pins() -> list[str]:
    """The pinned requirements of ``requirements.txt`` (package data): what the action installs,
    and the constraints of the GitLab job's and the Jenkins step's install."""
    from importlib.resources import files

    text = files(__package__).joinpath("requirements.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def context(options: InitOptions | None = None, component: bool = False) -> dict:
    """What the templates see. ``component``: the GitLab file as a catalog component (it installs
    its own ``component.sha``), not as the local include ``ci init`` writes (the rendering version)."""
    from .. import __version__

    return {"inputs": [_InputView(i) for i in INPUTS], "operations": OPERATIONS, "outputs": OUTPUTS,
            "output_descriptions": OUTPUT_DESCRIPTIONS, "o": options or InitOptions(), "version": __version__,
            "pins": pins(), "component": component}


def render_template(name: str, options: InitOptions | None = None, component: bool = False) -> str:
    return _environment().get_template(name).render(**context(options, component))


def render_action() -> str:
    return render_template("action.yml.j2")


def render_component() -> str:
    """The GitLab CI/CD catalog component of docsvc's own project (``templates/docsvc.yml`` at its
    root), included as ``component: .../docsvc@VERSION``."""
    return render_template("gitlab-component.yml.j2", component=True)


def render_kind(kind: str, options: InitOptions | None = None) -> dict[str, str]:
    """The files of one CI system: path in the user's repository -> content."""
    return {target: render_template(name, options) for name, target in TARGETS[kind].items()}
