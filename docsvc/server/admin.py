"""``docsvc-server``: run and administer the local service.

Shape kept stable for scripts and tests (DESIGN.md): every command that creates something prints
the new id, or the new key, alone on the last line of stdout; status goes to stderr; the database
comes from ``--db URL`` or ``DOCSVC_SERVER_DATABASE_URL`` (default a SQLite file here).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Callable

import click

from .. import __version__
from ..endpoints import TOOLS
from .settings import MAX_JOB_WORKERS

DB_HELP = "database URL (default: $DOCSVC_SERVER_DATABASE_URL, else sqlite:///docsvc.db)"


def _status(message: str) -> None:
    click.echo(message, err=True)


class DatabaseURL(click.ParamType):
    """A database URL the service can use, checked when the command line is read: a bad one is
    one usage error (exit 2) naming its scheme, not SQLAlchemy's traceback from deep inside."""

    name = "url"

    def convert(self, value, param, ctx):
        from .db.session import BadDatabaseURL, check_url

        try:
            check_url(value)
        except BadDatabaseURL as exc:
            self.fail(str(exc), param, ctx)  # the message never holds the URL: it may hold a password
        return value


DATABASE_URL = DatabaseURL()


def db_integer(min_value: int = 1) -> click.IntRange:
    """An integer argument that the database stores (a record id, an amount): one beyond the
    service's integers (problems.MAX_ID) is a usage error here, not a DataError from the driver."""
    from .problems import MAX_ID

    return click.IntRange(min_value, MAX_ID)


class StoredText(click.ParamType):
    """Text an option stores: longer than ``limit()`` characters is a usage error naming the option
    and the limit, before anything is written (PostgreSQL would refuse it mid-write, SQLite store
    it). The limit is read when used, so --help imports no SQLAlchemy."""

    name = "text"

    def __init__(self, limit: Callable[[], int]) -> None:
        self.limit = limit

    def convert(self, value, param, ctx):
        most = self.limit()
        if len(value) > most:
            self.fail(f"at most {most} characters, got {len(value)}", param, ctx)
        return value


def column_text(column: str) -> StoredText:
    """Text stored in ``column`` (``"Class.attribute"`` of db.tables): at most the column's length."""

    def length() -> int:
        from .db import tables

        table, _, attribute = column.partition(".")
        return getattr(tables, table).__table__.c[attribute].type.length

    return StoredText(length)


def _title_limit() -> int:
    from .limits import MAX_TITLE

    return MAX_TITLE


TITLE = StoredText(_title_limit)  # an item's title: the API's own cap


def db_option(func):
    """``--db`` on every subcommand as well as on the group, so both spellings work."""

    @click.option("--db", "db_url", metavar="URL", type=DATABASE_URL, default=None, help=DB_HELP)
    @click.pass_context
    @functools.wraps(func)
    def wrapper(ctx: click.Context, db_url: str | None, *args, **kwargs):
        ctx.obj["db_url"] = db_url or ctx.obj.get("db_url")
        return func(*args, **kwargs)

    return wrapper


def _settings():
    from .settings import ServerSettings

    return ServerSettings.from_env(click.get_current_context().obj.get("db_url"))


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _prepare(settings) -> None:
    from .db.migrate import upgrade

    upgrade(settings.database_url)


