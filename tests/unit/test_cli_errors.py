"""The one-line messages the CLI makes of client errors, and the next step each suggests."""

from __future__ import annotations

import pytest

from docsvc.cli.errors import to_cli_exit
from docsvc.client import NotFoundError

BASE_URL_HINT = "(is the base URL the service's address? see `docsvc config list`)"


@pytest.mark.parametrize("problem", [
    None,  # not problem+json: something other than the service answered
    {"title": "Not Found", "detail": "Not Found"},  # the service's answer for a route it does not have
])
def test_a_404_for_no_such_route_says_the_base_url_may_be_wrong(problem):
    cli_exit = to_cli_exit(NotFoundError(404, problem))
    assert cli_exit.exit_code == 1 and cli_exit.message.endswith(BASE_URL_HINT)


def test_a_404_for_an_unknown_record_says_only_that():
    cli_exit = to_cli_exit(NotFoundError(404, {"title": "Not Found", "detail": "Chat 999 not found"}))
    assert cli_exit.message == "Chat 999 not found"
