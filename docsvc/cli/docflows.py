"""``docsvc docflow`` and the Docflows review commands under ``docsvc items``."""

from __future__ import annotations

import os

import click

from ..images import split_route_pair
from .. import exit_codes
from .context import CliExit, client, settings
from .items import items
from .output import emit, json_option, say, status
from .examples import examples
from .progress import timeout_option, wait_for_job
from .feature_drafts import RN_SECTIONS
from .params import ID


def _screenshot_pair(ctx, param, values):
    pairs = {}
    for value in values:
        try:
            route, path = split_route_pair(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
        if not os.path.isfile(path):
            raise click.BadParameter(f"{path}: file not found")
        pairs[route] = path
    return pairs


@examples(
    "docsvc docflow --pr-number 42 --pr-title 'Add --retries' --pr-body 'Retries failed uploads' --pr-author ada",
    "docsvc docflow --pr-number 42 --pr-title 'New settings page' --pr-body 'See the UI' --pr-author ada --screenshot /settings=shots/settings.png --timeout 600",
    "docsvc docflow --pr-number 42 --pr-title Fix --pr-body '' --pr-author ada --json",
)
@click.command()
@click.option("--pr-number", type=ID, required=True)
@click.option("--pr-title", required=True)
@click.option("--pr-body", required=True)
@click.option("--pr-author", required=True)
@click.option("--pr-branch", default=None, help="head branch (needed when the preview URL pattern uses {branch})")
@click.option("--pr-sha", default=None, help="head commit (needed when the preview URL pattern uses {sha})")
@click.option("--screenshot", "screenshots", multiple=True, callback=_screenshot_pair, metavar="ROUTE=PATH",
              help="a screenshot taken in your CI, for the page at ROUTE (repeatable)")
@timeout_option("the suggestion goes on in the service")
@json_option
def docflow(pr_number, pr_title, pr_body, pr_author, pr_branch, pr_sha, screenshots, timeout, as_json) -> None:
    """Trigger a Docflows suggestion for a pull request, without the code-host webhook.

    Needs integration_id in ./docsvc.yaml. With --screenshot the service uses the uploaded
    images instead of taking its own."""
    api = client()  # first: without a key every command stops at once with the one message
    integration_id = settings().integration_id
    if integration_id is None:
        raise CliExit("docsvc.yaml: integration_id is missing (docsvc docflow reads it only from there)",
                      exit_codes.USAGE)
    pr = {"number": pr_number, "title": pr_title, "body": pr_body, "author": pr_author}
    if pr_branch:
        pr["head_branch"] = pr_branch
    if pr_sha:
        pr["head_sha"] = pr_sha
    ref = api.docflows.generate(integration_id=integration_id, pr_data=pr, screenshots=screenshots or None)
    status(f"Docflows suggestion for PR #{pr_number} queued (job {ref.job_id})")
    result = wait_for_job(api, ref, "docflow", timeout)
    for warning in result.get("warnings") or []:  # e.g. screenshots a dismissed suggestion did not take
        status(f"warning: {warning}")

    def render(r) -> list[str]:
        if not r.get("suggestion_id"):
            return [f"No documentation change needed for PR #{pr_number}:"] + [f"  {x}" for x in r.get("reasons", [])] \
                + _worth_a_look(r)
        made = f", made before for commit {str(r.get('head_sha') or '')[:12]}" if r.get("existing") else ""
        lines = [f"Suggestion {r['suggestion_id']} for PR #{pr_number}{made}: {len(r.get('files', []))} file(s) "
                 f"({'passed the Editor' if r.get('editor_passed') else 'with Editor comments'})"]
        if r.get("pages"):  # page by page, with why; a service without it lists the files
            lines += page_lines(r["pages"])
        else:
            lines += [f"  {path}" for path in r.get("files", [])]
        if r.get("screenshots_attached"):  # a suggestion made before takes the uploaded screenshots
            lines.append(f"Screenshots attached: {', '.join(r['screenshots_attached'])}")
        if r.get("open_points"):
            lines.append("For you to decide (not edited):")
            lines += [f"  {point}" for point in r["open_points"]]
        if not r.get("pages"):
            lines += _worth_a_look(r)
        lines.append(f"See it with: docsvc items diff docflows {r['suggestion_id']}")
        return lines

    emit(result, as_json, render)


MAX_LOOKS = 8  # weaker signs shown on a terminal; --json has them all
_HEADINGS = {"edited": "Edited:", "for review": "For review (planned, not edited):",
             "worth a look": "Worth a look (weaker signs, not edited):"}


def page_lines(pages: list) -> list[str]:
    """A suggestion page by page under its action's heading (edited, for review, worth a look),
    each with why: the first reason, then why it was not edited where it was not. At most
    ``MAX_LOOKS`` pages worth a look; --json has them all."""
    rows = [page if isinstance(page, dict) else page.model_dump() for page in pages]
    lines: list[str] = []
    for action in dict.fromkeys(row.get("action") or "worth a look" for row in rows):
        group = [row for row in rows if (row.get("action") or "worth a look") == action]
        lines.append(_HEADINGS.get(action, f"{action}:"))
        most = MAX_LOOKS if action == "worth a look" else len(group)
        for row in group[:most]:
            why = row.get("why") or []
            lines.append(f"  {row['path']}: {why[0]}" if why else f"  {row['path']}")
            lines += [f"    {reason}" for reason in why[1:] if reason.startswith("not edited")]
        if len(group) > most:
            lines.append(f"  … and {len(group) - most} more (--json lists them all)")
    return lines


def _worth_a_look(result: dict) -> list[str]:
    """The pages with weaker signs, the strongest first as the service ranks them (``page_lines``)."""
    return page_lines([{"path": look["path"], "action": "worth a look", "why": [look["reason"]]}
                       for look in result.get("worth_a_look") or []])


@examples(
    'docsvc items diff docflows 12',
    'docsvc items diff docflows 12 --stat',
)
@items.command("diff")
@click.argument("tool", type=click.Choice(["docflows"]))
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--stat", is_flag=True, help="files with added/removed lines, Reviewed marks and check findings")
@json_option  # the summary, with the diff's text under "diff" unless --stat
def diff(tool: str, item_id: int, stat: bool, as_json: bool) -> None:
    """Show a suggestion's unified diff against the docs repository (added lines green, removed red)."""
    api = client()
    if stat or as_json:
        summary = api.docflows.get(item_id)

        def render(s) -> list[str]:
            lines = []
            for f in s.files:
                mark = "✓" if f.reviewed else " "
                check = f"  [{f.last_check}]" if f.last_check else ""
                lines.append(f"{mark} {f.path}  +{f.added} -{f.removed}{check}")
            pr = s.pull_request
            lines.append(f"pull request: {pr.state} {pr.url}" if pr and pr.url else "pull request: none yet")
            return lines

        if as_json and not stat:  # the diff itself too: --stat is the summary alone
            emit({**summary.model_dump(mode="json"), "diff": api.docflows.get_diff(item_id)}, True, str)
            return
        emit(summary, as_json, render)
        return
    text = api.docflows.get_diff(item_id)
    for line in text.splitlines():
        added, removed = line.startswith("+") and not line.startswith("+++"), \
            line.startswith("-") and not line.startswith("---")
        say(line, colour="green" if added else "red" if removed else None)
    shots = api.docflows.get(item_id).screenshot_plan
    for shot in shots:
        say(f"screenshot: {shot.name or shot.route} ({'taken' if shot.taken else 'suggested'})")


DOCFLOWS = click.Choice(["docflows"])


@examples(
    'docsvc items dismiss docflows 12',
    'docsvc items dismiss docflows 12 --done --yes',
)
@items.command("dismiss")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--yes", is_flag=True, help="do not ask for confirmation")
@click.option("--done", is_flag=True, help="the docs already contain the change: status Done, release notes kept")
@json_option
def dismiss(tool: str, item_id: int, yes: bool, done: bool, as_json: bool) -> None:
    """Dismiss a suggestion: status Rejected, or Done with --done."""
    from .items import confirm, item_line
    from .output import columns

    api = client()  # the key first: without one, every command stops before it asks anything
    confirm("dismiss", f"Docflows suggestion {item_id}" + (" as done" if done else ""), yes)
    answer = api.docflows.dismiss(item_id, done=done)
    if as_json:
        emit(answer, True, str)
        return
    from ..models.items import Item

    item = Item.model_validate(answer)
    status(f"Dismissed Docflows suggestion {item_id}: {item.work_status}")
    say(columns([item_line(item)])[0])


@examples(
    'docsvc items history docflows 12',
    'docsvc items history docflows 12 --json',
)
@items.command("history")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="ID")
@json_option
def history(tool: str, item_id: int, as_json: bool) -> None:
    """Print the review history; rounds with kept text are marked [version N]."""
    rounds = client().docflows.history(item_id)

    def render(rs) -> list[str]:
        lines = []
        for r in rs:
            mark = f" [version {r.version}]" if r.version else ""
            who = f" by {r.author}" if r.author else ""
            lines.append(f"{r.stage}{who}: {r.summary}{mark}")
            extra = r.model_extra or {}
            for page in extra.get("pages") or []:
                lines.append(f"  {page['path']} ({page['mode']}, {page['confidence']}): {page['reasons'][0]}")
            for note in extra.get("notes") or []:
                lines.append(f"  {note}")
            for comment in extra.get("comments") or []:
                lines.append(f"  {comment['path']}:{comment['line']}: {comment['message']}")
        return lines

    emit(rounds, as_json, render)