def transaction(func):
    """Run the command in one migrated database session; admin errors become one line."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from sqlalchemy.exc import OperationalError

        from .db.session import MissingDriver, make_engine, make_sessionmaker, session_scope
        from .services.accounts import AdminError

        settings = _settings()
        _prepare_or_fail(settings)
        try:
            engine = make_engine(settings.database_url)
            try:
                with session_scope(make_sessionmaker(engine)) as session:
                    return func(session, settings, *args, **kwargs)
            finally:
                engine.dispose()
        except (AdminError, MissingDriver) as exc:
            raise click.ClickException(str(exc)) from None
        except OperationalError as exc:  # the connection lost, the database locked, ...
            raise _unusable(settings, exc) from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="docsvc-server")
@click.option("--db", "db_url", metavar="URL", envvar="DOCSVC_SERVER_DATABASE_URL", type=DATABASE_URL, default=None,
              help=DB_HELP)
@click.pass_context
def main(ctx: click.Context, db_url: str | None) -> None:
    """Run and administer the docsvc local service (a self-hostable implementation of the API)."""
    ctx.ensure_object(dict)
    ctx.obj["db_url"] = db_url


@main.command()
@click.option("--org", required=True, type=column_text("Organization.name"), help="name of the new organisation")
@click.option("--admin-email", required=True, type=column_text("User.email"),
              help="email of its first System Administrator")
@click.option("--admin-name", default=None, type=column_text("User.name"), help="display name of that administrator")
@db_option
@transaction
def init(session, settings, org: str, admin_email: str, admin_name: str | None) -> None:
    """Create an organisation with its first System Administrator; prints the admin's API key.

    Run it again for another organisation. The key is shown only this once."""
    from .services.accounts import add_user, create_key, create_org

    organisation = create_org(session, org)
    admin = add_user(session, organisation, admin_email, "admin", admin_name)
    _, key = create_key(session, admin, "initial admin key")
    _status(f"organisation {organisation.name!r} (id {organisation.id}) with admin {admin.email} "
            f"(user id {admin.id}); the API key below is shown only once")
    click.echo(key)


LOG_LEVEL = click.option("--log-level", default="info", show_default=True,
                         type=click.Choice(["critical", "error", "warning", "info", "debug"]))
JOB_WORKERS_HELP = "job worker threads in each process (default: $DOCSVC_SERVER_JOB_WORKERS, else 2)"


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="API processes sharing the port (the job workers stay in their one process beside them; "
                   "with --jobs-in-process each API process has its own)")
@click.option("--job-workers", type=click.IntRange(0, MAX_JOB_WORKERS), default=None,
              help=JOB_WORKERS_HELP + "; 0 leaves every job to `docsvc-server worker` processes")
@click.option("--jobs-apart/--jobs-in-process", default=True, show_default=True,
              help="where the job workers run: in a process of their own (a `docsvc-server worker` child at a "
                   "lower CPU priority, started again if it ends, stopped with the service), so jobs never slow "
                   "the API's answers; or in the API's process (--jobs-in-process: one process, jobs and "
                   "requests share its CPU time)")
@LOG_LEVEL
@db_option
def run(host: str, port: int, workers: int, job_workers: int | None, jobs_apart: bool, log_level: str) -> None:
    """Serve the API at http://HOST:PORT/api/v1 with its job workers.

    The job workers run in a child process by default (--jobs-in-process keeps them in the API's
    process, or in each of its processes with --workers N). Ctrl-C or SIGTERM stops both: running
    jobs go back to the queue and run again at the next start."""
    settings = _settings()
    if job_workers is not None:
        settings = settings.with_(job_workers=job_workers)
    try:
        _serve(settings, host, port, log_level, processes=workers, jobs_apart=jobs_apart and settings.job_workers > 0)
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once all is stopped: no "Aborted!"
        raise SystemExit(130) from None


@main.command()
@click.option("--job-workers", type=click.IntRange(1, MAX_JOB_WORKERS), default=None, help=JOB_WORKERS_HELP)
@click.option("--parent-pid", type=int, default=None, hidden=True)  # run's child: dies with it
@LOG_LEVEL
@db_option
def worker(job_workers: int | None, parent_pid: int | None, log_level: str) -> None:
    """Run job workers only, no API, until stopped (SIGTERM, Ctrl-C).

    Scaled apart from `run`, which can leave every job to these (`run --job-workers 0`): heavy jobs
    then never slow the API's answers. Any number of them share the database with `run`
    processes; a job runs once (claims, leases and heartbeats in the database)."""
    if parent_pid is not None:  # run's child: first of all, make sure it never outlives run
        from .parent_watch import die_with

        die_with(parent_pid)
    settings = _settings()
    if job_workers is not None:
        settings = settings.with_(job_workers=job_workers)
    if settings.job_workers < 1:
        raise _BadInput("a worker needs at least one job worker: DOCSVC_SERVER_JOB_WORKERS is 0 "
                        "(pass --job-workers N)")
    _start_logging(log_level)
    if parent_pid is None:  # run's child finds the database migrated by run
        _prepare_or_fail(settings)
    from .jobrunner import serve_jobs

    serve_jobs(settings, on_started=None if parent_pid else lambda: _status(
        f"docsvc job workers ({settings.job_workers}) {__version__} on the database "
        f"{_safe_url(settings.database_url)}, no API"))


class _BadInput(click.ClickException):
    """One ``Error:`` line and exit 2 (bad input, DESIGN.md's exit codes), without click's usage
    text: for input that parsed well but cannot be used."""

    exit_code = 2


def _start_logging(log_level: str) -> None:
    import logging

    level = getattr(logging, log_level.upper())
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    # Alembic announces each of its plugins at INFO on every start: noise. Migrations themselves
    # (alembic.runtime.migration) and any warning or error still show.
    logging.getLogger("alembic.runtime.plugins").setLevel(max(level, logging.WARNING))


def _prepare_or_fail(settings) -> None:
    """Migrate the database, or stop with one line saying why it cannot be used: every command
    starts here. Any error of the database's own here means that (no server, no such file, a file
    that is not a database, no right to create a table): nothing of the command has run yet."""
    from sqlalchemy.exc import DatabaseError

    from .db.session import MissingDriver

    try:
        _prepare(settings)
    except MissingDriver as exc:
        raise click.ClickException(str(exc)) from None
    except DatabaseError as exc:
        raise _unusable(settings, exc) from None


def _unusable(settings, exc) -> click.ClickException:
    """``cannot use the database URL: reason``, the reason the first line of the driver's."""
    lines = str(exc.orig if exc.orig is not None else exc).strip().splitlines()
    reason = lines[0] if lines else type(exc.orig or exc).__name__
    return click.ClickException(f"cannot use the database {_safe_url(settings.database_url)}: {reason}")


