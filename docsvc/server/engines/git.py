"""Git through the ``git`` command: bare mirrors of remote repositories, reused across syncs.

Every call runs with no terminal prompts, so an unreachable or private repository fails with
git's own reason instead of hanging on a password question.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import re
import shutil
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator
from urllib.parse import urlsplit

from ...credentials import hidden
from ...egress import Egress, EgressRefused

_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "SSH_ASKPASS": "true", "LC_ALL": "C",
        "GIT_SSH_COMMAND": "ssh -o BatchMode=yes"}
FETCH_TIMEOUT = 600


class GitError(Exception):
    """A git command failed; the message is git's own reason (its last stderr lines), with any URL's
    credentials hidden: it reaches jobs' errors, answers and logs."""

    def __init__(self, message: str) -> None:
        super().__init__(hidden(message))


class RemoteRefused(GitError):
    """The egress policy refuses the remote (an internal host, a scheme other than https/ssh)."""


def _checked(location: str, egress: Egress | None) -> tuple[str, list[str]]:
    """The remote's URL for git once the egress policy allows it (the strict default when none
    is given), and the ``-c`` options every git command that reaches it runs with."""
    egress = egress or Egress()
    try:
        addresses = egress.check_git(location)
    except EgressRefused as exc:
        raise RemoteRefused(str(exc)) from None
    return remote_url(location), _remote_options(location, egress, addresses)


def _remote_options(location: str, egress: Egress, addresses: list[str]) -> list[str]:
    """git ``-c`` options that keep a fetch or push where the egress policy checked it.

    Redirects: by default git follows an HTTP redirect of its first request (``initial``) to any
    address, one the policy never saw: an allowed host answering ``302 Location:
    http://127.0.0.1:.../`` sent git to an internal listener. So while the policy refuses anything,
    git follows no redirect (``http.followRedirects=false``); a moved repository then fails with
    git's own "returned error: 30x" and is registered at its new address. With
    ``DOCSVC_SERVER_EGRESS_ALLOW=internal`` every address is let through, so a redirect can get past
    nothing: git keeps its default ``initial`` there (the demo, the tests).

    DNS: the policy resolved the host once; git would resolve it again, and a name answering a
    public address to the check and an internal one to git (DNS rebinding) would get through. For
    https the checked addresses are pinned into git's curl (``http.curloptResolve``, git 2.37 and
    later; older gits ignore the key), so git connects to exactly those. ssh remotes are not pinned:
    ssh resolves the name itself, and overriding its HostName would override the operator's
    ~/.ssh/config as well.
    """
    if egress.allow_internal:
        return []
    options = ["-c", "http.followRedirects=false"]
    parts = urlsplit(location) if "://" in location else None
    if addresses and parts is not None and parts.scheme == "https" and parts.hostname:
        pinned = ",".join(f"[{a}]" if ":" in a else a for a in addresses)
        options += ["-c", f"http.curloptResolve={parts.hostname}:{parts.port or 443}:{pinned}"]
    return options


class UnsafePath(GitError):
    """A path the service will not write into a checkout: absolute, outside it, under ``.git/``,
    or through a symbolic link the repository holds."""


MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255


def repo_path(path: str) -> str:
    """``path`` as a clean repository-relative file path; UnsafePath says what is wrong with it."""
    if not isinstance(path, str) or not path.strip():
        raise UnsafePath("the path is empty")
    if "\0" in path or "\\" in path:
        raise UnsafePath(f"{path!r} holds a NUL byte or a backslash")
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        raise UnsafePath(f"{path!r} is absolute; give a path inside the repository")
    parts = [p for p in path.strip().split("/") if p not in ("", ".")]
    if not parts or path.rstrip().endswith("/"):
        raise UnsafePath(f"{path!r} names a folder, not a file")
    if ".." in parts:
        raise UnsafePath(f"{path!r} leaves the repository (..)")
    if any(p.lower() == ".git" for p in parts):
        raise UnsafePath(f"{path!r} is inside .git/ (git's own files, not the repository's)")
    clean = "/".join(parts)
    if len(clean.encode()) > MAX_PATH_BYTES or any(len(p.encode()) > MAX_NAME_BYTES for p in parts):
        raise UnsafePath(f"the path is too long (at most {MAX_NAME_BYTES} bytes a name, {MAX_PATH_BYTES} in all)")
    return clean


