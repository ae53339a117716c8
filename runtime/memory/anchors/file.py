"""`file`: a path or folder exists at HEAD (or, with present=false, no longer does)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from warrant.runtime.memory.anchors.base import AnchorBase, Outcome, RepoPath

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex


class FileAnchor(AnchorBase):
    kind: Literal["file"] = "file"
    path: RepoPath
    present: bool = True

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:
        is_file = index.file(self.path) is not None
        is_dir = not is_file and index.is_dir(self.path)
        exists = is_file or is_dir
        what = "file" if is_file else "folder"
        if exists and self.present:
            return Outcome.VERIFIED, f"{what} {self.path} exists at HEAD", [self.path]
        if not exists and not self.present:
            return Outcome.VERIFIED, f"{self.path} is absent at HEAD, as claimed", []
        if exists:
            return Outcome.REFUTED, f"{what} {self.path} exists at HEAD, but the memory says it is gone", [self.path]
        return Outcome.REFUTED, f"{self.path} does not exist at HEAD", []