def _serve(settings, host: str, port: int, log_level: str = "info", processes: int = 1,
           jobs_apart: bool = False) -> None:
    from .app import create_app
    from .listen import PortUnavailable, listening_socket, make_server, serve_processes

    _start_logging(log_level)
    _prepare_or_fail(settings)
    try:
        sock = listening_socket(host, port)  # the port is ours from here on: uvicorn serves on this socket
    except PortUnavailable as exc:
        raise _BadInput(str(exc)) from None

    runs_jobs = (f"{settings.job_workers} job workers" + (" in a process of their own" if jobs_apart else "")
                 if settings.job_workers else "jobs left to `docsvc-server worker`")
    each = f", {processes} processes" if processes > 1 else ""

    def announce() -> None:  # only once it answers: a failed start never claims to be on the port
        _status(f"docsvc local service {__version__} on http://{host}:{port}/api/v1 "
                f"(database {_safe_url(settings.database_url)}{each}, {runs_jobs})")

    jobs = None
    if jobs_apart:
        from .jobrunner import JobsChild
        from .jobs.wake import new_address

        jobs = JobsChild(settings.with_(job_wake=new_address()), log_level).start()
        # The API's processes leave every job to the child, and wake it when they queue one.
        settings = settings.with_(job_workers=0, job_wake=jobs.settings.job_wake)
    try:
        with sock:
            if processes > 1:
                serve_processes(settings, sock, processes, log_level=log_level, on_started=announce)
            else:
                make_server(create_app(settings), log_level=log_level, on_started=announce).run(sockets=[sock])
    finally:
        if jobs is not None:
            jobs.stop()  # it puts its running jobs back in the queue


@main.command()
@db_option
@transaction
def migrate(session, settings) -> None:
    """Bring the database schema to the newest migration; prints the revision.

    Every command does this first; this one does nothing else, for a deploy step that runs once
    before the service starts (the Helm chart's pre-install/pre-upgrade Job)."""
    from .db.migrate import head_revision

    _status("the database schema is at the newest migration")
    click.echo(head_revision())


# --- users ---------------------------------------------------------------------------------

@main.group()
def users() -> None:
    """Manage users (Writers and System Administrators)."""


@users.command("add")
@click.option("--org", required=True)
@click.option("--email", required=True, type=column_text("User.email"))
@click.option("--role", required=True, type=click.Choice(["writer", "admin"]))
@click.option("--name", default=None, type=column_text("User.name"))
@db_option
@transaction
def users_add(session, settings, org: str, email: str, role: str, name: str | None) -> None:
    """Add a user to an organisation; prints the user id."""
    from .services.accounts import add_user, get_org

    user = add_user(session, get_org(session, org), email, role, name)
    _status(f"user {user.email} ({user.role}) added to {org!r}")
    click.echo(user.id)


# --- keys ----------------------------------------------------------------------------------

@main.group()
def keys() -> None:
    """Create, list and revoke API keys."""