@examples(
    'docsvc items restore docflows 12 2',
    'docsvc items restore docflows 12 1 --json',
)
@items.command("restore")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="ID")
@click.argument("version", type=ID, metavar="N")
@json_option
def restore(tool: str, item_id: int, version: int, as_json: bool) -> None:
    """Restore version N; the current text is kept as a new version."""
    answer = client().docflows.restore(item_id, version)
    emit(answer, as_json, lambda a: f"Restored version {a['restored']} of suggestion {item_id}; the text before "
                                    f"it is kept as version {a['kept_as']}")


@examples(
    'docsvc items approve docflows 12 --release 3',
    "docsvc items approve docflows 12 --new-release 'v2.4'",
    'docsvc items approve feature-drafts 5 --notes include --section feature',
)
@items.command("approve")
@click.argument("tool", type=click.Choice(["docflows", "feature-drafts"]))
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--release", "release_id", type=ID, default=None, help="release ID (docflows)")
@click.option("--new-release", default=None, metavar="NAME",
              help="a release by name, created when missing (docflows)")
@click.option("--writer", default=None, help="the assignee: a user ID or 'me' (docflows; default me)")
@click.option("--notes", type=click.Choice(["include", "skip"]), default=None,
              help="release-notes decision (default: the service's or the Editor's suggestion)")
