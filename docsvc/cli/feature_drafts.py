"""``docsvc feature-drafts`` (create, show) and the Feature Author commands under ``docsvc items``:
``items release-notes feature-drafts`` and the draft half of ``items approve``."""

from __future__ import annotations

import click

from .context import client, read_text_input
from .items import items
from .output import emit, json_option, status
from .examples import examples
from .progress import timeout_option, wait_for_job
from .params import ID

RN_SECTIONS = ("feature", "enhancement", "bug", "known-issue", "developer")
NOTES = click.Choice(["include", "skip"])
SECTION = click.Choice(RN_SECTIONS)


def editor_lines(passed: bool, comments, reviewed: bool = True) -> list[str]:
    """The Editor's verdict: passed, or each comment as path:line: message (check); not ``reviewed``
    while the draft has no page yet."""
    if passed:
        return ["Editor: passed"]
    if not reviewed:
        return ["Editor: not reviewed yet (the draft has no page yet)"]
    lines = [f"Editor: not passed, {len(comments)} comment(s):"]
    for c in comments:
        get = c.get if isinstance(c, dict) else lambda k, c=c: getattr(c, k, None)
        lines.append(f"  {get('path')}:{get('line')}: {get('message')} ({get('check')})")
    return lines


def decision_lines(d) -> list[str]:
    """A release-notes decision or suggestion, saying which it is."""
    extra = d.model_extra or {}
    release = extra.get("release_name") or d.release_id
    release_line = f"  release: {release if release is not None else 'none (needed to include it)'}"
    if d.source != "decision" and d.release_notes is None:  # the Editor has not reviewed a page yet
        return ["Release notes: no decision recorded yet, and no suggestion from the Editor yet", release_line]
    which = "the recorded decision" if d.source == "decision" else "the Editor's suggestion; no decision recorded yet"
    lines = [f"Release notes ({which}): {d.release_notes or 'none'}",
             f"  section: {d.rn_section or 'none'}", f"  category: {d.rn_category or 'none'}",
             f"  note: {d.rn_note or 'none'}", release_line]
    lines += [f"  rule: {rule}" for rule in extra.get("rules") or []]
    return lines


@examples(
    "docsvc feature-drafts create --title 'Bulk export' --brief-file brief.md",
    'docsvc feature-drafts show 5',
)
@click.group("feature-drafts")
def feature_drafts() -> None:
    """[addition] Feature Author drafts: a page drafted from a feature brief, reviewed by the Editor."""


