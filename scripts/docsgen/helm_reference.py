"""The Helm chart's page: its README (``deploy/helm/docsvc-server/README.md``: the commands and what
the chart refuses), then the parameters of its ``values.yaml`` converted by docsvc's own Helm
converter (``engines/convert``, what ``docsvc convert values.yaml -t helm --target md`` runs)."""

from __future__ import annotations

from pathlib import Path

CHART = Path(__file__).resolve().parents[2] / "deploy" / "helm" / "docsvc-server"


def page() -> str:
    from docsvc.server.engines.convert import convert

    readme = (CHART / "README.md").read_text(encoding="utf-8").split("\n", 1)[1]  # its own title goes
    conversion = convert("helm", (CHART / "values.yaml").read_text(encoding="utf-8"), "md")
    # The converter's page starts at level 1; here it is one section of the chart's page.
    parameters = "\n".join("#" + line if line.startswith("#") else line
                           for line in conversion.document.splitlines())
    return f"# Helm chart\n{readme}\n{parameters}\n"
