"""The whole input contract of the CI layer, defined once.

Every input has a snake_case field here; the GitHub Action input is its kebab-case name, the
environment variable is ``DOCSVC_`` + upper case, the ``entrypoint.py`` flag is ``--`` + kebab
case. ``action.yml`` and the GitLab/Jenkins templates use only names defined here (a test checks
it), so the four spellings can never drift apart.

Precedence: a flag beats the environment, which beats the workspace's ``docsvc.yaml`` (its
``integration_id``, ``api_key`` and ``base_url``, as the CLI reads them), which beats the default. (On GitHub the action maps
its inputs to these variables in ``env:``; act also sets ``INPUT_*``, GitHub does not, so those
are never read.)

On a pull-request or merge-request build the workspace is the pull request's code, and so is its
``docsvc.yaml``: a base URL that only that file gives is refused while the key comes from the
pipeline (``origin_problems``), or the key would go wherever the pull request says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..config import MAX_ID, key_problem
from ..credentials import hidden
from ..endpoints import CONVERT_SOURCES, CONVERT_TARGETS

OPERATIONS = ("sync", "docflow", "convert", "api-scan-pr", "validate", "check")
PROVIDERS = ("auto", "github", "gitlab", "jenkins", "local")
ALL = OPERATIONS


@dataclass(frozen=True)
class Input:
    name: str  # snake_case field name
    description: str
    kind: str = "str"  # str | int | float | bool | list | choice
    default: Any = None
    choices: tuple[str, ...] = ()
    operations: tuple[str, ...] = ALL
    secret: bool = False
    gitlab_default: Any = None  # the GitLab component's default where it differs: its artifacts need a path

    @property
    def kebab(self) -> str:
        return self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return "DOCSVC_" + self.name.upper()

    @property
    def flag(self) -> str:
        return "--" + self.kebab


I = Input
INPUTS: tuple[Input, ...] = (
    # Connection and behaviour, for every operation
    I("api_key", "API key of the docs service (store it as a secret)", secret=True),
    I("comment_token", "token that may comment on the pull request (GitHub: GITHUB_TOKEN with pull-requests: "
      "write; GitLab: a project access token with api scope); without one, no comment", secret=True),
    I("base_url", "base URL of the docs service", default="http://127.0.0.1:8080"),
    I("ci_provider", "CI system to report to; auto detects it", kind="choice", default="auto", choices=PROVIDERS),
    I("timeout", "seconds the whole step may take, requests included (0: start the job and exit 0 with its "
      "job-id and status running, without waiting)",
      kind="float", default=1800.0),
    I("timeout_ok", "a job still running at the timeout is a warning (exit 0), not a failure (exit 8)",
      kind="bool", default=False),
    I("dry_run", "check the inputs and print what would be sent, without calling the service",
      kind="bool", default=False),
    I("summary_file", "also write the Markdown summary to this file (Jenkins: archive it)",
      gitlab_default="docsvc-summary.md"),
    I("dotenv_file", "GitLab: write the outputs to this dotenv report", default="docsvc.env"),
    I("result_file", "write the full result as JSON here (default: docsvc-OPERATION-result.json)"),
    # sync and docflow
    I("integration_id", "repository integration ID", kind="int", operations=("sync", "docflow")),
    # docflow: the pull request, detected from the CI context when not given
    I("pr_number", "pull request number", kind="int", operations=("docflow",)),
    I("pr_title", "pull request title", operations=("docflow",)),
    I("pr_body", "pull request description", operations=("docflow",)),
    I("pr_author", "pull request author's username", operations=("docflow",)),
    I("pr_branch", "pull request head branch", operations=("docflow",)),
    I("pr_sha", "pull request head commit SHA", operations=("docflow",)),
    I("screenshots", "screenshots as ROUTE=PATH, one per line or comma-separated", kind="list",
      operations=("docflow",)),
    I("screenshots_dir", "folder of screenshots (routes from --screenshots-map or the file names)",
      operations=("docflow",)),
    I("screenshots_map", "YAML or JSON file mapping each image file name to its route", operations=("docflow",)),
    I("max_screenshot_mb", "largest screenshot accepted, in MB", kind="float", default=10.0,
      operations=("docflow",)),
    # convert
    I("input_file", "spec file to convert", operations=("convert",)),
    I("source_type", "kind of spec", kind="choice", choices=CONVERT_SOURCES, operations=("convert",)),
    I("target", "output format", kind="choice", default="docusaurus",
      choices=tuple(CONVERT_TARGETS), operations=("convert",)),
    I("output", "where to write the result (default: input name with the target's extension)",
      operations=("convert",)),
    # api-scan-pr
    I("scan_id", "API scan ID", kind="int", operations=("api-scan-pr",)),
    I("to", "targets: docs, source or both", kind="list", default=("docs",), operations=("api-scan-pr",)),
    I("repo", "docs target: integration ID", kind="int", operations=("api-scan-pr",)),
    I("path", "docs target: file path (default: the spec's path)", operations=("api-scan-pr",)),
    I("source_path", "source target: file path", operations=("api-scan-pr",)),
    I("spec", "'prepped' to use the pre-processed spec instead of the AI-corrected one",
      kind="choice", choices=("prepped",), operations=("api-scan-pr",)),
    I("commit_message", "commit message of the pull requests", operations=("api-scan-pr",)),
    # validate
    I("file", "the spec file in the workspace to lint (default: the saved API-readiness configuration)",
      operations=("validate",)),
    I("run_swagger", "run the Swagger checks", kind="bool", operations=("validate",)),
    I("run_redocly", "run the Redocly checks", kind="bool", operations=("validate",)),
    I("run_ai_fix", "run the AI fix stage", kind="bool", operations=("validate",)),
    I("run_ai_content", "run the AI content stage", kind="bool", operations=("validate",)),
    I("fail_on", "which findings fail the step", kind="choice", default="error",
      choices=("never", "warning", "error"), operations=("validate",)),
    I("junit_file", "write the findings as a JUnit report here (failures: findings at or above fail-on)",
      default="docsvc-junit.xml", operations=("validate",)),
    I("sarif_file", "write the findings as SARIF 2.1.0 here (GitHub code scanning)", default="docsvc.sarif",
      operations=("validate",)),
    I("codequality_file", "GitLab: write the findings as a Code Quality report here",
      default="docsvc-codequality.json", operations=("validate",)),
    # check
    I("ids", "suggestion IDs to check (default: every open suggestion)", kind="list", operations=("check",)),
    I("dismiss_done", "dismiss suggestions already in the docs", kind="bool", default=False,
      operations=("check",)),
    I("no_ai", "text comparison only (free)", kind="bool", default=False, operations=("check",)),
)

BY_NAME = {i.name: i for i in INPUTS}
BY_KEBAB = {i.kebab: i for i in INPUTS}

# Outputs every CI system gets, in its own form (GitHub outputs, a GitLab dotenv report, ...).
# Each stays small: the whole result goes to the file named by result-file.
OUTPUTS = ("job-id", "status", "result", "result-file", "url", "item-id", "output-path", "pull-requests",
           "errors", "warnings")


PROJECT_SOURCE = "./docsvc.yaml"
DEFAULT_SOURCE = "default"


class InputError(ValueError):
    """An input is malformed; the message names it the way the user wrote it."""


def unknown_operation(name: str) -> str:
    return f"unknown operation {name!r}; operations: {', '.join(OPERATIONS)}"


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def convert(spec: Input, raw: Any, origin: str) -> Any:
    """Parse one raw value (a string from the environment or a flag) into the input's type."""
    if raw is None:
        return None
    if spec.kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise InputError(f"{origin}: expected true or false, got {raw!r}")
    if isinstance(raw, str) and not raw.strip() and spec.kind != "str":
        return None
    if spec.kind == "int":
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise InputError(f"{origin}: expected a whole number, got {raw!r}") from None
        if not 0 < value <= MAX_ID:
            raise InputError(f"{origin}: expected a positive number of at most {MAX_ID}, got {value}")
        return value
    if spec.kind == "float":
        try:
            value = float(str(raw).strip())
        except ValueError:
            raise InputError(f"{origin}: expected a number, got {raw!r}") from None
        if not math.isfinite(value):  # float() takes nan and inf; a timeout of inf would be no limit
            raise InputError(f"{origin}: expected a finite number, got {raw!r}")
        if value < 0:
            raise InputError(f"{origin}: must not be negative, got {value:g}")
        return value
    if spec.kind == "list":
        # Repeated flags, commas or lines (a multi-line action input) all separate values.
        chunks = raw if isinstance(raw, (list, tuple)) else [raw]
        items = [part for chunk in chunks for part in str(chunk).replace(",", "\n").splitlines()]
        return tuple(item.strip() for item in items if item.strip())
    if spec.kind == "choice":
        text = str(raw).strip()
        if not text:
            return None
        if text not in spec.choices:
            raise InputError(f"{origin}: expected one of {', '.join(spec.choices)}, got {raw!r}")
        return text
    text = str(raw)
    if spec.secret:
        # A secret pasted with a trailing newline is the common case; one with a space or a
        # control character inside cannot go in a header and is refused by name, never shown.
        text = text.strip()
        if (problem := key_problem(text)) is not None:
            raise InputError(f"{origin}: {problem}")
    return text if text.strip() else None


