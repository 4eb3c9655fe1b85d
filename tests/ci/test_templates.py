"""The action, the templates and the committed examples: rendered from one input contract, with
inputs reaching scripts only through the environment."""

import re
import subprocess
import sys

import pytest
import yaml

from docsvc.ci.settings import BY_KEBAB, INPUTS, OUTPUTS
from docsvc.ci.templates import EXAMPLES, KINDS, ROOT, render_action, render_kind
from tests.support import run_cli

ACTION = ROOT / "action.yml"
# Names a template may use beside the contract's, each with its reason.
COMPONENT_ONLY = {"job-name": "lets the GitLab component be included more than once",
                  "stage": "GitLab job placement", "image": "GitLab job image",
                  "package": "what pip installs", "operation": "the operation (a positional argument)"}


def test_committed_action_and_examples_match_the_renderer():
    assert ACTION.read_text() == render_action(), "run scripts/render-templates"
    for kind in KINDS:
        for path, text in render_kind(kind).items():
            assert (EXAMPLES / kind / path).read_text() == text, f"run scripts/render-templates ({kind} {path})"


def test_action_inputs_are_the_contract_and_reach_the_script_through_env():
    action = yaml.safe_load(ACTION.read_text())
    assert set(action["inputs"]) == {"operation"} | set(BY_KEBAB)
    assert list(action["outputs"]) == list(OUTPUTS)
    assert action["runs"]["using"] == "composite"
    run = next(step for step in action["runs"]["steps"] if step.get("id") == "run")
    assert run["env"] == {"DOCSVC_OPERATION": "${{ inputs.operation }}",
                          **{i.env: f"${{{{ inputs.{i.kebab} }}}}" for i in INPUTS}}
    for step in action["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), f"an expression pasted into a run line: {step.get('name')}"
        if "run" in step:
            assert step["shell"] == "bash"  # bash exists on Linux, macOS and Windows runners


def test_gitlab_component_uses_contract_names_and_variables_only():
    component_text = render_kind("gitlab")["templates/docsvc.yml"]
    spec, job = list(yaml.safe_load_all(component_text))
    inputs = set(spec["spec"]["inputs"])
    assert inputs - set(COMPONENT_ONLY) == {i.kebab for i in INPUTS if not i.secret}
    (name, definition), = job.items()
    assert name == "$[[ inputs.job-name ]]"
    for line in definition["script"]:
        assert "$[[" not in line, "inputs are never pasted into script:"
    for i in INPUTS:
        if not i.secret:
            assert definition["variables"][i.env] == f"$[[ inputs.{i.kebab} ]]"
    assert definition["artifacts"]["reports"] == {"dotenv": "docsvc.env", "junit": "docsvc-junit.xml"}


def test_jenkins_step_maps_every_argument_to_its_variable_and_never_interpolates_into_shell():
    step = render_kind("jenkins")["vars/docsvc.groovy"]
    mapping = dict(re.findall(r"^    (\w+): '(DOCSVC_\w+)',$", step, re.MULTILINE))
    camel = lambda n: n.split("_")[0] + "".join(p.title() for p in n.split("_")[1:])  # noqa: E731
    assert mapping == {camel(i.name): i.env for i in INPUTS if not i.secret}
    scripts = re.findall(r"(?:sh|bat)\(label: [^,]+, script: ('[^']*')\)", step)
    assert len(scripts) == 4 and all("${" not in s for s in scripts)


def test_github_workflow_uses_only_inputs_the_action_has():
    action_inputs = set(yaml.safe_load(ACTION.read_text())["inputs"])
    workflow = yaml.safe_load(render_kind("github")[".github/workflows/docsvc.yml"])
    used = [step["with"] for job in workflow["jobs"].values() for step in job["steps"]
            if str(step.get("uses", "")).startswith("docsvc/")]
    assert len(used) == 3
    for inputs in used:
        assert set(inputs) <= action_inputs


def test_action_yml_is_valid_against_the_github_actions_schema():
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-actions",
                           str(ACTION)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ci_init_writes_and_does_not_overwrite(tmp_path):
    done = run_cli("ci", "init", "gitlab", "--dir", str(tmp_path), "--integration-id", "12", key=None, base_url=None)
    assert done.returncode == 0, done.stderr
    assert 'integration-id: "12"' in (tmp_path / ".gitlab-ci.docsvc.yml").read_text()
    assert (tmp_path / "templates" / "docsvc.yml").is_file()
    again = run_cli("ci", "init", "gitlab", "--dir", str(tmp_path), key=None, base_url=None)
    assert again.returncode == 2 and "pass --force" in again.stderr
    forced = run_cli("ci", "init", "gitlab", "--dir", str(tmp_path), "--force", key=None, base_url=None)
    assert forced.returncode == 0
    assert 'integration-id: "1"' in (tmp_path / ".gitlab-ci.docsvc.yml").read_text()


@pytest.mark.parametrize("kind", KINDS)
def test_ci_init_defaults_are_the_committed_examples(tmp_path, kind):
    assert run_cli("ci", "init", kind, "--dir", str(tmp_path), key=None, base_url=None).returncode == 0
    for path in render_kind(kind):
        assert (tmp_path / path).read_text() == (EXAMPLES / kind / path).read_text()
