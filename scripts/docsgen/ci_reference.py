"""The CI entrypoint's inputs and outputs, from the one contract ``action.yml`` is rendered from.

``docsvc.ci.templates.context()`` is what ``scripts/render-templates`` hands the templates of
``action.yml``, the GitLab component and the Jenkins step: the inputs of ``docsvc/ci/settings.py``
with their defaults as the templates write them, the operations, the outputs and their
descriptions. Each input is listed in all four spellings (GitHub input, GitLab input, Jenkins
argument, environment variable and ``entrypoint.py`` flag), so no page can name one that is not.
"""

from __future__ import annotations

from docsvc.ci.providers.gitlab import dotenv_name
from docsvc.ci.templates import _environment, context

from .markdown import cell

# What each kind of input takes, in words.
KINDS = {
    "str": lambda spec: "text",
    "int": lambda spec: "a positive whole number",
    "float": lambda spec: "a number",
    "bool": lambda spec: "true or false",
    "list": lambda spec: "a list: comma-separated or one a line",
    "choice": lambda spec: "one of " + ", ".join(f"`{c}`" for c in spec.choices),
}

GROUPS = (
    ("Every operation", None),
    ("sync and docflow", "sync"),
    ("docflow", "docflow"),
    ("convert", "convert"),
    ("api-scan-pr", "api-scan-pr"),
    ("validate", "validate"),
    ("check", "check"),
)


def page() -> str:
    data = context()
    camel = _environment().filters["camel"]
    operations = data["operations"]
    lines = [
        "# CI inputs and outputs",
        "",
        "Generated from `docsvc/ci/settings.py` and `docsvc/ci/templates.py`, the source `action.yml`,",
        "the GitLab CI/CD component and the Jenkins step are rendered from. The same input has four",
        "spellings: the GitHub Action and GitLab component input (kebab case), the Jenkins step's",
        "argument (camel case), the environment variable and the `entrypoint.py` flag. A flag beats the",
        "variable, which beats `docsvc.yaml` (`integration_id`, `api_key`, `base_url`), which beats the",
        "default.",
        "",
        "## `operation`",
        "",
        "Required, the first argument of `entrypoint.py`: " + ", ".join(f"`{o}`" for o in operations) + ".",
        "",
        "## Inputs",
        "",
    ]
    inputs = data["inputs"]
    for title, operation in GROUPS:
        if operation is None:
            chosen = [i for i in inputs if tuple(i.operations) == tuple(operations)]
        elif operation == "sync":
            chosen = [i for i in inputs if tuple(i.operations) == ("sync", "docflow")]
        else:
            chosen = [i for i in inputs if tuple(i.operations) == (operation,)]
        if not chosen:
            continue
        lines += [f"### {title}", "", "| Input | Default | Description |", "|---|---|---|"]
        for spec in chosen:
            default = f"`{cell(spec.default_text)}`" if spec.default not in (None, ()) else ""
            # The Jenkins step takes no secret as an argument: the key comes from a credential.
            jenkins = (("Jenkins: a secret-text credential, `credentialsId`" if spec.name == "api_key" else
                        "not on Jenkins") if spec.secret else f"Jenkins `{camel(spec.name)}`")
            spellings = f"{jenkins} · `{spec.env}` · `{spec.flag}`"
            secret = " **Secret**: masked, never printed." if spec.secret else ""
            kind = KINDS[spec.kind](spec)
            lines.append(f"| `{spec.kebab}` | {default} | {cell(spec.description)}.{secret}"
                         f"<br>{kind[0].upper() + kind[1:]} · {spellings} |")
        lines.append("")
    lines += ["## Outputs", "",
              "GitHub: step outputs (`steps.<id>.outputs.<name>`). GitLab: the dotenv report (`dotenv-file`,",
              "default `docsvc.env`) as variables for later jobs. Jenkins and a terminal: printed at the end of",
              "the step; the whole result is always in `result-file`.", "",
              "| Output | GitLab dotenv variable | Description |", "|---|---|---|"]
    descriptions = data["output_descriptions"]
    for output in data["outputs"]:
        lines.append(f"| `{output}` | `{dotenv_name(output)}` | {cell(descriptions[output])} |")
    lines += ["", "## Exit codes", "",
              "`0` done · `1` the operation failed (an API error, a failed job, findings at or above `fail-on`) · "
              "`2` a bad input · `4` authentication or permission · `8` a job still running at `timeout` "
              "(exit 0 with `timeout-ok`).", ""]
    return "\n".join(lines)
