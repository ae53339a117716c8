"""Python source: imports with the symbols that use them, definitions with defaults and assigned
literals, environment reads and writes. One pass over the AST per file, nothing imported or run."""

from __future__ import annotations

import ast
from typing import Any

from warrant.ledger.canonical import canonical_json
from warrant.runtime.memory.scan.base import (
    BINARY,
    NOT_UTF8,
    PARSE_ERROR,
    SYNTAX_ERROR,
    DefFact,
    EnvFact,
    FileFacts,
    ImportFact,
    ParamFact,
    ScanError,
    Scanner,
)

_SRC_MAX = 200
_LITERAL_MAX_ITEMS = 64  # a data table in code is not a default anyone states in a memory
_ENV_READ_METHODS = {"get": "read", "setdefault": "set", "pop": "set"}
_OS_ENV_FUNCS = {"getenv": "read", "putenv": "set", "unsetenv": "set"}
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def module_name(path: str) -> str:
    """Dotted module of a file: `src/pkg/mod.py` -> `pkg.mod`, `pkg/__init__.py` -> `pkg`.
    A leading `src/` is the common layout's package root and is dropped."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    return ".".join(parts)


def literal(node: ast.AST | None) -> tuple[str | None, str | None]:
    """(canonical JSON of the value if it is a JSON-able literal, else None; source if not)."""
    if node is None:
        return None, None
    if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and len(getattr(node, "elts", None) or getattr(node, "keys", ())) > _LITERAL_MAX_ITEMS:
        return None, f"<literal of {len(getattr(node, 'elts', None) or node.keys)} items>"
    try:
        value = _jsonable(ast.literal_eval(node))
        return canonical_json(value).decode(), None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        if not isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.BinOp, ast.UnaryOp)):
            return None, f"<{type(node).__name__.lower()} expression>"  # unparsing every lambda cost a tenth of a build
        try:
            src = ast.unparse(node)
        except Exception:  # noqa: BLE001 - unparse of an odd node only loses the display text
            src = "<expression>"
        return None, src[:_SRC_MAX]


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("not JSON")
        return v
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        return {k: _jsonable(x) for k, x in v.items()}
    raise ValueError("not JSON")


class _Walker:
    def __init__(self, module: str, is_package: bool):
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.imports: list[ImportFact] = []
        self.defs: list[DefFact] = []
        self.env: list[EnvFact] = []
        self.uses: dict[str, set[str]] = {"": set()}
        self.dynamic = False
        self.os_names: set[str] = set()
        self.environ_names: set[str] = set()
        self.env_func_names: dict[str, str] = {}
        self.qual: list[str] = []  # enclosing def/class names
        self.kinds: list[str] = []  # "class" | "function" per level
        self.active: list[set[str]] = [self.uses[""]]

    # -- scopes ------------------------------------------------------------------------------------
    @property
    def scope(self) -> str:
        return ".".join(self.qual)

    def _enter(self, name: str, kind: str) -> str:
        self.qual.append(name)
        self.kinds.append(kind)
        q = self.scope
        s = self.uses.setdefault(q, set())
        self.active = (self.active if len(self.qual) > 1 else []) + [s]
        return q

    def _leave(self) -> None:
        self.qual.pop()
        self.kinds.pop()
        self.active = [self.uses[".".join(self.qual[: i + 1])] for i in range(len(self.qual))] or [self.uses[""]]

    # -- the walk ----------------------------------------------------------------------------------
    def walk(self, node: ast.AST) -> None:
        t = type(node)
        if t is ast.Name:
            if type(node.ctx) is ast.Load:
                for s in self.active:
                    s.add(node.id)
            return
        handler = _HANDLERS.get(t)
        if handler is not None and handler(self, node):
            return
        self.walk_children(node, t)

    def walk_children(self, node: ast.AST, t: type | None = None) -> None:
        # ast.iter_child_nodes, without its generators and without the leaves that cannot hold a
        # name or a definition (contexts, operators, constants): the walk is most of a cold build.
        fields = _CHILD_FIELDS.get(t or type(node))
        if fields is None:
            fields = _child_fields(t or type(node))
        walk = self.walk
        for name in fields:
            v = getattr(node, name, None)
            if v is None:
                continue
            if v.__class__ is list:
                for x in v:
                    if isinstance(x, ast.AST) and type(x) not in _LEAVES:
                        walk(x)
            elif type(v) not in _LEAVES and isinstance(v, ast.AST):
                walk(v)

    def _def(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
        in_class = bool(self.kinds) and self.kinds[-1] == "class"
        if isinstance(node, ast.ClassDef):
            kind = "class"
            params: tuple[ParamFact, ...] = ()
        else:
            kind = "method" if in_class else "function"
            params = _params(node.args)
            if not self.qual and node.name == "__getattr__":
                self.dynamic = True  # PEP 562: the module may answer for names it never defines
        q = self._enter(node.name, "class" if kind == "class" else "function")
        self.defs.append(DefFact(q, kind, node.lineno, params=params))
        self.walk_children(node)
        self._leave()
        return True

    def _in_function(self) -> bool:
        return "function" in self.kinds

    def _assign(self, node: ast.Assign | ast.AnnAssign) -> bool:
        if self._in_function():
            self._instance_attributes(node)
        else:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            lit, src = literal(value) if value is not None else (None, None)
            for t in targets:
                if isinstance(t, ast.Name):
                    q = ".".join([*self.qual, t.id])
                    self.defs.append(DefFact(q, "attribute", node.lineno, lit, src))
                elif isinstance(t, (ast.Tuple, ast.List)):
                    for elt in t.elts:
                        if isinstance(elt, ast.Name):
                            q = ".".join([*self.qual, elt.id])
                            self.defs.append(DefFact(q, "attribute", node.lineno, None, "<unpacked>"))
        return False  # keep walking: the value may read the environment or use imports

    def _instance_attributes(self, node: ast.Assign | ast.AnnAssign) -> None:
        """`self.x = ...` in a method directly inside a class defines the attribute `Class.x`."""
        if len(self.kinds) < 2 or self.kinds[-2] != "class" or self.kinds[-1] != "function":
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                lit, src = literal(node.value) if node.value is not None else (None, None)
                q = ".".join([*self.qual[:-1], t.attr])
                self.defs.append(DefFact(q, "attribute", node.lineno, lit, src))

    def _import(self, node: ast.Import) -> bool:
        for a in node.names:
            bound = a.asname or a.name.split(".")[0]
            self.imports.append(ImportFact(a.name, None, bound, self.scope, node.lineno, ()))
            if a.name == "os":
                self.os_names.add(a.asname or "os")
        return True

    def _import_from(self, node: ast.ImportFrom) -> bool:
        module = self._resolve(node.module, node.level)
        for a in node.names:
            if a.name == "*":
                self.dynamic = True
                self.imports.append(ImportFact(module, "*", "*", self.scope, node.lineno, ()))
                continue
            bound = a.asname or a.name
            self.imports.append(ImportFact(module, a.name, bound, self.scope, node.lineno, ()))
            if module == "os":
                if a.name == "environ":
                    self.environ_names.add(bound)
                elif a.name in _OS_ENV_FUNCS:
                    self.env_func_names[bound] = a.name
        return True

    def _resolve(self, module: str | None, level: int) -> str:
        if not level:
            return module or ""
        base = self.package.split(".") if self.package else []
        if level > 1:
            base = base[: len(base) - (level - 1)] if level - 1 <= len(base) else []
        return ".".join([*base, *([module] if module else [])])

    # -- environment -------------------------------------------------------------------------------
    def _is_environ(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.environ_names
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "environ"
            and isinstance(node.value, ast.Name)
            and node.value.id in self.os_names
        )

    def _env(self, name_node: ast.AST | None, op: str, line: int, default: ast.AST | None, has_default: bool) -> None:
        if isinstance(name_node, ast.Constant) and isinstance(name_node.value, str):
            var, dynamic = name_node.value, False
        else:
            var, dynamic = (ast.unparse(name_node)[:_SRC_MAX] if name_node is not None else "?"), True
        lit, src = literal(default) if has_default else (None, None)
        self.env.append(EnvFact(var, self.scope, op, line, has_default, lit, src, dynamic))

    def _call(self, node: ast.Call) -> bool:
        f = node.func
        op = None
        if isinstance(f, ast.Attribute):
            if f.attr in _ENV_READ_METHODS and self._is_environ(f.value):
                op = _ENV_READ_METHODS[f.attr]
            elif f.attr in _OS_ENV_FUNCS and isinstance(f.value, ast.Name) and f.value.id in self.os_names:
                op = _OS_ENV_FUNCS[f.attr]
        elif isinstance(f, ast.Name) and f.id in self.env_func_names:
            op = _OS_ENV_FUNCS[self.env_func_names[f.id]]
        if op is not None:
            args = node.args
            default = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "default"), None)
            has_default = default is not None  # for a set, the value written
            self._env(args[0] if args else None, op, node.lineno, default if has_default else None, has_default)
        return False

    def _subscript(self, node: ast.Subscript) -> bool:
        if self._is_environ(node.value):
            op = "read" if isinstance(node.ctx, ast.Load) else "set"
            self._env(node.slice, op, node.lineno, None, False)
        return False

    def _compare(self, node: ast.Compare) -> bool:
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) and self._is_environ(node.comparators[0]):
            self._env(node.left, "read", node.lineno, None, False)
        return False

    def finish(self) -> list[ImportFact]:
        by_name: dict[str, list[str]] = {}
        for q, names in self.uses.items():
            for n in names:
                by_name.setdefault(n, []).append(q)
        return [imp._replace(used_in=tuple(sorted(by_name.get(imp.bound, ())))) for imp in self.imports]


_LEAVES = frozenset(
    {ast.Load, ast.Store, ast.Del, ast.Constant, ast.Pass, ast.Break, ast.Continue}
    | {c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop))}
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(t: type) -> tuple[str, ...]:
    fields = tuple(f for f in t._fields if f not in ("ctx", "type_comment", "kind"))
    _CHILD_FIELDS[t] = fields
    return fields


_HANDLERS = {
    ast.FunctionDef: _Walker._def,
    ast.AsyncFunctionDef: _Walker._def,
    ast.ClassDef: _Walker._def,
    ast.Assign: _Walker._assign,
    ast.AnnAssign: _Walker._assign,
    ast.Import: _Walker._import,
    ast.ImportFrom: _Walker._import_from,
    ast.Call: _Walker._call,
    ast.Subscript: _Walker._subscript,
    ast.Compare: _Walker._compare,
}


def _params(args: ast.arguments) -> tuple[ParamFact, ...]:
    out = []
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.AST | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for a, d in zip(positional, defaults):
        out.append(_param(a.arg, d))
    if args.vararg:
        out.append(ParamFact(args.vararg.arg, False, None, None))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append(_param(a.arg, d))
    if args.kwarg:
        out.append(ParamFact(args.kwarg.arg, False, None, None))
    return tuple(out)


def _param(name: str, default: ast.AST | None) -> ParamFact:
    if default is None:
        return ParamFact(name, False, None, None)
    lit, src = literal(default)
    return ParamFact(name, True, lit, src)


class PythonScanner(Scanner):
    name = "python"

    def matches(self, path: str) -> bool:
        return path.endswith(".py")

    def scan(self, path: str, data: bytes, facts: FileFacts) -> None:
        if b"\x00" in data:
            raise ScanError(BINARY, f"{path} holds NUL bytes: not Python source")
        try:
            tree = ast.parse(data, filename=path)  # bytes: PEP 263 coding cookies and BOMs honoured
        except SyntaxError as exc:
            msg = str(exc.msg)
            if "codec can't decode" in msg or "unicode error" in msg or "encoding problem" in msg:
                raise ScanError(NOT_UTF8, f"{path} cannot be decoded as its declared encoding: {msg}") from None
            raise ScanError(SYNTAX_ERROR, f"{path} does not parse: line {exc.lineno}: {msg}") from None
        except (ValueError, RecursionError, MemoryError) as exc:
            raise ScanError(PARSE_ERROR, f"{path} does not parse: {type(exc).__name__}: {exc}") from None
        w = _Walker(module_name(path), path.endswith("__init__.py"))
        try:
            for node in tree.body:
                w.walk(node)
        except RecursionError:
            raise ScanError(PARSE_ERROR, f"{path} nests too deeply to walk") from None
        facts.imports.extend(w.finish())
        facts.defs.extend(w.defs)
        facts.env.extend(w.env)
        facts.dynamic = facts.dynamic or w.dynamic