@click.option("--section", type=click.Choice(RN_SECTIONS), default=None)
@click.option("--category", default=None, help="one of your product categories, or Other")
@click.option("--note", default=None, help="the release-notes entry")
@json_option
def approve(tool, item_id, release_id, new_release, writer, notes, section, category, note, as_json) -> None:
    """Approve a Docflows suggestion or a Feature Author draft.

    docflows: into a release (--release or --new-release); its docs change becomes a branch with a
    commit in the docs repository, and the pull request is recorded on the item.

    feature-drafts: needs the Editor's pass; records the release-notes decision (default: the
    Editor's suggestion) and your sign-off; an included draft joins its release's release-notes
    queue with the Feature Author badge (set the release with: docsvc items release-notes
    feature-drafts ID --notes include --release ID)."""
    if tool == "feature-drafts":
        given = [name for name, value in (("--release", release_id), ("--new-release", new_release),
                                          ("--writer", writer)) if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)} apply to docflows only; a draft's release is set with "
                                   "docsvc items release-notes feature-drafts ID --release ID")
        from .feature_drafts import approve_draft

        return approve_draft(item_id, notes, section, category, note, as_json)
    writer = writer or "me"
    if release_id is not None and new_release is not None:
        raise click.UsageError("give one of --release or --new-release, not both")
    if release_id is None and new_release is None:
        raise click.UsageError("a release is required: give --release ID or --new-release NAME")
    if writer != "me" and not writer.isdigit():
        raise click.BadParameter("expected a user ID or 'me'", param_hint="--writer")
    answer = client().docflows.approve(item_id, release_id=release_id, new_release_name=new_release,
                                       assignee_id="me" if writer == "me" else int(writer), release_notes=notes,
                                       rn_section=section, rn_category=category, rn_note=note)

    def render(a) -> str:
        extra = a.model_extra or {}
        pr = extra.get("pull_request") or {}
        return (f"Approved suggestion {item_id} into release {extra.get('release_name')}: branch {pr.get('branch')} "
                f"({pr.get('state')}, {pr.get('review')}) {pr.get('url')}; release notes: {extra.get('release_notes')}")

    emit(answer, as_json, render)


