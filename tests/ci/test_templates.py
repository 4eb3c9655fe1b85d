"""The action, the templates and the committed examples: rendered from one input contract, with
inputs reaching scripts only through the environment."""

import re
import subprocess
import sys

import pytest
import yaml

from docsvc.ci.settings import BY_KEBAB, INPUTS, OUTPUTS
from docsvc.ci.templates import COMPONENT, EXAMPLES, KINDS, ROOT, pins, render_action, render_component, render_kind
from tests.support import run_cli

ACTION = ROOT / "action.yml"
# Names a template may use beside the contract's, each with its reason.
COMPONENT_ONLY = {"job-name": "lets the GitLab component be included more than once",
                  "stage": "GitLab job placement", "image": "GitLab job image",
                  "package": "what pip installs instead of the component's own commit (or the rendering version)",
                  "source": "the repository docsvc is installed from, at the component's commit (or tag)",
                  "rules": "when the job runs", "operation": "the operation (a positional argument)"}


def test_committed_action_and_examples_match_the_renderer():
    assert ACTION.read_text() == render_action(), "run scripts/render-templates"
    assert COMPONENT.read_text() == render_component(), "run scripts/render-templates (templates/docsvc.yml)"
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
                          "DOCSVC_ACTION_PYTHON": "${{ steps.venv.outputs.python }}",  # the action's own venv
                          **{i.env: f"${{{{ inputs.{i.kebab} }}}}" for i in INPUTS}}
    for step in action["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), f"an expression pasted into a run line: {step.get('name')}"
        if "run" in step:
            assert step["shell"] == "bash"  # bash exists on Linux, macOS and Windows runners


@pytest.mark.parametrize("form", ["component", "local include"])
def test_gitlab_component_uses_contract_names_and_variables_only(form):
    component_text = render_component() if form == "component" else render_kind("gitlab")["templates/docsvc.yml"]
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
    # the artifacts follow the report-file inputs, or a file written under another name is never collected
    assert definition["artifacts"]["reports"] == {"dotenv": "$[[ inputs.dotenv-file ]]",
                                                  "junit": "$[[ inputs.junit-file ]]",
                                                  "codequality": "$[[ inputs.codequality-file ]]"}
    assert {"$[[ inputs.summary-file ]]", "$[[ inputs.sarif-file ]]"} <= set(definition["artifacts"]["paths"])
    defaults = {name: entry.get("default") for name, entry in spec["spec"]["inputs"].items()}
    assert (defaults["summary-file"], defaults["dotenv-file"]) == ("docsvc-summary.md", "docsvc.env")


def test_gitlab_component_is_typed_and_installs_its_own_commit():
    spec, job = list(yaml.safe_load_all(render_component()))
    inputs = spec["spec"]["inputs"]
    assert spec["spec"]["component"] == ["sha"]  # declares the component context it reads
    assert all(entry.get("description") for entry in inputs.values())
    assert inputs["dry-run"] == {"type": "boolean", "default": False, "description": BY_KEBAB["dry-run"].description}
    assert inputs["timeout"]["type"] == "number" and inputs["timeout"]["default"] == 1800
    assert inputs["rules"]["type"] == "array"
    assert inputs["fail-on"]["options"] == ["never", "warning", "error"]
    assert inputs["integration-id"]["regex"] == "^[0-9]*$"
    (definition,) = job.values()
    assert definition["variables"]["DOCSVC_REF"] == "$[[ component.sha ]]"
    assert inputs["source"]["default"] == "$CI_SERVER_URL/docsvc/docsvc-action.git"
    assert inputs["package"]["default"] == ""  # nothing named on an index unless the user says so
    install = definition["script"][1]
    assert install.endswith('"${DOCSVC_PACKAGE:-git+$DOCSVC_SOURCE@$DOCSVC_REF}"')
    assert definition["cache"] == [{"key": "docsvc-pip", "paths": [".cache/pip"]}]
    assert definition["variables"]["PIP_CACHE_DIR"] == "$CI_PROJECT_DIR/.cache/pip"


def test_the_gitlab_local_include_pins_the_version_that_rendered_it():
    """GitLab gives `component.sha` only to `include: component:`; the file `ci init` writes for
    `include: local:` (or `remote:`) must not name it, and installs the rendering version's tag."""
    from docsvc import __version__

    text = render_kind("gitlab")["templates/docsvc.yml"]
    assert "$[[ component" not in text  # GitLab stops on any use of the component context
    spec, job = list(yaml.safe_load_all(text))
    assert "component" not in spec["spec"]
    (definition,) = job.values()
    assert definition["variables"]["DOCSVC_REF"] == f"v{__version__}"
    assert spec["spec"]["inputs"]["source"]["default"] == "https://github.com/docsvc/docsvc-action.git"
    assert definition["script"][1].endswith('"${DOCSVC_PACKAGE:-git+$DOCSVC_SOURCE@$DOCSVC_REF}"')


def test_the_action_gitlab_and_jenkins_install_one_set_of_pins():
    """One pinned set (docsvc/ci/requirements.txt, package data): the action installs it, the
    GitLab job (both forms) and the Jenkins step install docsvc with it as constraints."""
    pinned = pins()
    assert len(pinned) > 5 and all("==" in line for line in pinned)
    action = ACTION.read_text()
    assert action.count('"$GITHUB_ACTION_PATH/docsvc/ci/requirements.txt"') == 2  # cache key and install
    assert '--requirement "$GITHUB_ACTION_PATH/docsvc/ci/requirements.txt"' in action
    for text in (render_component(), render_kind("gitlab")["templates/docsvc.yml"]):
        _, job = list(yaml.safe_load_all(text))
        (definition,) = job.values()
        assert definition["variables"]["DOCSVC_CONSTRAINTS"].splitlines() == pinned
        write, install = definition["script"][:2]
        assert write == "printf '%s\\n' \"$DOCSVC_CONSTRAINTS\" > \"${TMPDIR:-/tmp}/docsvc-constraints.txt\""
        assert '--constraint "${TMPDIR:-/tmp}/docsvc-constraints.txt"' in install
    step = render_kind("jenkins")["vars/docsvc.groovy"]
    held = re.search(r"DOCSVC_CONSTRAINTS = '{3}(.*?)'{3}", step, re.DOTALL).group(1)
    assert held.splitlines() == pinned
    assert "writeFile(file: constraints, text: DOCSVC_CONSTRAINTS)" in step
    assert step.count('--constraint "$DOCSVC_CONSTRAINTS_FILE"') == 1
    assert step.count('--constraint "%DOCSVC_CONSTRAINTS_FILE%"') == 1


def test_gitlab_optional_booleans_can_stay_unset():
    """A boolean without a default (validate's stages) is a third state, "unset": GitLab's
    ``type: boolean`` would default it to false and switch every stage off."""
    spec, _ = list(yaml.safe_load_all(render_kind("gitlab")["templates/docsvc.yml"]))
    inputs = spec["spec"]["inputs"]
    for name in ("run-swagger", "run-redocly", "run-ai-fix", "run-ai-content"):
        assert BY_KEBAB[name].kind == "bool" and BY_KEBAB[name].default is None
        assert inputs[name] == {"type": "string", "default": "", "options": ["", "true", "false"],
                                "description": BY_KEBAB[name].description}
    for i in INPUTS:  # a boolean with a default stays a GitLab boolean
        if i.kind == "bool" and i.default is not None:
            assert inputs[i.kebab]["type"] == "boolean" and inputs[i.kebab]["default"] is i.default


def _interpolated(value) -> str:
    """What ``"$[[ inputs.NAME ]]"`` becomes in a variable: GitLab writes booleans as true/false."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def test_the_gitlab_components_defaults_send_validate_unset_stages():
    """With every input at its default, the job's variables give validate no stage flag, so the
    service uses the saved configuration (not four stages off: "every stage is off")."""
    from docsvc.ci.context import CiContext
    from docsvc.ci.operations import plan_validate
    from docsvc.ci.settings import CiSettings

    spec, job = list(yaml.safe_load_all(render_kind("gitlab")["templates/docsvc.yml"]))
    defaults = {name: entry.get("default") for name, entry in spec["spec"]["inputs"].items()}
    (definition,) = job.values()
    env = {}
    for variable, value in definition["variables"].items():
        found = re.fullmatch(r"\$\[\[ inputs\.([\w-]+) \]\]", str(value))
        if found and found.group(1) in BY_KEBAB:
            env[variable] = _interpolated(defaults[found.group(1)])
    assert env["DOCSVC_RUN_SWAGGER"] == ""
    settings = CiSettings.resolve("validate", {}, env)
    assert [settings.run_swagger, settings.run_redocly, settings.run_ai_fix, settings.run_ai_content] == [None] * 4
    plan = plan_validate(settings, CiContext(provider="gitlab"))
    assert plan.body == {}
    chosen = CiSettings.resolve("validate", {}, {**env, "DOCSVC_RUN_SWAGGER": "true", "DOCSVC_RUN_AI_FIX": "false"})
    assert plan_validate(chosen, CiContext(provider="gitlab")).body == {"run_swagger": True, "run_ai_fix": False}


def test_the_include_ci_init_writes_uses_the_component_it_writes_beside_it():
    """What ci init writes works as written in a fresh repository: no catalog project to publish first."""
    from docsvc import __version__

    written = render_kind("gitlab")
    include = yaml.safe_load(written[".gitlab-ci.docsvc.yml"])["include"]
    assert {entry["local"] for entry in include} == {"templates/docsvc.yml"} and "templates/docsvc.yml" in written
    assert f"component: $CI_SERVER_FQDN/docsvc/docsvc-action/docsvc@{__version__}" in written[".gitlab-ci.docsvc.yml"]


@pytest.mark.parametrize("kind", ["gitlab", "jenkins"])
def test_the_ci_page_names_the_files_ci_init_writes(kind):
    """docs/ci/KIND.md's paragraph on `docsvc ci init KIND` names each file as it is written."""
    page = (ROOT / "docs" / "ci" / f"{kind}.md").read_text(encoding="utf-8")
    paragraph = next(p for p in page.split("\n\n") if f"`docsvc ci init {kind}` writes" in p)
    named = set(re.findall(r"`([^`]+)`", paragraph))
    assert set(render_kind(kind)) <= named, (set(render_kind(kind)) - named, paragraph)


def test_action_requirements_pin_every_dependency_of_the_package():
    """The CI integrations install docsvc/ci/requirements.txt: each of pyproject's dependencies
    must be pinned there to a version its specifier accepts."""
    try:
        import tomllib
    except ImportError:  # Python 3.10: the server extra brings tomli
        import tomli as tomllib
    from packaging.requirements import Requirement

    pinned = {}
    for line in pins():
        requirement = Requirement(line)
        (spec,) = requirement.specifier
        assert spec.operator == "==", line
        pinned[requirement.name.lower().replace("_", "-")] = spec.version
    for text in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]:
        requirement = Requirement(text)
        name = requirement.name.lower().replace("_", "-")
        assert name in pinned, f"{name} is not pinned in docsvc/ci/requirements.txt"
        assert requirement.specifier.contains(pinned[name]), f"{name}=={pinned[name]} does not satisfy {text}"