@keys.command("create")
@click.option("--email", required=True, help="the user the key acts as")
@click.option("--name", "key_name", default=None, type=column_text("ApiKey.name"),
              help="a name to recognise the key by")
@db_option
@transaction
def keys_create(session, settings, email: str, key_name: str | None) -> None:
    """Create an API key; prints it. It is shown only this once."""
    from .services.accounts import create_key, get_user_by_email

    record, key = create_key(session, get_user_by_email(session, email), key_name)
    _status(f"key {record.id} ({record.name}) for {email}; shown only once")
    click.echo(key)


@keys.command("list")
@click.option("--org", required=True)
@db_option
@transaction
def keys_list(session, settings, org: str) -> None:
    """List an organisation's keys (id, user, name, prefix, created, last used, state)."""
    from .db.session import rfc3339
    from .services.accounts import get_org, list_keys

    for record in list_keys(session, get_org(session, org)):
        state = f"revoked {rfc3339(record.revoked_at)}" if record.revoked_at else "active"
        click.echo(f"{record.id}\t{record.user.email}\t{record.name}\t{record.prefix}…\t"
                   f"created {rfc3339(record.created_at)}\tlast used {rfc3339(record.last_used_at) or 'never'}\t"
                   f"{state}")


@keys.command("revoke")
@click.argument("key_id", type=db_integer())
@db_option
@transaction
def keys_revoke(session, settings, key_id: int) -> None:
    """Revoke a key: requests with it are refused from now on."""
    from .services.accounts import revoke_key

    record = revoke_key(session, key_id)
    _status(f"key {record.id} ({record.name}) of {record.user.email} revoked")
    click.echo(record.id)


# --- releases, items, integrations ---------------------------------------------------------

@main.group()
def releases() -> None:
    """Manage releases."""


@releases.command("add")
@click.option("--org", required=True)
@click.option("--name", required=True, type=column_text("Release.name"))
@click.option("--target", default=None, metavar="YYYY-MM-DD", help="target date")
@db_option
@transaction
def releases_add(session, settings, org: str, name: str, target: str | None) -> None:
    """Add a release; prints its id."""
    from .services.accounts import get_org
    from .services.releases import add_release

    release = add_release(session, get_org(session, org), name, target)
    _status(f"release {release.name!r} added to {org!r}")
    click.echo(release.id)


@releases.command("set-target")
@click.option("--org", required=True)
@click.option("--release", "release_ref", required=True, metavar="NAME_OR_ID")
@click.option("--date", "date_text", required=True, metavar="YYYY-MM-DD", help="the new target date")
@click.option("--reason", default=None, help="why the date moved (shown in the dashboard's timeline)")
@click.option("--by", "by_email", default=None, metavar="EMAIL", help="who moved it (a member of the organisation)")
@click.option("--status", "new_status", default=None, type=click.Choice(["planned", "in_progress", "released"]),
              help="also change the release's status")
@db_option
@transaction
def releases_set_target(session, settings, org: str, release_ref: str, date_text: str, reason: str | None,
                        by_email: str | None, new_status: str | None) -> None:
    """Move a release's target date; the change is kept in its date history. Prints the release id."""
    from .services.accounts import AdminError, get_org, get_user_by_email
    from .services.releases import find_release, parse_date, set_status, set_target

    organisation = get_org(session, org)
    release = find_release(session, organisation, release_ref)
    by = get_user_by_email(session, by_email) if by_email else None
    if by is not None and by.org_id != organisation.id:
        raise AdminError(f"{by.email} is not a member of {org!r}")
    old = release.target_date
    change = set_target(session, release, parse_date(date_text, "--date"), reason=reason, changed_by=by)
    if new_status:
        set_status(release, new_status)
    _status(f"release {release.name!r}: target {old or 'none'} -> {release.target_date}" if change else
            f"release {release.name!r}: target already {release.target_date}, nothing recorded")
    click.echo(release.id)


@releases.command("set-status")
@click.option("--org", required=True)
@click.option("--release", "release_ref", required=True, metavar="NAME_OR_ID")
@click.argument("new_status", metavar="STATUS", type=click.Choice(["planned", "in_progress", "released"]))
@db_option
@transaction
def releases_set_status(session, settings, org: str, release_ref: str, new_status: str) -> None:
    """Set a release's status: planned, in_progress or released. Prints the release id."""
    from .services.accounts import get_org
    from .services.releases import find_release, set_status

    release = find_release(session, get_org(session, org), release_ref)
    set_status(release, new_status)
    _status(f"release {release.name!r} is now {new_status}")
    click.echo(release.id)