@examples(
    "docsvc feature-drafts create --title 'Bulk export' --brief 'Export every report as CSV at once'",
    "docsvc feature-drafts create --title 'Bulk export' --brief-file brief.md --release 3",
)
@feature_drafts.command("create")
@click.option("--title", required=True, help="the feature's name (the page title)")
@click.option("--brief", default=None, help="the feature brief (free text or Markdown)")
@click.option("--brief-file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="read the brief from this file ('-' for stdin)")
@click.option("--release", "release_id", type=ID, default=None, help="release ID to tag it with")
@timeout_option("the draft is still made")
@json_option
def create(title, brief, brief_file, release_id, timeout, as_json) -> None:
    """[addition] Draft a page from a feature brief and have the Editor review it; waits.

    Wraps POST /feature-drafts, which the interface does not list. The rule-based Writer sorts
    the brief into overview, what you can do, how to use it, options and limitations; the Editor
    passes the page or lists its comments. Approve it with: docsvc items approve feature-drafts ID."""
    if (brief is None) == (brief_file is None):
        raise click.UsageError("give exactly one of --brief or --brief-file")
    text = brief if brief is not None else read_text_input(brief_file, "--brief-file")
    if not text.strip():
        raise click.BadParameter("the brief is empty", param_hint="--brief/--brief-file")
    if not title.strip():
        raise click.BadParameter("must not be empty", param_hint="--title")
    api = client()
    ref = api.feature_drafts.create(title=title, brief=text, release_id=release_id)
    status(f"Feature draft {title!r} queued (job {ref.job_id})")
    result = wait_for_job(api, ref, "feature-drafts create", timeout)

    def render(r) -> list[str]:
        lines = [f"Draft {r['item_id']}: {r['title']} ({r['path']})"]
        lines += editor_lines(r.get("editor_passed"), r.get("editor_comments") or [])
        s = r.get("release_notes_suggestion") or {}
        lines.append(f"Editor's release-notes suggestion: {s.get('release_notes') or 'none'}, "
                     f"section {s.get('rn_section') or 'none'}, category {s.get('rn_category') or 'none'}")
        lines.append(f"See it with: docsvc feature-drafts show {r['item_id']}")
        return lines

    emit(result, as_json, render)


@examples(
    'docsvc feature-drafts show 5',
    'docsvc feature-drafts show 5 --json',
)
@feature_drafts.command("show")
@click.argument("item_id", type=ID, metavar="ID")
@json_option
def show(item_id: int, as_json: bool) -> None:
    """[addition] Show a draft: its page, the Editor's verdict, release notes and sign-off."""
    draft = client().feature_drafts.get(item_id)

    def render(d) -> list[str]:
        lines = [f"Draft {d.id}: {d.title} [{d.work_status}]"]
        lines += editor_lines(d.editor.passed if d.editor else False, d.editor.comments if d.editor else [],
                              reviewed=d.page is not None)
        if d.release_notes is not None:
            lines += decision_lines(d.release_notes)
        s = d.sign_off
        lines.append(f"Signed off by {s.name} (user {s.user_id}) at {s.at}" if s else "Not signed off yet")
        if d.page is not None:
            lines += ["", d.page.rstrip("\n")]
        return lines

    emit(draft, as_json, render)


@examples(
    'docsvc items release-notes feature-drafts 5',
    "docsvc items release-notes feature-drafts 5 --notes include --section feature --note 'Export all reports at once'",
)
@items.command("release-notes")
@click.argument("tool", type=click.Choice(["feature-drafts"]))
@click.argument("item_id", type=ID, metavar="ID")
@click.option("--notes", type=NOTES, default=None, help="change the decision: include or skip")
@click.option("--section", type=SECTION, default=None)
@click.option("--category", default=None, help="one of your product categories, or Other")
@click.option("--note", default=None, help="the release-notes entry")
@click.option("--release", "release_id", type=ID, default=None,
              help="release ID, for a draft without one")
@json_option
def release_notes(tool, item_id, notes, section, category, note, release_id, as_json) -> None:
    """Without --notes, show a draft's release-notes decision or the Editor's suggestion (it says
    which). With --notes, change the decision, at any stage: an approved draft's queue entry follows."""
    api = client().feature_drafts
    if notes is None:
        given = [name for name, value in (("--section", section), ("--category", category), ("--note", note),
                                          ("--release", release_id)) if value is not None]
        if given:
            raise click.UsageError(f"{' and '.join(given)} {'changes' if len(given) == 1 else 'change'} the release-notes "
                                   "decision: give --notes include or --notes skip with it")
        decision = api.get_release_notes(item_id)
    else:
        decision = api.set_release_notes(item_id, release_notes=notes, rn_section=section, rn_category=category,
                                         rn_note=note, release_id=release_id)
    emit(decision, as_json, decision_lines)


def approve_draft(item_id: int, notes, section, category, note, as_json: bool) -> None:
    """``items approve feature-drafts ID``: sign off a draft the Editor passed."""
    from ..models.feature_drafts import FeatureDraft

    draft = FeatureDraft.model_validate(client().feature_drafts.approve(
        item_id, release_notes=notes, rn_section=section, rn_category=category, rn_note=note))

    def render(d) -> list[str]:
        s, rn = d.sign_off, d.release_notes
        lines = [f"Approved draft {d.id}: signed off by {s.name} at {s.at}; status {d.work_status}"]
        if rn.release_notes == "include":
            lines.append(f"Release notes: included in release {(rn.model_extra or {}).get('release_name')} "
                         f"({rn.rn_section}, {rn.rn_category}) with the Feature Author badge: {rn.rn_note}")
        else:
            lines.append("Release notes: skipped")
        return lines

    emit(draft, as_json, render)


def register(cli: click.Group) -> None:
    cli.add_command(feature_drafts)