def test_every_third_party_action_is_pinned_by_a_full_sha_with_its_version():
    sources = [ACTION, *(ROOT / ".github" / "workflows").glob("*.yml"),
               EXAMPLES / "github" / ".github" / "workflows" / "docsvc.yml"]
    for source in sources:
        for line in source.read_text().splitlines():
            found = re.search(r"uses: ([\w./-]+)@(\S+)(.*)", line)
            if found and not found.group(1).startswith("docsvc/"):
                assert re.fullmatch(r"[0-9a-f]{40}", found.group(2)), f"{source.name}: {line.strip()}"
                assert re.fullmatch(r" # v\d+\.\d+\.\d+", found.group(3)), f"{source.name}: {line.strip()}"


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


@pytest.mark.parametrize("option, value", [
    ("--spec-file", "a.yaml\n    evil: true"),  # a new YAML key
    ("--spec-file", "a.yaml # comment"),
    ("--spec-file", "/etc/openapi.yaml"),
    ("--spec-file", "../outside/openapi.yaml"),
    ("--screenshots-dir", "shots: {x: 1}"),
    ("--credentials-id", "a'); sh('id"),  # out of the Groovy string
    ("--job-name", "docsvc\nscript: [id]"),
    ("--action", "docsvc/docsvc-action@v1\n      with: {x: 1}"),
    ("--action", "not an action"),
])
def test_ci_init_refuses_a_value_that_could_leave_its_place_in_the_file(tmp_path, option, value):
    """Option values are written into YAML, Groovy strings, comments and HTML as they are: each is
    held to its kind of name, so none can add a key, end a string or run a command."""
    done = run_cli("ci", "init", "jenkins" if option == "--credentials-id" else "github", "--dir", str(tmp_path),
                   option, value, key=None, base_url=None)
    assert done.returncode == 2 and done.stderr.startswith(f"Error: {option}: ") and done.stderr.count("\n") == 1
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("option, value", [
    ("--spec-file", "api/v2/openapi.yaml"), ("--screenshots-dir", "e2e/shots/"), ("--action", "./.github/actions/docsvc"),
    ("--action", "acme/docsvc-action@0123456789abcdef0123456789abcdef01234567"), ("--credentials-id", "docsvc.key-2"),
])
def test_ci_init_takes_the_names_people_use(tmp_path, option, value):
    done = run_cli("ci", "init", "github", "--dir", str(tmp_path), option, value, key=None, base_url=None)
    assert done.returncode == 0, done.stderr
    assert value in (tmp_path / ".github" / "workflows" / "docsvc.yml").read_text() or option == "--credentials-id"


