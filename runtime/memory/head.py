"""The repository memory is verified against: its HEAD (re-read at most every `ttl_s`), the tree
of a commit, and blobs read from the commit, never from the working tree (an uncommitted edit is
not the code anyone else will run).

States that are not errors but limit what can be decided: no commits yet (nothing to verify
against: every anchor is INCONCLUSIVE), a detached HEAD (verified against that commit), a shallow
clone (HEAD's tree is complete; only the incremental update may fall back to a full build).
"""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import git
from gitdb.exc import BadName, BadObject

from warrant.runtime.memory.errors import RepositoryError


@dataclass(frozen=True)
class HeadState:
    sha: str | None  # None: the repository has no commits
    ref: str | None  # branch name, None when detached
    detached: bool
    shallow: bool
    read_at: float  # clock() when HEAD was read

    @property
    def problem(self) -> str | None:
        return None if self.sha else "the repository has no commits yet: there is nothing to verify against"


@dataclass(frozen=True)
class TreeEntry:
    path: str
    mode: str
    blob: str
    size: int


class GitHead:
    def __init__(self, path: str | Path, *, ttl_s: float = 30.0, clock: Callable[[], float] = time.monotonic):
        p = Path(path).expanduser()
        if not p.exists():
            raise RepositoryError(f"repo: {p} does not exist")
        if not p.is_dir():
            raise RepositoryError(f"repo: {p} is a file, expected a git repository's folder")
        try:
            self.repo = git.Repo(p, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise RepositoryError(f"repo: {p} is not inside a git repository (no .git found)") from None
        self.root = Path(self.repo.working_tree_dir or self.repo.git_dir).resolve()
        self.ttl_s = ttl_s
        self.clock = clock
        self._state: HeadState | None = None
        self._lock = threading.Lock()

    @property
    def shallow(self) -> bool:
        return (Path(self.repo.common_dir) / "shallow").exists()

    def state(self, *, force: bool = False) -> HeadState:
        """HEAD as of at most `ttl_s` ago: reading it costs a file read and a ref lookup, and a
        load must stay within its budget; a HEAD that moved is seen within the TTL."""
        now = self.clock()
        with self._lock:
            s = self._state
            if s is not None and not force and now - s.read_at < self.ttl_s:
                return s
            self._state = s = self._read(now)
            return s

    def _read(self, now: float) -> HeadState:
        head = self.repo.head
        detached = head.is_detached
        ref = None if detached else head.reference.name
        try:
            sha = head.commit.hexsha
        except (ValueError, BadName, BadObject, git.GitCommandError):
            sha = None  # an unborn branch: `git init` and nothing committed yet
        return HeadState(sha, ref, detached, self.shallow, now)

    def has_commit(self, sha: str) -> bool:
        try:
            self.repo.commit(sha)
            return True
        except (ValueError, BadName, BadObject, git.GitCommandError):
            return False

    def tree(self, sha: str) -> list[TreeEntry]:
        """Every path at commit `sha` (blobs, symlinks, submodules), one `git ls-tree` call."""
        try:
            out = self.repo.git.ls_tree("-r", "-z", "-l", "--full-tree", sha)
        except git.GitCommandError as exc:
            raise RepositoryError(f"repo: cannot list commit {sha}: {str(exc.stderr).strip() or exc}") from None
        entries = []
        for rec in out.split("\0"):
            if not rec:
                continue
            meta, _, path = rec.partition("\t")
            mode, _kind, blob, size = meta.split()
            entries.append(TreeEntry(path, mode, blob, int(size) if size.isdigit() else 0))
        return entries

    def blobs(self, shas: list[str]) -> Iterator[tuple[str, bytes]]:
        """(sha, bytes) for each blob: one `git cat-file --batch` process fed every id at once
        (one round trip per blob through GitPython's persistent process cost more than parsing)."""
        if not shas:
            return
        proc = subprocess.run(
            [git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git", "cat-file", "--batch"],
            cwd=self.repo.git_dir,
            input="\n".join(shas).encode() + b"\n",
            capture_output=True,
            check=False,
        )
        if proc.returncode != 0:
            raise RepositoryError(f"repo: git cat-file failed: {proc.stderr.decode(errors='replace').strip()}")
        out = proc.stdout
        pos = 0
        for sha in shas:
            nl = out.index(b"\n", pos)
            header = out[pos:nl].split()
            if len(header) < 3 or header[1] != b"blob":
                raise RepositoryError(f"repo: object {sha} is not a readable blob ({out[pos:nl].decode(errors='replace')})")
            size = int(header[2])
            start = nl + 1
            yield sha, out[start : start + size]
            pos = start + size + 1

    def close(self) -> None:
        self.repo.close()
