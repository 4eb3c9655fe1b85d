"""Repository links: the docs' links to the project's own repository on its code host
(``https://github.com/httpie/httpie/issues``, ``git clone https://github.com/o/app.git``).

Carries: the repository moved (a ``repository`` fact: the old address → the new one, or the links'
old branch → the new one, ``host/owner/name@main``, read from the manifests, ``repository``). Every
link to the old address (into the old branch) leads to the new one, the rest of the link
(``/blob/master/LICENSE``) as it was; an address that only starts alike (``github.com/o/app-plugins``)
is another repository and stays.
"""

from __future__ import annotations

from ..facts_model import Fact
from ..repository import linked, relinked
from .base import Page, Structure
from .common import restate

__all__ = ["RepositoryLinks"]


class RepositoryLinks(Structure):
    name = "repository links"
    carries = "the project's repository moved: the links to its old address lead to the new one"

    def takes(self, fact: Fact) -> bool:
        return fact.kind == "repository" and fact.change == "renamed" and bool(fact.old)

    def write(self, fact: Fact, page: Page) -> bool:
        return restate(page, linked("\n".join(page.lines), fact.old), lambda line: relinked(line, fact.old, fact.name),
                       f"links to {fact.old} now lead to {fact.name} [rule: repository address moved]")