@examples(
    'docsvc items check docflows 12',
    'docsvc items check docflows --all --dismiss-done',
)
@items.command("check")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="[ID]", required=False)
@click.option("--all", "check_all", is_flag=True, help="every open suggestion")
@click.option("--dismiss-done", is_flag=True, help="dismiss as Done those already in the docs (never 'probably')")
@click.option("--no-ai", is_flag=True, help="text comparison only (free)")
@json_option
def check(tool, item_id, check_all, dismiss_done, no_ai, as_json) -> None:
    """Check suggestions against the docs repository: still needed, already in the docs (or
    probably, with a reason per file), or updated to fit changed docs; and the PR's state."""
    if (item_id is None) == (not check_all):
        raise click.UsageError("give a suggestion ID or --all")
    api = client()
    ai = False if no_ai else None
    if check_all:
        ref = api.docflows.check_many(dismiss_done=dismiss_done or None, ai=ai)
    elif dismiss_done:  # the one-suggestion endpoint takes no dismiss_done
        ref = api.docflows.check_many(ids=[item_id], dismiss_done=True, ai=ai)
    else:
        ref = api.docflows.check(item_id, ai=ai)
    result = wait_for_job(api, ref, "check")

    def render(result) -> list[str]:
        lines = []
        for s in result.get("suggestions", []):
            extra = " — dismissed as done" if s.get("dismissed") else ""
            lines.append(f"{s['id']}: {s['verdict']} (pull request {s['pr_state']}){extra}")
            for f in s.get("files", []):
                if f["finding"] != s["verdict"] or f["finding"].startswith("probably"):
                    lines.append(f"  {f['path']}: {f['finding']}: {f['reason']}")
        return lines or ["No open suggestions."]

    emit(result, as_json, render)


@examples(
    "docsvc items request-changes docflows 12 -m 'Mention the default of --retries'",
    "docsvc items request-changes docflows 12 -m 'Shorter, please' --file docs/cli.md",
)
@items.command("request-changes")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="ID")
@click.option("-m", "feedback", required=True, help='the feedback, e.g. replace "X" with "Y"; remove "Z"')
@click.option("--file", "target_file", default=None, help="limit the changes to this file")
@json_option
def request_changes(tool, item_id, feedback, target_file, as_json) -> None:
    """The Technical Writer revises on your feedback and the Editor reviews (8 credits)."""
    api = client()
    result = wait_for_job(api, api.docflows.request_changes(item_id, feedback, target_file=target_file),
                       "request-changes")

    def render(r) -> list[str]:
        lines = [f"applied: {a}" for a in r.get("applied", [])]
        lines += [f"could not apply: {n}" for n in r.get("not_applied", [])]
        if r.get("editor_passed"):
            lines.append("Editor: passed")
        else:
            lines.append("Editor issues:")
            lines += [f"  {c['path']}:{c['line']}: {c['message']}" for c in r.get("editor_comments", [])]
        return lines

    emit(result, as_json, render)


@examples(
    'docsvc items sync docflows 12',
    'docsvc items sync docflows 12 --json',
)
@items.command("sync")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="ID")
@json_option
def sync_latest(tool, item_id, as_json) -> None:
    """Sync Latest Code: add what the draft lacks from the pull request's newest code; waits
    (5 credits, 8 when there is an update for the Editor to review)."""
    api = client()
    result = wait_for_job(api, api.docflows.sync(item_id), "sync")

    def render(r) -> list[str]:
        if not r.get("new_commits"):
            return [f"Suggestion {item_id}: {r.get('detail')}"]
        lines = [f"Suggestion {item_id} synced to {str(r.get('head_sha'))[:12]} ({r.get('charged')} credits)"]
        lines += [f"  new: {a}" for a in r.get("added", [])]
        lines += [f"  updated: {p}" for p in r.get("updated_files", [])]
        lines += [f"  worth a look: {look['path']} — {look['reason']}" for look in r.get("worth_a_look", [])]
        return lines

    emit(result, as_json, render)


@examples(
    'docsvc items screenshots docflows 12',
    'docsvc items screenshots docflows 12 --take /settings',
)
@items.command("screenshots")
@click.argument("tool", type=DOCFLOWS)
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--take", "routes", multiple=True, metavar="ROUTE",
              help="take a screenshot of this route or preview address (repeatable); waits")
@json_option
def screenshots(tool, item_id, routes, as_json) -> None:
    """List planned screenshots: ✓ taken, ○ suggested, with the reason and any doc image replaced."""
    api = client()
    if routes:
        wait_for_job(api, api.docflows.take_screenshots(item_id, list(routes)), "screenshots")
    plan = api.docflows.get(item_id).screenshot_plan

    def render(entries) -> list[str]:
        lines = []
        for e in entries:
            mark = "✓" if e.taken else "○"
            replaces = f" (replaces {e.replaces})" if e.replaces else ""
            name = f" {e.name}" if e.name else ""
            lines.append(f"{mark} {e.route}{name}: {e.reason}{replaces}")
        return lines

    emit(plan, as_json, render, empty="No screenshots planned.")


def register(cli: click.Group) -> None:
    cli.add_command(docflow)