@main.group()
def items() -> None:
    """Create work items directly (for setups and tests)."""


@items.command("add")
@click.argument("tool", type=click.Choice(TOOLS))
@click.option("--org", required=True)
@click.option("--title", required=True, type=TITLE)
@click.option("--created-by", default=None, metavar="EMAIL", help="the creator (owner of a chat)")
@click.option("--attach", "attachments", multiple=True, metavar="KIND=PATH",
              help="store a file with the item: screenshot, audio, video or attachment (repeatable)")
@db_option
@transaction
def items_add(session, settings, tool: str, org: str, title: str, created_by: str | None,
              attachments: tuple[str, ...]) -> None:
    """Add a work item of TOOL; prints its id."""
    from .services.accounts import get_org, get_user_by_email
    from .services.items import add_item
    from .storage import FileStore

    pairs = []
    for spec in attachments:
        kind, sep, path = spec.partition("=")
        if not sep or not path:
            raise click.BadParameter(f"expected KIND=PATH, got {spec!r}", param_hint="--attach")
        pairs.append((kind, Path(path)))
    user = get_user_by_email(session, created_by) if created_by else None
    item = add_item(session, get_org(session, org), tool, title, created_by=user, attachments=pairs,
                    store=FileStore(settings.data_dir))
    _status(f"{tool} item {item.id} added to {org!r}")
    click.echo(item.id)


@main.group()
def integrations() -> None:
    """Manage repository integrations (connected code and docs repositories)."""