def repo_folder(path: str) -> str:
    """``path`` as a clean repository-relative folder, ``.`` for the whole repository, by the rules
    of ``repo_path`` (relative, never leaving the repository, never under ``.git/``)."""
    if not isinstance(path, str):
        return repo_path(path)  # its refusal
    clean = path.strip()
    if clean in ("", ".", "./"):
        return "."
    return repo_path(clean if clean == "/" else clean.rstrip("/"))


# What git refuses in a branch name (git check-ref-format --branch), control characters included.
_NOT_IN_BRANCH = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|^[-/.]|[/.]$|\.lock(?:/|$)|//|/\.|^@$")


def branch_problem(name: str) -> str | None:
    """Why ``name`` is not a branch name git takes, or None when it is."""
    if not isinstance(name, str) or not name:
        return "must not be empty"
    return "is not a git branch name" if _NOT_IN_BRANCH.search(name) else None


def write_inside(root: Path, path: str, text: str) -> Path:
    """Write ``text`` at ``path`` under the checkout ``root`` without following any symbolic link:
    a link on the way (``docs/api -> /etc``) or at the file itself is refused, so nothing is
    written outside the checkout."""
    clean = repo_path(path)
    target = root
    for name in clean.split("/"):
        target = target / name
        if target.is_symlink():
            raise UnsafePath(f"{clean}: {target.relative_to(root)} is a symbolic link in the repository; "
                             "the service does not write through links")
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.parent.resolve().is_relative_to(root.resolve()):
        raise UnsafePath(f"{clean} resolves outside the checkout")
    # O_NOFOLLOW: a link that appears between the check and the write is refused too.
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    return target


def _run(args: list[str], *, cwd: Path | None = None, timeout: float = FETCH_TIMEOUT,
         input: bytes | None = None, env: dict[str, str] | None = None, options: Iterable[str] = ()) -> bytes:
    """``git [options] args``; ``options`` are the ``-c`` options of a remote (``_checked``)."""
    try:
        done = subprocess.run(["git", *options, *args], cwd=cwd, env={**os.environ, **_ENV, **(env or {})}, input=input,
                              capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} timed out after {timeout:.0f} s") from None
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        # git's reason is in its fatal:/error: lines; hints and progress around them are noise.
        reasons = [line for line in lines if line.startswith(("fatal:", "error:"))] or lines[-3:]
        raise GitError(_without_folder(" ".join(reasons), cwd) or f"git {args[0]} exited with {done.returncode}")
    return done.stdout


def _without_folder(message: str, cwd: Path | None) -> str:
    """git's reason without the service's own folder it ran in (a mirror or a throw-away clone
    under the data directory): the reason reaches API users, who have no business with the
    server's paths. Commands that create a folder name it relative to ``cwd`` for the same end."""
    if cwd is None:
        return message
    for spelling in dict.fromkeys((str(cwd.resolve()), str(cwd.absolute()), str(cwd))):
        message = message.replace(spelling, "<checkout>")
    return message


def remote_url(location: str) -> str:
    """A local path becomes an absolute path git can fetch from; URLs pass through."""
    if "://" in location or (":" in location and not Path(location).exists()):
        return location
    return str(Path(location).expanduser().resolve())


_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@functools.lru_cache(maxsize=4)
def _tree(path: Path, commit: str, folder: str) -> dict[str, str]:
    args = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit]
    if folder not in ("", "."):
        args += ["--", folder.rstrip("/") + "/"]
    out = _run(args, cwd=path)
    files = {}
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, blob = meta.split()
        if kind == b"blob" and mode != b"120000":  # files, not symlinks or submodules
            files[name.decode("utf-8", "replace")] = blob.decode()
    return files