def test_jenkins_step_leaves_null_arguments_unset_and_joins_lists_with_commas(tmp_path):
    """Under Debian's groovy (scripts/setup-ci-tools installs it) with the pipeline steps stubbed:
    prTitle: env.UNSET must not become "null", to: ['docs', 'source'] must not become "[docs, source]"."""
    import os
    import shutil

    from docsvc.ci.settings import CiSettings

    groovy = shutil.which("groovy")
    if groovy is None:
        if os.environ.get("CI"):
            pytest.fail("groovy is missing: scripts/setup-ci-tools installs it")
        pytest.skip("groovy is not installed (scripts/setup-ci-tools installs it)")
    step = tmp_path / "vars" / "docsvc.groovy"
    step.parent.mkdir()
    step.write_text(render_kind("jenkins")["vars/docsvc.groovy"])
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "JAVA_HOME", "LANG")}
    if not os.path.exists("/usr/lib/jvm/default-java"):
        env.setdefault("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    done = subprocess.run([groovy, str(ROOT / "tests" / "ci" / "groovy" / "DocsvcArgumentsTest.groovy"), str(step)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "4 passed, 0 failed", done.stdout
    # what the step sends, the settings read as the list it was
    assert CiSettings.resolve("api-scan-pr", {}, {"DOCSVC_TO": "docs,source", "DOCSVC_SCAN_ID": "7"}).to == \
        ("docs", "source")