@dataclass
class CiSettings:
    operation: str
    values: dict[str, Any] = field(default_factory=dict)
    # where each value came from: its flag, its variable, PROJECT_SOURCE, or DEFAULT_SOURCE
    sources: dict[str, str] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:  # the API key never shows
        shown = {k: ("<hidden>" if BY_NAME[k].secret and v else v) for k, v in self.values.items()}
        return f"CiSettings(operation={self.operation!r}, values={shown!r})"

    @classmethod
    def resolve(cls, operation: str, flags: Mapping[str, Any], env: Mapping[str, str],
                project: Mapping[str, Any] | None = None) -> "CiSettings":
        """Flags (already parsed, None when absent) beat ``DOCSVC_*`` variables beat ``project``
        (the workspace's docsvc.yaml) beats defaults. Raises InputError naming every malformed
        input, one a line."""
        settings, problems = cls.read(operation, flags, env, project)
        if problems:
            raise InputError("\n".join(problems))
        return settings

    @classmethod
    def read(cls, operation: str, flags: Mapping[str, Any], env: Mapping[str, str],
             project: Mapping[str, Any] | None = None) -> tuple["CiSettings", list[str]]:
        """The settings, with the default in place of each malformed input, and the problems: a step
        with bad input still has what it needs to report (its summary file, its provider)."""
        if operation not in OPERATIONS:
            raise InputError(unknown_operation(operation))
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        problems: list[str] = []
        for spec in INPUTS:
            try:
                if flags.get(spec.name) not in (None, (), ""):
                    source, value = spec.flag, convert(spec, flags[spec.name], spec.flag)
                elif env.get(spec.env) not in (None, ""):
                    source, value = spec.env, convert(spec, env[spec.env], spec.env)
                elif (project or {}).get(spec.name) is not None:
                    source = PROJECT_SOURCE
                    value = convert(spec, str(project[spec.name]), f"{PROJECT_SOURCE} {spec.name}")
                else:
                    source, value = DEFAULT_SOURCE, spec.default
            except InputError as exc:
                problems.append(str(exc))
                source, value = DEFAULT_SOURCE, spec.default
            values[spec.name], sources[spec.name] = value, source
        if not values["result_file"]:
            values["result_file"] = f"docsvc-{operation}-result.json"
        return cls(operation, values, sources), problems

    def origin_problems(self, *, pull_request: bool) -> list[str]:
        """What the run's kind forbids of where the settings came from: on a pull-request build the
        workspace's docsvc.yaml is the pull request's to write, so it may not choose the service that
        a key from the pipeline (an input, a variable, a secret) is sent to. A key and a base URL
        that both come from that file stay allowed: the key is then the pull request's own."""
        key_from, url_from = self.sources.get("api_key"), self.sources.get("base_url")
        if not (pull_request and self.api_key and url_from == PROJECT_SOURCE and key_from != PROJECT_SOURCE):
            return []
        return [f"{PROJECT_SOURCE} base_url ({hidden(str(self.base_url))}) refused: on a pull request that file is "
                f"the pull request's code, and the API key comes from {key_from}; set base-url (DOCSVC_BASE_URL) "
                f"in the pipeline"]
