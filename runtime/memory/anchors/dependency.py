"""`dependency`: project P is declared in pyproject / requirements / lock / pre-commit / setup /
Pipfile files, optionally in a group or extra ("" = the main dependencies), optionally with a
specifier that every declared version must satisfy (`packaging`).

The group is a role: `pytest` declared in the `dev` extra does not verify "the runtime depends on
pytest".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version
from pydantic import Field, field_validator

from warrant.runtime.memory.anchors.base import AnchorBase, Outcome

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex
    from warrant.runtime.memory.scan.base import DepFact

Source = Literal["pyproject", "requirements", "lock", "pre-commit", "setup", "pipfile"]


class DependencyAnchor(AnchorBase):
    kind: Literal["dependency"] = "dependency"
    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$", max_length=200)]
    specifier: str | None = None  # e.g. ">=2,<3": what every declared version must satisfy
    group: str | None = None  # "" main, else an extra / dependency group / requirements file stem
    source: Source | None = None

    @field_validator("specifier")
    @classmethod
    def _valid_specifier(cls, v: str | None) -> str | None:
        if v is None:
            return v
        try:
            SpecifierSet(v)
        except InvalidSpecifier:
            raise ValueError(f"expected a PEP 440 version specifier such as '>=2,<3', got {v!r}") from None
        return v

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:
        manifests = index.dependency_manifests()
        if not manifests:
            return Outcome.INCONCLUSIVE, "no dependency manifest (pyproject, requirements, lock, setup) at HEAD", []
        name = canonicalize_name(self.name)
        declared = index.dependencies(name)
        role = [
            (path, d)
            for path, d in declared
            if (self.source is None or d.source == self.source) and (self.group is None or d.group == self.group)
        ]
        unread = [f for f in manifests if not f.readable]
        if not role:
            if unread:
                return Outcome.INCONCLUSIVE, f"{name} not found, but {unread[0].detail}", []
            if declared:
                elsewhere = ", ".join(sorted({f"{d.source} group {d.group or 'main'!r} ({p})" for p, d in declared}))
                want = f"group {self.group or 'main'!r}" if self.group is not None else f"source {self.source}"
                return Outcome.REFUTED, f"{name} is declared only as {elsewhere}, not in {want}", [p for p, _ in declared[:5]]
            return Outcome.REFUTED, f"{name} is not declared in {', '.join(sorted(f.path for f in manifests)[:6])}", []
        at = sorted({p for p, _ in role})[:5]
        if self.specifier is None:
            return Outcome.VERIFIED, f"{name} is declared in {', '.join(at)}", at
        want = SpecifierSet(self.specifier)
        # The declaration decides the role; a lock's pin of the same project says which version.
        locked = [(p, d) for p, d in declared if d.source == "lock" and (p, d) not in role]
        verdicts = [(p, d, satisfies(d, want)) for p, d in role + locked]
        ok = [(p, d) for p, d, o in verdicts if o is Outcome.VERIFIED]
        if ok:
            p, d = ok[0]
            return Outcome.VERIFIED, f"{name} {d.version or d.specifier or ''} ({p}) satisfies {self.specifier}".replace("  ", " "), [p]
        if all(o is Outcome.REFUTED for _, _, o in verdicts):
            found = "; ".join(f"{d.version or d.specifier or 'any'} in {p}" for p, d, _ in verdicts[:4])
            return Outcome.REFUTED, f"{name} is declared as {found}, outside {self.specifier}", at
        p, d, _ = next(v for v in verdicts if v[2] is Outcome.INCONCLUSIVE)
        return Outcome.INCONCLUSIVE, f"{name} is declared as {d.specifier or 'any version'} ({p}): some allowed versions fall outside {self.specifier}", at


def satisfies(dep: "DepFact", want: SpecifierSet) -> Outcome:
    """Does every version the declaration allows satisfy `want`? Exact for pins and locks; for
    ranges, decided on probe versions around every bound either side names (a range test, not
    a proof: undecided mixtures are INCONCLUSIVE)."""
    if dep.version:
        try:
            return Outcome.VERIFIED if want.contains(Version(dep.version), prereleases=True) else Outcome.REFUTED
        except InvalidVersion:
            return Outcome.INCONCLUSIVE
    try:
        have = SpecifierSet(dep.specifier)
    except InvalidSpecifier:
        return Outcome.INCONCLUSIVE
    probes = {Version("0"), Version("99999")}
    for spec in [*have, *want]:
        try:
            v = Version(spec.version.replace(".*", ""))
        except InvalidVersion:
            continue
        probes |= _around(v)
    allowed = [p for p in probes if have.contains(p, prereleases=False)]
    if not allowed:
        return Outcome.INCONCLUSIVE
    inside = [want.contains(p, prereleases=False) for p in allowed]
    if all(inside):
        return Outcome.VERIFIED
    if not any(inside):
        return Outcome.REFUTED
    return Outcome.INCONCLUSIVE


def _around(v: Version) -> set[Version]:
    rel = list(v.release) + [0] * (3 - len(v.release))
    out = {v}
    for i in range(3):
        up = rel[: i + 1]
        up[i] += 1
        out.add(Version(".".join(map(str, up))))
        if rel[i] > 0:
            down = rel[: i + 1]
            down[i] -= 1
            out.add(Version(".".join(map(str, down + [999] * (2 - i)))))
    out.add(Version(".".join(map(str, rel)) + ".post1"))
    return out