@dataclass(frozen=True)
class Mirror:
    """A bare mirror of one remote repository under the service's data directory."""

    path: Path
    url: str
    location: str = ""
    egress: Egress | None = None

    @classmethod
    def for_url(cls, folder: Path, location: str, egress: Egress | None = None) -> "Mirror":
        """The mirror of ``location`` in ``folder`` (the service's ``settings.mirrors_dir``)."""
        url = remote_url(location)
        name = hashlib.sha256(url.encode()).hexdigest()[:16]
        return cls(folder / f"{name}.git", url, location, egress)

    def fetch(self) -> None:
        """Clone on first use, fetch afterwards (once the egress policy allows the remote). A
        failed first clone leaves nothing behind; a mirror deleted meanwhile is cloned again."""
        _, options = _checked(self.location or self.url, self.egress)
        with self._exclusive():
            if not self._cloned(options):
                _run(["fetch", "--prune", "--quiet", "origin"], cwd=self.path, options=options)

    def fetch_branches(self, *branches: str) -> None:
        """Bring just ``branches`` up to date (a whole clone on first use, as ``fetch``). Only
        their refs are asked for, so a code host's many others (pull requests, tags) are neither
        listed nor downloaded; whoever reads those fetches them (``fetch``). No FETCH_HEAD is
        written: nothing reads it."""
        _, options = _checked(self.location or self.url, self.egress)
        with self._exclusive():
            if not self._cloned(options):
                refspecs = [f"+refs/heads/{branch}:refs/heads/{branch}" for branch in dict.fromkeys(branches)]
                _run(["fetch", "--quiet", "--no-write-fetch-head", "origin", *refspecs], cwd=self.path,
                     options=options)

    def _cloned(self, options: list[str]) -> bool:
        """Clone the mirror when it is missing (under ``_exclusive``); True when it was."""
        if (self.path / "HEAD").exists():
            return False
        partial = self.path.with_name(self.path.name + ".partial")
        for leftover in (partial, self.path):  # a cut-off clone, or a half-deleted mirror
            shutil.rmtree(leftover, ignore_errors=True)
        _run(["clone", "--mirror", "--quiet", "--", self.url, partial.name], cwd=partial.parent, options=options)
        partial.rename(self.path)
        return True

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        """One fetch or clone of this mirror at a time, across the threads and processes that
        share its folder (an flock on a lock file beside it; readers need none: git writes
        objects before it moves a ref, and moves refs atomically)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def head(self, branch: str) -> str:
        try:
            return _run(["rev-parse", "--verify", "--quiet", "--end-of-options", f"refs/heads/{branch}^{{commit}}"],
                        cwd=self.path).decode().strip()
        except GitError:
            raise GitError(f"branch {branch!r} not found in {self.url}") from None

    def has_commit(self, sha: str) -> bool:
        try:
            _run(["cat-file", "-e", "--end-of-options", f"{sha}^{{commit}}"], cwd=self.path)
            return True
        except GitError:
            return False

    def rev(self, ref: str) -> str:
        """The commit a ref or SHA names."""
        return _run(["rev-parse", "--verify", "--end-of-options", f"{ref}^{{commit}}"], cwd=self.path).decode().strip()

    def count_between(self, old: str | None, new: str) -> int:
        """Commits reachable from ``new`` and not from ``old`` (all of them when ``old`` is None)."""
        return int(_run(["rev-list", "--count", "--end-of-options", f"{old}..{new}" if old else new],
                        cwd=self.path).decode().strip() or 0)

    def merge_base(self, a: str, b: str) -> str:
        return _run(["merge-base", "--end-of-options", a, b], cwd=self.path).decode().strip()

    def changed_files(self, base: str, head: str) -> list[tuple[str, str, str]]:
        """(status letter, old path, new path) of each file changed from ``base`` to ``head``,
        renames detected (status R)."""
        out = _run(["diff", "--name-status", "-z", "-M", "--end-of-options", base, head, "--"],
                   cwd=self.path).split(b"\0")
        changes, i = [], 0
        while i < len(out) and out[i]:
            status = out[i].decode()[0]
            if status in "RC":
                changes.append((status, out[i + 1].decode(), out[i + 2].decode()))
                i += 3
            else:
                path = out[i + 1].decode()
                changes.append((status, path, path))
                i += 2
        return changes

    def file_hunks(self, base: str, head: str, context: int = 0, limit: int = 8 << 20
                   ) -> list[tuple[str, list[str]]]:
        """The hunks of the change from ``base`` to ``head``, each with the path of its file (the new
        one; the old for a deletion) and its lines, which start with ``-`` (lost), ``+`` (gained) or a
        space (``context`` lines of context around them), from the first ``limit`` bytes of the diff:
        enough to know which names a change touches and what stands beside them."""
        out = _run(["-c", "core.quotePath=off", "diff", f"-U{max(0, int(context))}", "--no-color", "--no-ext-diff",
                    "--no-renames", "--end-of-options", base, head], cwd=self.path)[:limit]
        hunks: list[tuple[str, list[str]]] = []
        keep, header, old, path = False, False, "", ""
        for line in out.decode("utf-8", "replace").split("\n"):
            if line.startswith("diff "):  # a file's header, up to its first hunk
                keep, header = False, True
            elif line.startswith("@@"):
                header = False
                if keep:
                    hunks.append((path, []))
            elif header and line.startswith("--- "):
                old = line[6:] if line.startswith("--- a/") else ""
            elif header and line.startswith("+++ "):
                path = line[6:] if line.startswith("+++ b/") else old
                keep = True
            elif keep and not header and hunks and line[:1] in ("+", "-", " "):
                hunks[-1][1].append(line)  # a removed "-- x" shows as "--- x": content, not a header
        return hunks

    def changed_blobs(self, base: str, head: str, folder: str) -> dict[str, str | None]:
        """path -> its blob at ``head`` (None: gone, or no longer a plain file) of each file under
        ``folder`` that differs from ``base`` to ``head``: what an index at ``base`` needs to
        reach ``head``, without listing the whole tree."""
        args = ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--end-of-options", base, head]
        if folder not in ("", "."):
            args += ["--", folder.rstrip("/") + "/"]
        out = _run(args, cwd=self.path).split(b"\0")
        changes: dict[str, str | None] = {}
        for meta, path in zip(out[0::2], out[1::2]):
            _, new_mode, _, new_blob, status = meta.decode().lstrip(":").split()
            plain = status != "D" and new_mode.startswith("100")  # not a symlink (120000) or submodule
            changes[path.decode("utf-8", "replace")] = new_blob if plain else None
        return changes

    def show(self, commit: str, path: str) -> bytes | None:
        """The file at ``commit``, or None when it does not exist there."""
        try:
            return _run(["show", "--end-of-options", f"{commit}:{path}"], cwd=self.path)
        except GitError:
            return None

    def grep(self, commit: str, word: str, globs: Iterable[str]) -> list[str]:
        """Files at ``commit`` (matching ``globs``) where ``word`` stands as a whole word."""
        try:
            # git grep has no --end-of-options: the commit is resolved first, so it cannot be an option.
            out = _run(["grep", "-l", "-w", "-F", "-e", word, self.rev(commit), "--", *globs], cwd=self.path)
        except GitError:  # git grep exits 1 when nothing matches
            return []
        return [line.split(":", 1)[1] for line in out.decode("utf-8", "replace").splitlines() if ":" in line]

    def tree(self, commit: str, folder: str) -> dict[str, str]:
        """path -> blob id of every file under ``folder`` (``.`` for the whole tree)."""
        if _SHA.fullmatch(commit):  # a commit's tree never changes: a docflow reads each several times
            return dict(_tree(self.path, commit, folder))
        return _tree.__wrapped__(self.path, commit, folder)

    def read_blobs(self, blobs: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        """(blob id, content) for each id, through one ``git cat-file --batch`` process."""
        wanted = list(dict.fromkeys(blobs))
        if not wanted:
            return
        proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=self.path, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env={**os.environ, **_ENV})
        try:
            assert proc.stdin is not None and proc.stdout is not None
            # Feed ids from a thread so a large request cannot deadlock on full pipes.
            import threading

            def feed() -> None:
                try:
                    proc.stdin.write(("\n".join(wanted) + "\n").encode())
                    proc.stdin.close()
                except BrokenPipeError:
                    pass

            threading.Thread(target=feed, daemon=True).start()
            for blob in wanted:
                header = proc.stdout.readline().split()
                if len(header) < 3:
                    raise GitError(f"blob {blob} missing from {self.url}")
                size = int(header[2])
                data = proc.stdout.read(size)
                proc.stdout.read(1)  # the newline after each object
                yield blob, data
        finally:
            proc.kill()
            proc.wait()


def ls_remote_head(location: str, branch: str, timeout: float = 60, egress: Egress | None = None) -> str | None:
    """The remote's current commit of ``branch`` without fetching, or None if it has no such branch."""
    ref = f"refs/heads/{branch}"
    url, options = _checked(location, egress)
    out = _run(["ls-remote", "--heads", "--", url, ref], timeout=timeout, options=options)
    # The pattern matches the end of a ref's name: refs/heads/x/refs/heads/main is listed too.
    heads = [line.split("\t") for line in out.decode().splitlines()]
    return next((sha for sha, name in heads if name == ref), None)


