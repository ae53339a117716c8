"""The tool registry: loading, refusing bad spec files by name, freezing, strict validators."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from warrant.runtime.registry import (
    RegistryError,
    ToolRegistry,
    UnknownTool,
    UnknownVersion,
    make_validator,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "invoice_audit" / "tools"
ENTRY = "warrant.examples.invoice_audit.tools_impl:lookup_invoice"


def spec(name: str = "probe", version: str = "1", **over: object) -> dict:
    s = {
        "name": name,
        "version": version,
        "description": "a probe tool",
        "irreversible": False,
        "timeout_s": 1,
        "entrypoint": ENTRY,
        "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False},
        "output_schema": {"type": "object"},
    }
    s.update(over)
    return s


def write(root: Path, rel: str, content: object) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(content if isinstance(content, str) else json.dumps(content))
    return p


def load_error(tmp_path: Path) -> RegistryError:
    with pytest.raises(RegistryError) as info:
        ToolRegistry.load(tmp_path)
    return info.value


def test_examples_load_and_hash_is_stable():
    a = ToolRegistry.load(EXAMPLES)
    b = ToolRegistry.load(EXAMPLES)
    assert a.names() == ["flag_invoice_line", "lookup_engagement_terms", "lookup_invoice", "send_email"]
    assert a.hash == b.hash and len(a.hash) == 64
    assert a.get("flag_invoice_line").irreversible and a.get("send_email").irreversible
    assert not a.get("lookup_invoice").irreversible
    assert [s.name for s in a.specs()] == a.names()


def test_hash_covers_every_field(tmp_path):
    write(tmp_path, "probe/1.json", spec())
    h1 = ToolRegistry.load(tmp_path).hash
    write(tmp_path, "probe/1.json", spec(timeout_s=2))
    assert ToolRegistry.load(tmp_path).hash != h1


def test_get_resolves_highest_version_numerically(tmp_path):
    for v in ("1", "1.9", "1.10", "0.5"):
        write(tmp_path, f"probe/{v}.json", spec(version=v))
    reg = ToolRegistry.load(tmp_path)
    assert reg.get("probe").version == "1.10"
    assert reg.get("probe", "1.9").version == "1.9"
    assert reg.versions("probe") == ["0.5", "1", "1.9", "1.10"]
    with pytest.raises(UnknownVersion) as info:
        reg.get("probe", "2")
    assert info.value.known == ["0.5", "1", "1.9", "1.10"]
    with pytest.raises(UnknownTool):
        reg.get("nope")


def test_invalid_json_names_the_file(tmp_path):
    p = write(tmp_path, "probe/1.json", '{"name": "probe",')
    err = load_error(tmp_path)
    assert str(p) in str(err) and "not valid JSON" in str(err)


def test_duplicate_json_keys_are_refused(tmp_path):
    text = json.dumps(spec())[:-1] + ', "irreversible": true}'
    p = write(tmp_path, "probe/1.json", text)
    err = load_error(tmp_path)
    assert str(p) in str(err) and "duplicate key 'irreversible'" in str(err)


def test_missing_field_names_file_and_field(tmp_path):
    s = spec()
    del s["timeout_s"]
    p = write(tmp_path, "probe/1.json", s)
    err = load_error(tmp_path)
    assert err.origin == str(p) and err.field == "timeout_s"
    assert str(p) in str(err) and "timeout_s" in str(err)


def test_extra_field_is_refused(tmp_path):
    write(tmp_path, "probe/1.json", spec(owner="agent"))
    assert load_error(tmp_path).field == "owner"


@pytest.mark.parametrize(
    "over, field",
    [
        ({"timeout_s": 0}, "timeout_s"),
        ({"timeout_s": "5"}, "timeout_s"),
        ({"irreversible": 1}, "irreversible"),
        ({"version": "v1"}, "version"),
        ({"name": "Probe-Tool"}, "name"),
        ({"entrypoint": "no_colon_here"}, "entrypoint"),
    ],
)
def test_bad_field_values(tmp_path, over, field):
    write(tmp_path, "probe/1.json", spec(**over))
    assert load_error(tmp_path).field == field


def test_invalid_input_schema_names_the_schema_field(tmp_path):
    p = write(tmp_path, "probe/1.json", spec(input_schema={"type": "object", "properties": {"a": {"type": "strng"}}}))
    err = load_error(tmp_path)
    assert str(p) in str(err) and err.field.startswith("input_schema") and "not a valid JSON Schema" in str(err)


def test_invalid_output_schema(tmp_path):
    write(tmp_path, "probe/1.json", spec(output_schema={"type": "object", "minProperties": -1}))
    assert load_error(tmp_path).field.startswith("output_schema")


def test_input_schema_must_describe_an_object(tmp_path):
    write(tmp_path, "probe/1.json", spec(input_schema={"type": "string"}))
    assert load_error(tmp_path).field.startswith("input_schema")


def test_uncheckable_format_is_refused(tmp_path):
    # jsonschema checks "uri" only with an optional package; unchecked it would pass anything.
    s = spec(input_schema={"type": "object", "properties": {"u": {"type": "string", "format": "no-such-format"}}})
    write(tmp_path, "probe/1.json", s)
    err = load_error(tmp_path)
    assert err.field == "input_schema.properties.u.format" and "no-such-format" in str(err)


def test_missing_entrypoint_function_names_the_file(tmp_path):
    p = write(tmp_path, "probe/1.json", spec(entrypoint="warrant.examples.invoice_audit.tools_impl:no_such_function"))
    err = load_error(tmp_path)
    assert str(p) in str(err) and err.field == "entrypoint" and "no_such_function" in str(err)


def test_missing_entrypoint_module(tmp_path):
    write(tmp_path, "probe/1.json", spec(entrypoint="no_such_package.tools:run"))
    err = load_error(tmp_path)
    assert err.field == "entrypoint" and "no_such_package" in str(err)


def test_duplicate_name_version_is_an_error(tmp_path):
    write(tmp_path, "a/probe.json", spec())
    p = write(tmp_path, "b/probe.json", spec())
    err = load_error(tmp_path)
    assert "duplicate" in str(err) and str(p) in str(err)


def test_versions_equal_after_padding_are_duplicates(tmp_path):
    write(tmp_path, "probe/1.json", spec(version="1"))
    write(tmp_path, "probe/1.0.json", spec(version="1.0"))
    assert "duplicate" in str(load_error(tmp_path))


def test_empty_or_missing_directory(tmp_path):
    assert "no tool spec files" in str(load_error(tmp_path))
    with pytest.raises(RegistryError):
        ToolRegistry.load(tmp_path / "absent")


def test_registry_is_frozen():
    reg = ToolRegistry.load(EXAMPLES)
    with pytest.raises(AttributeError):
        reg.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        reg._tools = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        reg.tools[("evil", "1")] = reg.get("lookup_invoice")  # type: ignore[index]
    for name in ("register", "add", "remove", "update"):
        assert not hasattr(reg, name)


def test_editing_returned_specs_changes_nothing():
    reg = ToolRegistry.load(EXAMPLES)
    h = reg.hash
    s = reg.specs()[0]
    s.input_schema["properties"].clear()
    s.input_schema["additionalProperties"] = True
    tool = reg.get("flag_invoice_line")
    tool.spec.input_schema["properties"]["reason"] = {"type": "string"}
    assert reg.hash == h
    errors = list(tool.input_validator.iter_errors({"invoice_id": "INV-1", "line_id": "1", "reason": "exceed_cap"}))
    assert [e.validator for e in errors] == ["enum"]


def test_from_specs_with_implementations():
    calls = []
    s = spec()
    del s["entrypoint"]
    reg = ToolRegistry.from_specs([s], implementations={("probe", "1"): lambda a: calls.append(a) or {}})
    assert reg.get("probe").fn({"a": 1}) == {} and calls == [{"a": 1}]
    with pytest.raises(RegistryError, match="entrypoint"):
        ToolRegistry.from_specs([s])  # no implementation: the entrypoint is required
    with pytest.raises(RegistryError, match="no spec"):
        ToolRegistry.from_specs([spec()], implementations={("other", "1"): lambda a: {}})


def test_from_specs_errors_name_the_spec():
    with pytest.raises(RegistryError) as info:
        ToolRegistry.from_specs([spec(), spec(name="second", timeout_s=-1)])
    assert "spec[1]" in str(info.value) and info.value.field == "timeout_s"


# -- the strict validator -------------------------------------------------------------------------

SCHEMA = {
    "type": "object",
    "properties": {
        "i": {"type": "integer"},
        "n": {"type": "number"},
        "b": {"type": "boolean"},
        "e": {"type": "string", "format": "email"},
        "d": {"type": "string", "format": "date"},
    },
}


@pytest.mark.parametrize(
    "args, ok",
    [
        ({"i": 14}, True),
        ({"i": "14"}, False),
        ({"i": 14.5}, False),
        ({"i": 14.0}, False),  # deliberate: stricter than the draft (see runtime/registry.py)
        ({"i": True}, False),
        ({"n": 2.5}, True),
        ({"n": 2}, True),
        ({"n": "14"}, False),
        ({"n": False}, False),
        ({"b": True}, True),
        ({"b": 1}, False),
        ({"b": "true"}, False),
        ({"e": "ap@example.com"}, True),
        ({"e": "not an email"}, False),
        ({"d": "2026-11-29"}, True),
        ({"d": "29/11/2026"}, False),
    ],
)
def test_strict_validator_no_coercion(args, ok):
    assert (not list(make_validator(copy.deepcopy(SCHEMA)).iter_errors(args))) is ok
