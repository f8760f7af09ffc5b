"""The bad-input matrix: every wire format, every position of a rich valid
request replaced by every hostile value (wrong types, None, empties, huge
ints, NaN, lone surrogates, NUL, bytes, objects that raise on every access,
mappings that change while being read) or deleted. Each mutated request
either evaluates, with results satisfying the spec §8 invariants (checked by
the library's own ``invariant_problems``) and no ``unknown_internal_error``,
or raises ``WireFormatError`` naming a JSON path on the way to the bad value,
and never anything else. Both implementations.

The hostile values, ``outcome`` and ``check_result`` are tests/support/hostile.py."""

from __future__ import annotations

from typing import Any, Dict, Iterator, Tuple

import pytest

from support.hostile import FORMATS, SECRET, acting_outcome, hostile_values, outcome

# --- templates: one rich, valid request per wire format -------------------------------------

S = SECRET
LIVE = "now fix the trailing comma bug in config_loader.go " + S


def _openai() -> Dict[str, Any]:
    return {"model": "m", "tools": [{"type": "function", "function": {"name": "read_file"}}],
            "functions": [], "tool_choice": "auto", "messages": [
                {"role": "system", "content": "be brief " + S},
                {"role": "developer", "content": [{"type": "text", "text": S}]},
                {"role": "user", "content": [
                    {"type": "text", "text": "parse config_loader.go " + S},
                    {"type": "image_url", "image_url": {"url": S}},
                    {"type": "input_audio", "input_audio": {}}]},
                {"role": "assistant", "content": "reading it " + S, "refusal": S,
                 "reasoning_content": S,
                 "tool_calls": [{"id": "c1", "type": "function",
                                 "function": {"name": "read_file", "arguments": '{"p": 1}'}},
                                {"id": "c2", "type": "custom",
                                 "custom": {"name": "grep", "input": S}}],
                 "function_call": {"name": "legacy", "arguments": "{}"}},
                {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": S}]},
                {"role": "tool", "tool_call_id": "c2", "content": S},
                {"role": "function", "name": "legacy", "content": S},
                {"role": "assistant", "content": [{"type": "refusal", "refusal": S},
                                                  {"type": "output_text", "text": S}],
                 "reasoning": S},
                {"role": "user", "content": LIVE}]}


def _anthropic() -> Dict[str, Any]:
    return {"model": "m", "system": [{"type": "text", "text": S}], "tools": [{"name": "read_file"}],
            "tool_choice": {"type": "auto"}, "messages": [
                {"role": "user", "content": "parse config_loader.go " + S},
                {"role": "assistant", "content": [
                    {"type": "thinking", "thinking": S, "signature": "x"},
                    {"type": "redacted_thinking", "data": S},
                    {"type": "text", "text": "calling " + S},
                    {"type": "tool_use", "id": "t1", "name": "read_file",
                     "input": {"path": S, "n": [1, {"z": None}], "f": 1.5}}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "is_error": False, "content": [
                        {"type": "text", "text": S},
                        {"type": "image", "source": {"type": "base64", "data": S}},
                        {"type": "tool_result", "tool_use_id": "t0", "content": S}]},
                    {"type": "tool_result", "tool_use_id": "t1", "content": S},
                    {"type": "tool_result", "tool_use_id": "t1"},
                    {"type": "text", "text": "thanks " + S}]},
                {"role": "assistant", "content": "Fixed config_loader.go " + S},
                {"role": "system", "content": S},
                {"role": "user", "content": [{"type": "text", "text": LIVE},
                                             {"type": "document", "source": {"data": S}}]}]}


def _responses() -> Dict[str, Any]:
    return {"model": "m", "instructions": S, "tools": [{"type": "function"}], "input": [
        {"role": "user", "content": "parse config_loader.go " + S},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": S}, {"type": "refusal", "refusal": S}]},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": S}],
         "content": [{"type": "reasoning_text", "text": S}]},
        {"type": "function_call", "call_id": "c1", "id": "fc1", "name": "read_file",
         "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": S},
        {"type": "custom_tool_call", "call_id": "c2", "name": "grep", "input": S},
        {"type": "custom_tool_call_output", "call_id": "c2",
         "output": [{"type": "input_text", "text": S}, {"type": "input_image", "image_url": S}]},
        {"type": "message", "role": "developer", "content": S},
        {"role": "user", "content": [{"type": "input_text", "text": LIVE},
                                     {"type": "input_file", "file_id": S}]}]}


