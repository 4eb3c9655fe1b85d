"""The Helm chart (deploy/helm/docsvc-server) rendered by Helm itself: helm-python-sdk carries
Helm 4's Go SDK as a shared library (the same engine, Sprig functions, ``fail`` and schema check as
``helm template``), and kubernetes-validate checks every rendered manifest against Kubernetes' own
schemas. The defaults, a scaled-out set (2 replicas, PostgreSQL, ReadWriteMany) and an existing
Secret render; settings that cannot work together stop with one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

helm = pytest.importorskip("helm_python", reason="helm-python-sdk comes with the dev extra (scripts/setup)")
kubernetes_validate = pytest.importorskip("kubernetes_validate")

CHART = Path(__file__).resolve().parents[2] / "deploy" / "helm" / "docsvc-server"
KUBERNETES = "1.30.0"
PASSWORD = "s3cret-pw"
SCALED = {"replicaCount": 2, "database": {"kind": "postgresql"},
          "secrets": {"databaseUrl": f"postgresql://docsvc:{PASSWORD}@db:5432/docsvc"},
          "persistence": {"accessMode": "ReadWriteMany"}}


def render(values: dict | None = None) -> dict[str, dict]:
    """kind -> the one manifest of that kind (each kind appears at most once in this chart, but for
    the job workers' Deployment: "Deployment/worker")."""
    with helm.Chart.load(CHART) as chart:
        files = chart.render(values or {}, name="docs", namespace="docs", is_install=True)
    manifests = {}
    for text in files.values():
        for doc in yaml.safe_load_all(text):
            if doc:
                kind = doc["kind"] + ("/worker" if doc["metadata"]["name"].endswith("-worker") else "")
                assert kind not in manifests, kind
                manifests[kind] = doc
    for doc in manifests.values():  # Kubernetes' own schemas, no unknown field allowed
        kubernetes_validate.validate(doc, KUBERNETES, strict=True)
    return manifests


def render_error(values: dict) -> str:
    with helm.Chart.load(CHART) as chart, pytest.raises(helm.HelmError) as failure:
        chart.render(values, name="docs", namespace="docs", is_install=True)
    return str(failure.value)


def container(manifest: dict) -> dict:
    (only,) = manifest["spec"]["template"]["spec"]["containers"]
    return only


def env(manifest: dict) -> dict[str, dict]:
    return {e["name"]: e for e in container(manifest)["env"]}


def test_lint_finds_no_error():
    report = helm.lint(CHART, strict=True, kube_version=f"v{KUBERNETES}")
    assert report["errors"] == []
    assert [m for m in report["messages"] if m["severity"] >= 2] == []


def test_the_defaults_run_one_hardened_replica_on_sqlite():
    manifests = render()
    assert set(manifests) == {"Deployment", "Service", "PersistentVolumeClaim"}  # no Secret, no Job: nothing to hold
    deployment = manifests["Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    server = container(deployment)
    assert deployment["spec"]["replicas"] == 1 and deployment["spec"]["strategy"] == {"type": "Recreate"}
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    assert pod["automountServiceAccountToken"] is False
    assert server["securityContext"] == {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                                         "capabilities": {"drop": ["ALL"]}}
    mounts = {m["mountPath"]: m["name"] for m in server["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]] and "persistentVolumeClaim" in volumes[mounts["/data"]]
    assert server["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert server["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert env(deployment)["DOCSVC_SERVER_DATABASE_URL"]["value"] == "sqlite:////data/docsvc.db"
    assert manifests["PersistentVolumeClaim"]["spec"]["accessModes"] == ["ReadWriteOnce"]


def test_scaled_out_on_postgresql_with_secrets_in_a_secret_and_a_migration_hook():
    manifests = render(SCALED)
    assert set(manifests) == {"Deployment", "Service", "PersistentVolumeClaim", "Secret", "Job"}
    deployment, job, secret = manifests["Deployment"], manifests["Job"], manifests["Secret"]
    assert deployment["spec"]["replicas"] == 2 and "strategy" not in deployment["spec"]
    assert manifests["PersistentVolumeClaim"]["spec"]["accessModes"] == ["ReadWriteMany"]
    # The password lives in the Secret only; the pods and the Job read it by reference.
    assert secret["stringData"]["database-url"].endswith("@db:5432/docsvc")
    for workload in (deployment, job):
        assert PASSWORD not in yaml.safe_dump(workload)
        assert env(workload)["DOCSVC_SERVER_DATABASE_URL"]["valueFrom"]["secretKeyRef"] == {
            "name": secret["metadata"]["name"], "key": "database-url"}
    # Migrations once, before the new replicas start; the Secret before the Job that reads it.
    assert container(job)["args"] == ["docsvc-server", "migrate"]
    hooks = {kind: manifests[kind]["metadata"]["annotations"] for kind in ("Job", "Secret")}
    assert hooks["Job"]["helm.sh/hook"] == hooks["Secret"]["helm.sh/hook"] == "pre-install,pre-upgrade"
    assert int(hooks["Secret"]["helm.sh/hook-weight"]) < int(hooks["Job"]["helm.sh/hook-weight"])
    assert container(job)["securityContext"]["readOnlyRootFilesystem"] is True


def test_an_existing_secret_is_used_and_none_is_made():
    values = {**SCALED, "secrets": {"existingSecret": "docsvc-prod"}}
    manifests = render(values)
    assert "Secret" not in manifests
    assert env(manifests["Deployment"])["DOCSVC_SERVER_DATABASE_URL"]["valueFrom"]["secretKeyRef"]["name"] == \
        "docsvc-prod"


def test_job_workers_get_a_deployment_of_their_own_and_the_api_runs_no_job():
    manifests = render({**SCALED, "replicaCount": 1, "worker": {"replicaCount": 3}})
    api, workers = manifests["Deployment"], manifests["Deployment/worker"]
    assert workers["spec"]["replicas"] == 3 and api["spec"]["replicas"] == 1
    assert container(workers)["args"] == ["docsvc-server", "worker"]
    assert container(api)["args"][-2:] == ["--job-workers", "0"]
    # Neither the API's Deployment nor its Service selects a worker pod (they serve no port).
    worker_labels = workers["spec"]["template"]["metadata"]["labels"]
    for selector in (api["spec"]["selector"]["matchLabels"], manifests["Service"]["spec"]["selector"]):
        assert not selector.items() <= worker_labels.items()
    assert workers["spec"]["selector"]["matchLabels"].items() <= worker_labels.items()
    assert env(workers)["DOCSVC_SERVER_DATABASE_URL"] == env(api)["DOCSVC_SERVER_DATABASE_URL"]
    assert PASSWORD not in yaml.safe_dump(workers)
    assert container(workers)["securityContext"]["readOnlyRootFilesystem"] is True
    mounts = {m["mountPath"] for m in container(workers)["volumeMounts"]}
    assert {"/data", "/tmp", "/dev/shm"} <= mounts


def test_without_workers_the_api_runs_the_jobs():
    api = render(SCALED)["Deployment"]
    assert "--job-workers" not in container(api)["args"]
    assert "Deployment/worker" not in render(SCALED)


@pytest.mark.parametrize("values, message", [
    ({"replicaCount": 2}, "replicaCount=2 needs database.kind=postgresql"),
    ({"worker": {"replicaCount": 1}}, "worker.replicaCount=1 needs database.kind=postgresql"),
    ({**SCALED, "replicaCount": 1, "persistence": {"accessMode": "ReadWriteOnce"}, "worker": {"replicaCount": 2}},
     "worker.replicaCount=2 needs persistence.enabled=true and persistence.accessMode=ReadWriteMany"),
    ({**SCALED, "persistence": {"accessMode": "ReadWriteOnce"}},
     "replicaCount=2 needs persistence.enabled=true and persistence.accessMode=ReadWriteMany"),
    ({"database": {"kind": "postgresql"}}, "database.kind=postgresql needs its URL"),
])
def test_settings_that_cannot_work_together_fail_with_one_line(values, message):
    assert message in render_error(values)


@pytest.mark.parametrize("values, where", [
    ({"replicaCount": "two"}, "/replicaCount"),
    ({"database": {"kind": "mysql"}}, "/database/kind"),
    ({"persistence": {"accessMode": "ReadWriteSometimes"}}, "/persistence/accessMode"),
    ({"replicas": 2}, "additional properties 'replicas' not allowed"),
    ({"worker": {"replicaCount": -1}}, "/worker/replicaCount"),
])
def test_the_values_schema_names_a_bad_value(values, where):
    assert where in render_error(values)


# The settings the guides name (webhooks.md's public URL, the service's local repositories and
# egress, a code host token) reach the API and the worker pods alike.
TOKEN = {"name": "GITHUB_TOKEN", "valueFrom": {"secretKeyRef": {"name": "docsvc-tokens", "key": "github"}}}
GUIDES = {**SCALED, "replicaCount": 1, "worker": {"replicaCount": 2},
          "settings": {"publicUrl": "https://docs.example.com", "egressAllow": "gitlab.internal:443"},
          "extraEnv": [TOKEN, {"name": "HTTPS_PROXY", "value": "http://proxy:3128"}]}


def test_the_settings_the_guides_name_reach_the_api_and_the_workers():
    manifests = render(GUIDES)
    for workload in (manifests["Deployment"], manifests["Deployment/worker"], manifests["Job"]):
        variables = env(workload)
        assert variables["DOCSVC_SERVER_PUBLIC_URL"]["value"] == "https://docs.example.com"
        assert variables["DOCSVC_SERVER_EGRESS_ALLOW"]["value"] == "gitlab.internal:443"
        assert variables["DOCSVC_SERVER_ALLOW_LOCAL_REPOS"]["value"] == "0"
        assert variables["GITHUB_TOKEN"] == TOKEN and variables["HTTPS_PROXY"]["value"] == "http://proxy:3128"


def test_a_shared_service_takes_no_local_repository_unless_told():
    assert env(render()["Deployment"])["DOCSVC_SERVER_ALLOW_LOCAL_REPOS"]["value"] == "0"
    on = render({"settings": {"allowLocalRepos": True}})["Deployment"]
    assert env(on)["DOCSVC_SERVER_ALLOW_LOCAL_REPOS"]["value"] == "1"


@pytest.mark.parametrize("extra, message", [
    ([{"name": "DOCSVC_SERVER_PUBLIC_URL", "value": "https://x"}], "extraEnv sets DOCSVC_SERVER_PUBLIC_URL, which"),
    ([{"name": "DOCSVC_SERVER_DATABASE_URL", "value": "sqlite:///x"}], "extraEnv sets DOCSVC_SERVER_DATABASE_URL"),
    ([TOKEN, {**TOKEN, "valueFrom": {"secretKeyRef": {"name": "other", "key": "k"}}}], "extraEnv sets GITHUB_TOKEN"),
])
def test_a_variable_set_twice_fails_with_one_line(extra, message):
    assert message in render_error({"extraEnv": extra})


@pytest.mark.parametrize("values, where", [
    ({"settings": {"jobWorkers": 0}}, "/settings/jobWorkers"),  # worker pods exit 2 on it; API pods run no job
    ({**SCALED, "worker": {"replicaCount": 1}, "settings": {"jobWorkers": 0}}, "/settings/jobWorkers"),
    ({"settings": {"jobWorkers": 65}}, "/settings/jobWorkers"),
    ({"settings": {"publicUrl": "docs.example.com"}}, "/settings/publicUrl"),
    ({"settings": {"publicUrl": "https://user:pw@docs.example.com"}}, "/settings/publicUrl"),
    ({"settings": {"allowLocalRepos": "yes"}}, "/settings/allowLocalRepos"),
    ({"extraEnv": [{"value": "x"}]}, "/extraEnv/0"),
    ({"extraEnv": [{**TOKEN, "value": "x"}]}, "/extraEnv/0"),
    ({"extraEnv": [{"name": "A", "valueFrom": {"secretRef": {"name": "s"}}}]}, "/extraEnv/0/valueFrom"),
])
def test_the_values_schema_refuses_settings_that_cannot_work(values, where):
    assert where in render_error(values)


def test_the_schema_bounds_the_settings_as_the_service_does():
    import json

    from docsvc.server.settings import MAX_BODY_MB, MAX_JOB_WORKERS

    settings = json.loads((CHART / "values.schema.json").read_text())["properties"]["settings"]["properties"]
    assert settings["jobWorkers"]["maximum"] == MAX_JOB_WORKERS and settings["maxBodyMb"]["maximum"] == MAX_BODY_MB