def host_options(func):
    """The code-host options of ``integrations add`` and ``integrations update``: on both the same."""
    options = [
        click.option("--host", type=click.Choice(["github", "gitlab", "git"]), default=None,
                     help="the code host whose API opens pull requests (default: github or gitlab when a "
                          "repository is on github.com or gitlab.com, else git: a pushed branch only)"),
        click.option("--host-api-url", default=None, metavar="URL",
                     help="the host's API (default https://api.github.com or https://gitlab.com/api/v4; "
                          "GitHub Enterprise Server: https://HOST/api/v3, self-managed GitLab: https://HOST/api/v4)"),
        click.option("--host-token-env", default=None, metavar="VAR", type=column_text("Integration.host_token_env"),
                     help="the NAME of the service's environment variable holding the host's token "
                          "(read when used; the token is never stored)"),
        click.option("--code-host-repo", default=None, metavar="OWNER/NAME",
                     type=column_text("Integration.code_host_repo"),
                     help="the code repository on the host, when its URL does not name it"),
        click.option("--docs-host-repo", default=None, metavar="OWNER/NAME",
                     type=column_text("Integration.docs_host_repo"),
                     help="the docs repository on the host, when its URL does not name it"),
        click.option("--github-app-id", default=None, type=db_integer(0), metavar="ID",
                     help="GitHub App auth instead of a token: the app's id (0 clears it)"),
        click.option("--github-app-key-file", default=None, metavar="PATH",
                     help="GitHub App auth: the app's private-key file (PEM), read when used"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _host_input(func):
    """An integration's bad option value is a usage error (exit 2) naming the option."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from .services.integrations import IntegrationInputError

        try:
            return func(*args, **kwargs)
        except IntegrationInputError as exc:
            raise click.BadParameter(str(exc), param_hint=f"'{exc.option}'") from None

    return wrapper


def _host_summary(integration) -> str:
    if integration.host == "git":
        return "plain git: pull requests are pushed branches"
    auth = (f"GitHub App {integration.github_app_id}" if integration.github_app_id else
            f"token from ${integration.host_token_env}" if integration.host_token_env else "no token set yet")
    return f"{integration.host} {integration.docs_host_repo} via {integration.host_api_url}, {auth}"


@integrations.command("add")
@click.option("--org", required=True)
@click.option("--name", required=True, type=column_text("Integration.name"))
@click.option("--code-repo", required=True, metavar="URL_OR_PATH")
@click.option("--docs-repo", required=True, metavar="URL_OR_PATH")
@click.option("--code-branch", default="main", show_default=True, type=column_text("Integration.code_branch"))
@click.option("--docs-branch", default="main", show_default=True, type=column_text("Integration.docs_branch"))
@click.option("--docs-path", default="docs", show_default=True, metavar="DIR",
              type=column_text("Integration.docs_path"), help="docs folder in the docs repo")
@click.option("--preview-url", default=None, metavar="PATTERN", help="may contain {branch} and {sha}")
@click.option("--keep-in-sync", is_flag=True, help="check the remote on a schedule and sync when it moved")
@host_options
@db_option
@transaction
@_host_input
def integrations_add(session, settings, org: str, name: str, code_repo: str, docs_repo: str, code_branch: str,
                     docs_branch: str, docs_path: str, preview_url: str | None, keep_in_sync: bool,
                     **host) -> None:
    """Connect a code repository and its docs repository; prints the integration id."""
    from .services.accounts import get_org
    from .services.integrations import add_integration, code_host

    integration = add_integration(
        session, get_org(session, org), name=name, code_repo=code_repo, docs_repo=docs_repo,
        code_branch=code_branch, docs_branch=docs_branch, docs_path=docs_path, preview_url=preview_url,
        keep_in_sync=keep_in_sync, egress=settings.egress, **host)
    _status(f"integration {integration.name!r} ({code_host(code_repo)}) added to {org!r}; "
            f"{_host_summary(integration)}")
    click.echo(integration.id)


@integrations.command("update")
@click.option("--integration", "integration_id", required=True, type=db_integer(), metavar="ID")
@click.option("--keep-in-sync/--no-keep-in-sync", default=None, help="(unchanged when not given)")
@host_options
@db_option
@transaction
@_host_input
def integrations_update(session, settings, integration_id: int, keep_in_sync: bool | None, **host) -> None:
    """Change an integration's code host (options not given stay; an empty text clears one); prints its id."""
    from .services.integrations import update_integration

    integration = update_integration(session, integration_id, keep_in_sync=keep_in_sync, **host)
    _status(f"integration {integration.id} ({integration.name!r}): {_host_summary(integration)}")
    click.echo(integration.id)


def _integration(session, integration_id: int):
    from .db.tables import Integration
    from .services.accounts import AdminError

    integration = session.get(Integration, integration_id)
    if integration is None:
        raise AdminError(f"integration {integration_id} does not exist")
    return integration


@integrations.command("webhook")
@click.option("--integration", "integration_id", required=True, type=db_integer(), metavar="ID")
@click.option("--rotate", is_flag=True, help="make a new secret: deliveries signed with the old one are refused")
@db_option
@transaction
def integrations_webhook(session, settings, integration_id: int, rotate: bool) -> None:
    """The Webhook dialog: the URL to give the code host and the secret to sign with (made on first
    use). Prints two lines, "url: ..." and "secret: ..."; the base of the URL is
    DOCSVC_SERVER_PUBLIC_URL, else the address 'run' listens on by default."""
    from .services.webhooks import secret_for, webhook_url

    integration = _integration(session, integration_id)
    url = webhook_url(settings.public_base, integration)
    secret = secret_for(session, integration, rotate=rotate)
    if rotate:
        _status(f"integration {integration.id}: new webhook secret; set it on the code host's webhook")
    click.echo(f"url: {url}")
    click.echo(f"secret: {secret}")


@integrations.command("deliveries")
@click.option("--integration", "integration_id", required=True, type=db_integer(), metavar="ID")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--json", "as_json", is_flag=True, help="one JSON array")
@db_option
@transaction
def integrations_deliveries(session, settings, integration_id: int, limit: int, as_json: bool) -> None:
    """The webhook deliveries of an integration, newest first: when, event, action, delivery id,
    outcome and what came of it."""
    import json

    from .services.webhooks import deliveries, delivery_view

    views = [delivery_view(d) for d in deliveries(session, _integration(session, integration_id).id, limit)[0]]
    if as_json:
        click.echo(json.dumps(views))
        return
    if not views:
        _status(f"integration {integration_id} has received no webhook delivery yet")
    for view in views:
        event = view["event"] + (f" ({view['action']})" if view["action"] else "")
        click.echo(f"{view['received_at']}\t{event}\t{view['delivery']}\t{view['outcome']}\t{view['result']}")


@main.group("api-specs")
def api_specs() -> None:
    """The organisation's API-readiness configuration: which spec POST /oas/validate checks."""


def _stage_option(name: str, what: str):
    return click.option(f"--{name}/--no-{name}", f"run_{name.replace('-', '_')}", default=None,
                        help=f"run {what} by default (unchanged when not given)")


@api_specs.command("set")
@click.option("--org", required=True)
@click.option("--integration", "integration_id", required=True, type=db_integer(),
              help="the integration whose code repository holds the spec")
@click.option("--path", required=True, metavar="FILE", help="the spec's path in that repository")
@click.option("--branch", default=None, type=column_text("ApiSpecConfig.branch"),
              help="branch to read (default: the integration's code branch)")
@_stage_option("swagger", "the structural validation")
@_stage_option("redocly", "the Redocly recommended rules")
@_stage_option("ai-fix", "the mechanical fixes")
@_stage_option("ai-content", "the generated summaries and descriptions")
@db_option
@transaction
def api_specs_set(session, settings, org: str, integration_id: int, path: str, branch: str | None, **stages) -> None:
    """Save which spec is checked (integration, branch, path) and the default stages; prints it."""
    import json

    from .services.accounts import get_org
    from .services.api_specs import config_view, set_config

    config = set_config(session, get_org(session, org), integration_id=integration_id, path=path, branch=branch,
                        stages=stages)
    _status(f"API-readiness configuration of {org!r} saved")
    click.echo(json.dumps(config_view(config)))


@api_specs.command("show")
@click.option("--org", required=True)
@db_option
@transaction
def api_specs_show(session, settings, org: str) -> None:
    """Print the saved configuration as JSON (or say there is none)."""
    import json

    from .db.tables import ApiSpecConfig
    from .services.accounts import AdminError, get_org
    from .services.api_specs import config_view

    config = session.get(ApiSpecConfig, get_org(session, org).id)
    if config is None:
        raise AdminError(f"no API-readiness configuration is saved for {org!r}")
    click.echo(json.dumps(config_view(config)))


@main.group()
def credits() -> None:
    """An organisation's credit balance (Docflows actions are paid in credits)."""


@credits.command("set")
@click.option("--org", required=True)
@click.option("--amount", required=True, type=db_integer(0))
@db_option
@transaction
def credits_set(session, settings, org: str, amount: int) -> None:
    """Set the balance; prints it."""
    from .services.accounts import get_org
    from .services.credits import set_balance

    click.echo(set_balance(session, get_org(session, org).id, amount))


@credits.command("show")
@click.option("--org", required=True)
@db_option
@transaction
def credits_show(session, settings, org: str) -> None:
    """Print the balance."""
    from .services.accounts import get_org
    from .services.credits import balance

    click.echo(balance(session, get_org(session, org).id))


@main.group()
def categories() -> None:
    """An organisation's product categories: what a release-notes entry's category may name (or Other)."""


@categories.command("set")
@click.option("--org", required=True)
@click.argument("names", nargs=-1, required=True, metavar="CAT [CAT...]")
@db_option
@transaction
def categories_set(session, settings, org: str, names: tuple[str, ...]) -> None:
    """Replace the categories with CAT..., in this order; prints them, one per line."""
    from .services.accounts import get_org
    from .services.release_notes import set_categories

    saved = set_categories(session, get_org(session, org), names)
    _status(f"{len(saved)} product categories of {org!r} saved (Other is always allowed)")
    for name in saved:
        click.echo(name)


@categories.command("show")
@click.option("--org", required=True)
@db_option
@transaction
def categories_show(session, settings, org: str) -> None:
    """Print the categories, one per line, in their order."""
    from .services.accounts import get_org
    from .services.release_notes import org_categories

    names = org_categories(session, get_org(session, org).id)
    if not names:
        _status(f"{org!r} has no product categories: release-notes entries can only use Other")
    for name in names:
        click.echo(name)


# --- demo ----------------------------------------------------------------------------------

@main.command()
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--dir", "workdir", default=".docsvc-demo", show_default=True, type=click.Path(file_okay=False),
              help="where the demo keeps its database and files (made afresh each run)")
@click.option("--exit-after-tour", is_flag=True, help="stop after the tour instead of serving on")
def demo(port: int, workdir: str, exit_after_tour: bool) -> None:
    """Start the local service with a demo organisation, tour the CLI against it, then serve it."""
    from .demo import run_demo

    sys.exit(run_demo(port=port, workdir=Path(workdir), serve=not exit_after_tour))


if __name__ == "__main__":  # pragma: no cover
    main()