def _neutral() -> Dict[str, Any]:
    return {"history_available": True, "tools": [], "messages": [
        {"role": "system", "content": [{"type": "text", "text": S}]},
        {"role": "user", "content": [{"type": "text", "text": "parse config_loader.go " + S}]},
        {"role": "assistant", "content": [
            {"type": "reasoning", "text": S},
            {"type": "tool_call", "id": "c1", "name": "read_file", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "tool_result", "call_id": "c1", "content": [
            {"type": "text", "text": S},
            {"type": "tool_result", "call_id": "c0", "content": [{"type": "image"}]}]}]},
        {"role": "assistant", "content": [{"type": "refusal", "text": S}, {"type": "audio"},
                                          {"type": "text", "text": "fixed " + S}]},
        {"role": "user", "content": [{"type": "text", "text": LIVE}]}]}


TEMPLATES = {"openai": _openai, "anthropic": _anthropic, "responses": _responses,
             "neutral": _neutral}
# ``auto`` runs on every template: detection must never be the weak spot.
MATRIX = [(format_, name) for name in TEMPLATES for format_ in (name, "auto")]

Path = Tuple[Any, ...]
# Values with a plain-data deep copy: the request must compare equal afterwards.
_PLAIN = {"none", "int", "huge_int", "float", "nan", "inf", "bool", "str", "empty_str",
          "surrogate", "nul", "bytes", "empty_list", "empty_dict", "list_of_none",
          "list_of_str", "dict_junk", "nested_list", "set"}


def positions(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every position of a JSON-shaped value, the root included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from positions(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from positions(item, (*path, index))


def json_path(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def replaced(template: Any, path: Path, value: Any, delete: bool = False) -> Any:
    if not path:
        return value
    parent = template
    for part in path[:-1]:
        parent = parent[part]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return template


def _related(error_path: str, path: Path) -> bool:
    """The error names the bad value, a container of it, or something inside
    its container (a sibling: a changed ``type`` makes ``role`` required)."""
    return (json_path(path).startswith(error_path)
            or error_path.startswith(json_path(path[:-1])))


def _check_mutation(implementation: str, format_: str, name: str, path: Path,
                    label: str, value: Any, delete: bool = False) -> None:
    request = replaced(TEMPLATES[name](), path, value, delete)
    before = TEMPLATES[name]() if label in _PLAIN or delete else None
    if before is not None:
        before = replaced(before, path, value, delete)
    _, error = outcome(implementation, request, format_)
    where = json_path(path)
    if error is not None and format_ != "auto":
        assert _related(error.path, path), (where, label, error.path, error.problem)
    # The rules built for acting, and the history reset acting on them.
    acting_outcome(implementation, request, format_, plain=before is not None)
    if before is not None:
        assert [request] == [before], f"request mutated at {where} ({label})"  # NaN: identity


def test_templates_are_valid(implementation: str) -> None:
    for name, build in TEMPLATES.items():
        # ``auto`` never picks the neutral format (its tool_result blocks read as Anthropic).
        for format_ in (name, "auto") if name != "neutral" else (name,):
            evaluation, error = outcome(implementation, build(), format_)
            assert error is None, (name, format_, error)
            assert evaluation is not None and evaluation.format == name


@pytest.mark.parametrize(("format_", "name"), MATRIX)
def test_every_position_every_hostile_value(implementation: str, format_: str,
                                            name: str) -> None:
    for path in positions(TEMPLATES[name]()):
        for label, value in hostile_values().items():
            try:
                _check_mutation(implementation, format_, name, path, label, value)
            except AssertionError as failure:
                raise AssertionError(f"{format_}/{name} at {json_path(path)!r} <- {label}: "
                                     f"{failure}") from None


@pytest.mark.parametrize(("format_", "name"), MATRIX)
def test_every_key_deleted(implementation: str, format_: str, name: str) -> None:
    template = TEMPLATES[name]()
    for path in positions(template):
        if not path or isinstance(path[-1], int):
            continue
        try:
            _check_mutation(implementation, format_, name, path, "deleted", None, delete=True)
        except AssertionError as failure:
            raise AssertionError(f"{format_}/{name}: deleting {json_path(path)!r}: "
                                 f"{failure}") from None


@pytest.mark.parametrize("format_", FORMATS)
@pytest.mark.parametrize("label", sorted(hostile_values()))
def test_hostile_value_as_whole_request(implementation: str, format_: str, label: str) -> None:
    outcome(implementation, hostile_values()[label], format_)


@pytest.mark.parametrize("format_", FORMATS)
def test_hostile_values_as_every_message(implementation: str, format_: str) -> None:
    key = "input" if format_ == "responses" else "messages"
    values = list(hostile_values().values())
    outcome(implementation, {key: values}, format_)  # every item hostile at once
    outcome(implementation, values, format_)  # a bare list of them
