"""Loading configuration: YAML and JSON files, in-memory shapes, and errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from turnsignal.config import (
    TopicContinuityRule,
    load_routing,
    load_topic_continuity_rules,
)
from turnsignal.errors import ConfigError

P = "routing.signals.topic_continuity"

YAML_DOC = """\
routing:
  signals:
    topic_continuity:
      - name: topic_boundary
      - name: strict
        description: tighter thresholds
        include_assistant: false
        thresholds:
          continuation: 0.5
          change: 0.1
        limits:
          max_prior_turns: 2
          max_turn_bytes: 512
  decisions: []
"""

STRICT = TopicContinuityRule(name="strict", description="tighter thresholds",
                             include_assistant=False, continuation=0.5, change=0.1,
                             max_prior_turns=2, max_turn_bytes=512)
EXPECTED = (TopicContinuityRule(name="topic_boundary"), STRICT)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_lines(source: object) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_topic_continuity_rules(source)  # type: ignore[arg-type]
    return str(caught.value).splitlines()


# ---------------------------------------------------------------- files

def test_yaml_file(tmp_path: Path) -> None:
    path = write(tmp_path, "router.yaml", YAML_DOC)
    assert load_topic_continuity_rules(path) == EXPECTED
    assert load_topic_continuity_rules(str(path)) == EXPECTED
    assert load_routing(path)["decisions"] == []
    assert STRICT.max_input_bytes == 3 * 512


def test_json_file(tmp_path: Path) -> None:
    path = write(tmp_path, "router.json", json.dumps(yaml.safe_load(YAML_DOC)))
    assert load_topic_continuity_rules(path) == EXPECTED


def test_json_content_is_recognised_whatever_the_file_name(tmp_path: Path) -> None:
    # PyYAML (YAML 1.1) would read 1e-07 as a string; JSON reads it as a number,
    # so the reported problem is the thresholds range, not a type error.
    doc = [{"name": "r", "thresholds": {"continuation": 1e-07}}]
    path = write(tmp_path, "rules.conf", json.dumps(doc))
    assert error_lines(path) == [
        f"{path}: {P}[0]: thresholds must satisfy 0 <= change < continuation < 1,"
        " got change=0.08 continuation=1e-07"]


def test_yaml_exponent_floats_are_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", "- name: r\n  thresholds:\n    change: 1e-3\n"
                                     "    continuation: 5E-1\n")
    (rule,) = load_topic_continuity_rules(path)
    assert (rule.change, rule.continuation) == (0.001, 0.5)
    # The global SafeLoader is left alone.
    assert yaml.safe_load("x: 1e-3") == {"x": "1e-3"}


def test_yaml_flow_mapping_that_is_not_json(tmp_path: Path) -> None:
    path = write(tmp_path, "flow.yaml", "{routing: {signals: {topic_continuity: [{name: a}]}}}")
    assert load_topic_continuity_rules(path) == (TopicContinuityRule(name="a"),)


@pytest.mark.parametrize("name", ["routing.yaml", "routing.json"])
def test_routing_mapping_file(tmp_path: Path, name: str) -> None:
    routing = {"signals": {"topic_continuity": [{"name": "a"}]}}
    path = write(tmp_path, name, json.dumps(routing))
    assert load_routing(path) == routing
    assert load_topic_continuity_rules(path) == (TopicContinuityRule(name="a"),)


def test_bare_list_file(tmp_path: Path) -> None:
    path = write(tmp_path, "rules.yaml", "- name: a\n- name: b\n  include_assistant: false\n")
    assert load_routing(path) == {
        "signals": {"topic_continuity": [{"name": "a"},
                                         {"name": "b", "include_assistant": False}]}}
    assert [r.name for r in load_topic_continuity_rules(path)] == ["a", "b"]


def test_every_problem_of_a_file_is_listed(tmp_path: Path) -> None:
    text = ("routing:\n  signals:\n    topic_continuity:\n"
            "      - name: ' a'\n"
            "      - name: b\n        tresholds: {change: 0.5}\n"
            "      - name: c\n        limits: {max_prior_turns: 2, max_turn_bytes: 256}\n")
    path = write(tmp_path, "c.yaml", text)
    assert error_lines(path) == [  # each names the file
        f"{path}: {P}[0]: name must not contain surrounding whitespace",
        f'{path}: {P}[1]: unknown key "tresholds"; did you mean "thresholds"?',
        f"{path}: {P}[2]: limits.max_input_bytes must be in [1024, 1048576], got 768",
    ]


# ---------------------------------------------------------------- file errors

def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.yaml"
    (line,) = error_lines(path)
    assert line.startswith(f"{path}: cannot read the file")


def test_directory_is_not_a_file(tmp_path: Path) -> None:
    (line,) = error_lines(tmp_path)
    assert line == f"{tmp_path}: is a directory, not a regular file; give a YAML or JSON file"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"- name: caf\xe9\n")
    assert error_lines(path) == [f"{path}: not valid UTF-8 (byte offset 11)"]


def test_bad_yaml_names_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "routing:\n  signals: [unclosed\n")
    (line,) = error_lines(path)
    assert line.startswith(f"{path}:3:1: invalid YAML: ")


def test_a_control_character_in_yaml_is_one_line(tmp_path: Path) -> None:
    """The YAML reader's own errors have no line mark: one line, where it
    stands by character (a second line once said `in "<unicode string>"`)."""
    path = write(tmp_path, "nul.yaml", "routing:\n  signals: {}\n# \x00\n")
    assert error_lines(path) == [f"{path}: invalid YAML: unacceptable character #x0000:"
                                 " control characters are not allowed (character 26)"]


def test_bad_json_file_reports_the_json_error(tmp_path: Path) -> None:
    # Valid YAML (signals: null), but a .json file must be JSON.
    path = write(tmp_path, "bad.json", '{"routing": {"signals": }}')
    assert error_lines(path) == [f"{path}:1:25: invalid JSON: Expecting value"]
    yaml_path = write(tmp_path, "lenient.yaml", '{"routing": {"signals": }}')
    assert load_topic_continuity_rules(yaml_path) == ()


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.yaml", "- name: a\n  name: b\n")
    (line,) = error_lines(path)
    assert line.startswith(f"{path}:2:3: invalid YAML: ")
    assert 'found duplicate key "name"' in line


def test_duplicate_json_key(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.json", '[{"name": "a", "name": "b"}]')
    assert error_lines(path) == [f'{path}: duplicate key "name"']


def test_unsafe_yaml_tags_are_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "evil.yaml", "- !!python/object/apply:os.system ['true']\n")
    (line,) = error_lines(path)
    assert line.startswith(f"{path}:1:3: invalid YAML: ")


def test_empty_file(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "# nothing here\n")
    assert error_lines(path) == [f"{path}: the document is empty"]


@pytest.mark.parametrize(("text", "kind"), [("hello", "string"), ("42", "integer")])
def test_scalar_document(tmp_path: Path, text: str, kind: str) -> None:
    path = write(tmp_path, "scalar.yaml", text)
    assert error_lines(path) == [
        f"{path}: expected a mapping (a routing configuration) or a list of"
        f" topic_continuity rules, got {kind}"]


def test_routing_must_be_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "r.yaml", "routing:\n  - name: a\n")
    assert error_lines(path) == [f"{path}: routing: must be a mapping, got list"]


# ---------------------------------------------------------------- in memory

def test_in_memory_shapes() -> None:
    rules = [{"name": "a"}]
    routing = {"signals": {"topic_continuity": rules}, "decisions": []}
    assert load_routing({"routing": routing, "other": 1}) == routing
    assert load_routing(routing) == routing
    assert load_routing(rules) == {"signals": {"topic_continuity": rules}}
    assert load_routing(tuple(rules)) == {"signals": {"topic_continuity": tuple(rules)}}
    for source in ({"routing": routing}, routing, rules, tuple(rules)):
        assert load_topic_continuity_rules(source) == (TopicContinuityRule(name="a"),)


def test_in_memory_instances() -> None:
    rule = TopicContinuityRule(name="x", continuation=0.5)
    assert load_topic_continuity_rules([rule]) == (rule,)


@pytest.mark.parametrize("routing", [
    {}, {"signals": None}, {"signals": {}}, {"signals": {"topic_continuity": None}},
    {"signals": {"keyword": []}}, {"routing": {}},
])
def test_no_rules_gives_an_empty_tuple(routing: dict) -> None:
    assert load_topic_continuity_rules(routing) == ()


def test_empty_rule_list_gives_an_empty_tuple() -> None:
    assert load_topic_continuity_rules([]) == ()


def test_signals_must_be_a_mapping() -> None:
    assert error_lines({"signals": [1]}) == ["routing.signals: must be a mapping, got list"]


def test_topic_continuity_must_be_a_list() -> None:
    assert error_lines({"signals": {"topic_continuity": {"name": "a"}}}) == [
        f"{P}: must be a list of rules, got mapping"]


def test_a_single_rule_mapping_is_not_a_routing_mapping() -> None:
    (line,) = error_lines({"name": "a", "thresholds": {}})
    assert "single topic_continuity rule" in line


@pytest.mark.parametrize(("source", "kind"), [(42, "integer"), (None, "null"), (b"x", "bytes")])
def test_wrong_in_memory_type(source: object, kind: str) -> None:
    assert error_lines(source) == [
        "expected a mapping (a routing configuration) or a list of"
        f" topic_continuity rules, got {kind}"]


def test_in_memory_input_is_not_mutated() -> None:
    doc = {"routing": {"signals": {"topic_continuity": [
        {"name": "a", "thresholds": {}, "limits": {"max_prior_turns": 0}},
        {"name": "b", "limits": None}]}}}
    before = copy.deepcopy(doc)
    load_topic_continuity_rules(doc)
    load_routing(doc)
    assert doc == before


def test_a_mapping_that_fails_when_read_is_a_config_error() -> None:
    """The loaders' public functions, as ``TopicContinuity`` and ``Router``
    already did: the path and the error's type, never the caller's exception
    or its text (it escaped before)."""
    from support.hostile import SECRET, hostile_values
    from turnsignal.config import (
        load_routing,
        load_topic_continuity_rules,
        parse_topic_continuity_rules,
    )

    hostile = hostile_values()
    cases = [(load_routing, hostile["raising_get"], "routing"),
             (load_topic_continuity_rules, hostile["exploding_mapping"], "routing"),
             (parse_topic_continuity_rules, [hostile["raising_get"]],
              "routing.signals.topic_continuity"),
             (load_routing, hostile["raising_class"], "routing")]
    for load, value, path in cases:
        with pytest.raises(ConfigError) as raised:
            load(value)
        assert str(raised.value).startswith(f"{path}: could not be read ("), str(raised.value)
        assert SECRET not in str(raised.value)
    for value in hostile.values():  # any of them: rules or a ConfigError
        if type(value) is str:
            continue  # a path: the error names the file, as it should
        for load in (load_routing, load_topic_continuity_rules, parse_topic_continuity_rules):
            try:
                load(value)
            except ConfigError as error:
                assert SECRET not in str(error)