def push_branch(location: str, base: str, branch: str, files: dict[str, str], message: str, workdir: Path,
                egress: Egress | None = None, replace: bool = False) -> str:
    """Commit ``files`` (path -> text) on a new ``branch`` from ``base`` and push it to the
    repository at ``location``; returns the new commit. Works in a throw-away clone. ``replace``:
    the branch is the service's own and may already be there from a try that failed later on; it
    is replaced (a forced push) instead of refused."""
    import tempfile

    url, options = _checked(location, egress)
    workdir.mkdir(parents=True, exist_ok=True)
    clone = Path(tempfile.mkdtemp(prefix="docsvc-branch-", dir=workdir))
    identity = {"GIT_AUTHOR_NAME": "docsvc", "GIT_AUTHOR_EMAIL": "docsvc@localhost",
                "GIT_COMMITTER_NAME": "docsvc", "GIT_COMMITTER_EMAIL": "docsvc@localhost"}
    try:
        _run(["clone", "--quiet", "--no-checkout", "--", url, clone.name], cwd=clone.parent, options=options)
        start = _run(["rev-parse", "--verify", "--end-of-options", f"{base}^{{commit}}"], cwd=clone).decode().strip()
        _run(["checkout", "--quiet", "-b", branch, start], cwd=clone)
        for path, text in files.items():
            write_inside(clone, path, text)
            _run(["add", "--", repo_path(path)], cwd=clone)
        _run(["commit", "--quiet", "-m", message], cwd=clone, env=identity)
        _run(["push", "--quiet", "origin", f"{'+' if replace else ''}{branch}:refs/heads/{branch}"], cwd=clone,
             options=options)
        return _run(["rev-parse", "HEAD"], cwd=clone).decode().strip()
    finally:
        shutil.rmtree(clone, ignore_errors=True)


def branch_url(location: str, base_branch: str, branch: str) -> str:
    """Where a person opens the pull request for ``branch``: the host's compare page, or the local path.
    Never with the credentials a URL may carry (``https://user:token@host/...``)."""
    from urllib.parse import urlsplit

    parts = urlsplit(location)
    if parts.scheme in ("http", "https", "ssh", "git") and parts.hostname:
        host, project = parts.hostname + (f":{parts.port}" if parts.port and parts.scheme != "ssh" else ""), parts.path
    else:
        scp = re.match(r"^[^@/:]+@([^/:]+):(.+)$", location)  # git@host:owner/project.git
        host, project = scp.groups() if scp else (None, None)
    project = re.sub(r"(?:\.git)?/*$", "", (project or "").strip("/"))
    if host and project:
        if "gitlab" in host:
            return f"https://{host}/{project}/-/merge_requests/new?merge_request[source_branch]={branch}"
        return f"https://{host}/{project}/compare/{base_branch}...{branch}?expand=1"
    if parts.scheme in ("", "file"):
        return f"file://{remote_url(location)}#{branch}"
    return f"{hidden(location)}#{branch}"
