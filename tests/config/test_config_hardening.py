"""Hostile and mistaken configurations (issue 10, items 1-5): misspelt keys,
every problem at once, alias bombs, files that are not files, one name check.

Validation runs in Python for both implementations; the tests that build an
evaluator take the ``implementation`` fixture anyway.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support.environment import ROOT
from turnsignal import ConversationSignal, Router, TopicContinuity
from turnsignal.config import parse_topic_continuity_rules
from turnsignal.config import ranges as config_ranges
from turnsignal.config.bounds import MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH, MAX_CONFIG_NODES
from turnsignal.config.keys import near_miss
from turnsignal.decisions import parse_decisions
from turnsignal.errors import ConfigError
from turnsignal.topic_continuity.plan import EvaluatorConfig, valid_config

P = "routing.signals.topic_continuity"
RULE = [{"name": "tb"}]


def issues(call: Any, *args: Any, **kwargs: Any) -> List[str]:
    with pytest.raises(ConfigError) as caught:
        call(*args, **kwargs)
    return [str(issue) for issue in caught.value.issues]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- 1. near-miss keys

@pytest.mark.parametrize(("document", "path", "meant"), [
    ({"routng": {"signals": {"topic_continuity": RULE}}}, "routng", "routing"),
    ({"routing": {"signal": {"topic_continuity": RULE}}}, "routing.signal", "signals"),
    ({"routing": {"signals": {"topic_continuty": RULE}}},
     "routing.signals.topic_continuty", "topic_continuity"),
    ({"routing": {"signals": {"topic_continuity": RULE}, "decisons": []}},
     "routing.decisons", "decisions"),
    ({"routing": {"signals": {"Topic-Continuity": RULE}}},
     "routing.signals.Topic-Continuity", "topic_continuity"),
    ({"routing": {"signals": {"topic_continuity": RULE, "conversations": []}}},
     "routing.signals.conversations", "conversation"),
    ({"signls": {"topic_continuity": RULE}}, "signls", "signals"),  # the bare routing shape
])
def test_a_misspelt_key_is_an_error_with_a_suggestion(implementation: str, document: Any,
                                                      path: str, meant: str) -> None:
    expected = [f'{path}: unknown key; did you mean "{meant}"?']
    assert issues(TopicContinuity.from_config, document, implementation=implementation) \
        == expected
    assert issues(Router.from_config, document, implementation=implementation) == expected


def test_a_misspelt_key_in_a_file_names_the_file(tmp_path: Path, implementation: str) -> None:
    path = write(tmp_path, "rules.yaml", "routing:\n  signal:\n    topic_continuity:\n"
                                         "      - name: tb\n")
    assert issues(TopicContinuity.from_config, path, implementation=implementation) == [
        f'{path}: routing.signal: unknown key; did you mean "signals"?']


def test_keys_of_the_rest_of_a_router_configuration_are_accepted(implementation: str) -> None:
    document = {"bert_model": {"model_id": "m"}, "semantic_cache": {"enabled": False},
                "routing": {"strategy": "priority", "router": {}, "plugins": [],
                            "signals": {"topic_continuity": RULE, "keyword": [],
                                        "embedding": [], "domain": [], "context": [],
                                        "complexity": [], "modality": []},
                            "decisions": []}}
    signal = TopicContinuity.from_config(document, implementation=implementation)
    assert [rule.name for rule in signal.rules] == ["tb"]
    Router.from_config(document, implementation=implementation)


def test_a_near_miss_beside_the_real_key_is_someone_elses(implementation: str) -> None:
    document = {"routing": {"signals": {"topic_continuity": RULE}, "signal": {"x": 1}}}
    assert TopicContinuity.from_config(document, implementation=implementation).rules


@pytest.mark.parametrize(("key", "meant"), [
    ("routng", "routing"), ("rotuing", "routing"), ("signal", "signals"),
    ("topic_continuities", "topic_continuity"), ("DECISIONS", "decisions"),
    ("keyword", None), ("router", None), ("routes", None), ("context", None),
    ("decisions", None), (3, None), ("x" * 10_000, None),
])
def test_near_miss(key: Any, meant: Any) -> None:
    assert near_miss(key, ("routing", "signals", "decisions", "topic_continuity")) == meant


def test_a_misspelt_decision_key_is_an_error() -> None:
    decision = {"name": "d", "priorty": 10, "modelRef": [],
                "rules": {"type": "keyword", "name": "k"}}
    assert issues(parse_decisions, [decision], external_types=["keyword"]) == [
        'routing.decisions["d"]: unknown key "priorty"; did you mean "priority"?',
        'routing.decisions["d"]: unknown key "modelRef"; did you mean "modelRefs"?']


def test_a_misspelt_rule_key_says_what_it_meant(implementation: str) -> None:
    """At the rule level too, as above it (issue 26): a key nearly spelling
    one the rule lacks names it; one that spells nothing does not."""
    document = {"routing": {"signals": {
        "topic_continuity": [{"name": "t", "tresholds": {"chnage": 0.2}, "limitz": {}},
                             {"name": "u", "thresholds": {}, "treshold": {}}],
        "conversation": [{"name": "c", "featur": {"type": "count", "source": {"type": "message"}}},
                         {"name": "d", "feature": {"type": "count", "source": {"type": "message"}},
                          "predicate": {"gt": 0, "gtee": 2}}]}}}
    with pytest.raises(ConfigError) as info:
        Router(document, implementation=implementation)
    assert [str(issue) for issue in info.value.issues] == [
        'routing.signals.topic_continuity[0]: unknown key "tresholds"; did you mean'
        ' "thresholds"?',
        'routing.signals.topic_continuity[0]: unknown key "limitz"; did you mean "limits"?',
        'routing.signals.topic_continuity[1]: unknown key "treshold"',  # thresholds is there
        'routing.signals.conversation[0] "c": unknown key "featur"; did you mean "feature"?',
        'routing.signals.conversation[0] "c": feature is required',
        'routing.signals.conversation[1] "d": unknown key "predicate.gtee"; did you mean'
        ' "predicate.gte"?']
    # Short keys allow fewer edits: two-letter comparators are not each other's slips.
    assert near_miss("eq", ("gt", "lt")) is None and near_miss("gtee", ("gt", "gte")) == "gte"


@pytest.mark.parametrize("document", [
    {"routing": {"signals": {"conversation": []}}},
    {"routing": {"signals": {"topic_continuity": []}}},
    {"routing": {"signals": {"topic_continuity": None}}},
    {"routing": {}},
    [],
])
def test_from_config_refuses_a_document_without_a_rule(implementation: str,
                                                       document: Any) -> None:
    (line,) = issues(TopicContinuity.from_config, document, implementation=implementation)
    assert line.startswith(f"{P}: no topic_continuity rule found")


def test_from_config_names_the_file_without_a_rule(tmp_path: Path, implementation: str) -> None:
    path = write(tmp_path, "router.yaml", "routing:\n  decisions: []\n")
    (line,) = issues(TopicContinuity.from_config, path, implementation=implementation)
    assert line.startswith(f"{path}: {P}: no topic_continuity rule found")


# ---------------------------------------------------------------- 2. every problem

def test_every_problem_of_a_rule_is_reported() -> None:
    rule = {"name": " x", "thresholds": {"continuation": "high"},
            "limits": {"max_prior_turns": 100, "max_turn_bytes": 10, "max_input_bytes": 5}}
    assert issues(parse_topic_continuity_rules, [rule]) == [
        f"{P}[0]: thresholds.continuation must be a number, got string",
        f"{P}[0]: name must not contain surrounding whitespace",
        f"{P}[0]: limits.max_prior_turns must be in [1, 32], got 100",
        f"{P}[0]: limits.max_turn_bytes must be in [256, 65536], got 10",
        f"{P}[0]: limits.max_input_bytes must be in [1024, 1048576], got 5",
    ]


@pytest.mark.parametrize(("thresholds", "problems"), [
    ({"continuation": "high", "change": -1},
     ["thresholds.continuation must be a number, got string",
      "thresholds must satisfy 0 <= change < 1, got change=-1"]),
    ({"continuation": 1.5, "change": [0.1]},
     ["thresholds.change must be a number, got list",
      "thresholds must satisfy 0 < continuation < 1, got continuation=1.5"]),
    ({"continuation": 0, "change": None},  # change defaults: the pair is checked
     ["thresholds must satisfy 0 <= change < continuation < 1, got change=0.08"
      " continuation=0"]),
    ({"continuation": "high", "change": 0.5}, ["thresholds.continuation must be a number,"
                                                " got string"]),  # 0.5 alone is fine
])
def test_a_threshold_type_error_hides_no_range_error_of_the_other(
        thresholds: Dict[str, Any], problems: List[str]) -> None:
    """The pair's order needs both numbers; each one's own bounds do not."""
    rule = {"name": "a", "thresholds": thresholds}
    assert issues(parse_topic_continuity_rules, [rule]) == [f"{P}[0]: {p}" for p in problems]


def test_the_rule_constructor_reports_every_problem() -> None:
    from turnsignal import TopicContinuityRule

    lines = issues(TopicContinuityRule, name="r", continuation=2.0, max_prior_turns=0)
    assert lines == [
        "TopicContinuityRule: thresholds must satisfy 0 <= change < continuation < 1,"
        " got change=0.08 continuation=2",
        "TopicContinuityRule: limits.max_prior_turns must be in [1, 32], got 0"]


def test_errors_from_a_file_name_the_file(tmp_path: Path, implementation: str) -> None:
    path = write(tmp_path, "rules.yaml", "routing:\n  signals:\n    topic_continuity:\n"
                                         "      - name: a\n        thresholds:\n"
                                         "          continuation: high\n"
                                         "        limits: {max_prior_turns: 100}\n")
    expected = [f"{path}: {P}[0]: thresholds.continuation must be a number, got string",
                f"{path}: {P}[0]: limits.max_prior_turns must be in [1, 32], got 100"]
    assert issues(TopicContinuity.from_config, path, implementation=implementation) == expected
    assert issues(Router.from_config, path, implementation=implementation) == expected


# ---------------------------------------------------------------- 3. bounded documents

def _laughs(levels: int, fan_out: int = 10) -> str:
    """A billion-laughs document: each anchor lists the previous one fan_out times."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * fan_out)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def _decision_tree_bomb(levels: int) -> str:
    lines = ["routing:", "  signals:", "    keyword: [{name: k}]", "  anchors:",
             "    - &n0 {type: keyword, name: k}"]
    for level in range(1, levels):
        child = f"*n{level - 1}"
        lines.append(f"    - &n{level} {{operator: OR, conditions: [{child}, {child}]}}")
    lines += ["  decisions:", "    - name: bomb", f"      rules: *n{levels - 1}"]
    return "\n".join(lines) + "\n"


def _model_refs_bomb(levels: int) -> str:
    lines = ["routing:", "  signals: {keyword: [{name: k}]}", "  anchors:",
             "    - &m0 {model: m, weight: [1, 1, 1, 1]}"]
    for level in range(1, levels):
        lines.append(f"    - &m{level} [*m{level - 1}, *m{level - 1}, *m{level - 1},"
                     f" *m{level - 1}]")
    lines += ["  decisions:", "    - name: d", "      rules: {type: keyword, name: k}",
              f"      modelRefs: [{{model: big, extra: *m{levels - 1}}}]"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("text", [_laughs(9), _decision_tree_bomb(30), _model_refs_bomb(14)])
def test_alias_bombs_are_refused(tmp_path: Path, implementation: str, text: str) -> None:
    path = write(tmp_path, "bomb.yaml", text)
    assert len(text) < 2000
    for build in (TopicContinuity.from_config, Router.from_config):
        (line,) = issues(build, path, implementation=implementation)
        assert line.startswith(f"{path}:") and f"more than {MAX_CONFIG_NODES:,} values" in line


def test_fragments_with_equal_aliased_mappings_are_refused(tmp_path: Path,
                                                           implementation: str) -> None:
    bomb = _laughs(7).replace("a0:", "shared:\n  a0:").replace("\na", "\n  a")
    first = write(tmp_path, "a.yaml", "routing:\n  signals: {topic_continuity: [{name: a}]}\n"
                  + bomb.replace("shared:", "  shared:").replace("\n  a", "\n    a"))
    second = write(tmp_path, "b.yaml", first.read_text().replace("name: a", "name: b"))
    lines = issues(Router.from_config, [first, second], implementation=implementation)
    assert all(f"more than {MAX_CONFIG_NODES:,} values" in line for line in lines)
    assert [line.split(":")[0] for line in lines] == [str(first), str(second)]


def test_a_document_at_the_node_limit_loads(tmp_path: Path) -> None:
    def document(values: int) -> str:
        filler = ",".join("x" * values)  # YAML, not JSON: the text starts with "routing:"
        return f"routing:\n  signals:\n    topic_continuity: [{{name: tb}}]\n  filler: [{filler}]\n"

    # Counted by hand: the document, routing, signals, the list, the rule and
    # filler (6 collections), their 5 keys and the name "tb": 12 more nodes.
    path = write(tmp_path, "large.yaml", document(MAX_CONFIG_NODES - 12))
    assert TopicContinuity.from_config(path, implementation="python").rules
    path.write_text(document(MAX_CONFIG_NODES - 11), encoding="utf-8")
    (line,) = issues(TopicContinuity.from_config, path, implementation="python")
    assert f"more than {MAX_CONFIG_NODES:,} values" in line


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_deep_nesting_is_refused(tmp_path: Path, kind: str) -> None:
    depth = MAX_CONFIG_DEPTH + 1
    text = "[" * depth + "]" * depth
    if kind == "yaml":
        text = "routing:\n  x: " + "[" * depth + "a" + "]" * depth + "\n"
    path = write(tmp_path, f"deep.{kind}", text)
    (line,) = issues(TopicContinuity.from_config, path)
    assert f"nested more than {MAX_CONFIG_DEPTH} levels deep" in line


def test_recursive_yaml_alias_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.yaml", "routing: &r {signals: {topic_continuity: []}, x: *r}\n")
    (line,) = issues(TopicContinuity.from_config, path)
    assert "an alias refers to a value that contains it" in line


def test_in_memory_documents_are_bounded_too(implementation: str) -> None:
    shared: Any = [{"model": "m"}] * 10
    for _ in range(6):
        shared = [shared] * 10  # ten million references to one small mapping
    document = {"routing": {"signals": {"topic_continuity": RULE}, "x": shared}}
    (line,) = issues(TopicContinuity.from_config, document, implementation=implementation)
    assert f"more than {MAX_CONFIG_NODES:,} values" in line
    cyclic: dict = {"signals": {"topic_continuity": RULE}}
    cyclic["self"] = cyclic
    assert issues(Router.from_config, cyclic, implementation=implementation)


# ---------------------------------------------------------------- 4. files that are not files

def test_a_character_device_is_refused(implementation: str) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    (line,) = issues(TopicContinuity.from_config, "/dev/zero", implementation=implementation)
    assert line == "/dev/zero: is a character device, not a regular file; give a YAML or JSON file"


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    fifo = tmp_path / "rules.fifo"
    os.mkfifo(fifo)
    good = write(tmp_path, "good.yaml", "routing: {signals: {topic_continuity: [{name: a}]}}\n")
    # In a child process: were the FIFO opened for reading, it would block
    # forever (no writer); the timeout turns that into a failure.
    script = ("import sys\nfrom turnsignal import Router\n"
              "from turnsignal.errors import ConfigError\ntry:\n"
              "    Router.from_config(sys.argv[1:], implementation='python')\n"
              "except ConfigError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script, str(good), str(fifo)],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == (f"{fifo}: is a FIFO (named pipe), not a regular file;"
                                   " give a YAML or JSON file")


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    header = "routing: {signals: {topic_continuity: [{name: a}]}}\n"
    path = write(tmp_path, "big.yaml", header + "#" * (MAX_CONFIG_BYTES - len(header) - 1) + "\n")
    assert path.stat().st_size == MAX_CONFIG_BYTES
    assert TopicContinuity.from_config(path).rules  # exactly the limit: fine
    with path.open("a") as handle:
        handle.write("\n")
    (line,) = issues(TopicContinuity.from_config, path)
    assert line == (f"{path}: the file is larger than 1,048,576 bytes (1 MiB), the limit for a"
                    " configuration file")


def test_every_fragment_is_checked(tmp_path: Path, implementation: str) -> None:
    good = write(tmp_path, "good.yaml", "routing: {signals: {topic_continuity: [{name: a}]}}\n")
    lines = issues(Router.from_config, [good, tmp_path], implementation=implementation)
    assert lines == [f"{tmp_path}: is a directory, not a regular file; give a YAML or JSON file"]


# ---------------------------------------------------------------- 5. one name check, one range

CONVERSATION = {"feature": {"type": "exists", "source": {"type": "tool_definition"}}}


@pytest.mark.parametrize(("name", "problem"), [
    ("\x1fx", None),  # U+001F is not white space in the spec's class
    ("x\u200b", None),
    ("\x85x", "name must not contain surrounding whitespace"),
    ("\u3000", "name is required"),
    ("\t", "name is required"),
])
def test_one_name_check_for_every_family(name: str, problem: Any) -> None:
    checks = {
        "topic_continuity": lambda: parse_topic_continuity_rules([{"name": name}]),
        "conversation": lambda: ConversationSignal([{"name": name, **CONVERSATION}]),
        "decisions": lambda: parse_decisions(
            [{"name": name, "rules": {"type": "keyword", "name": "k"}}],
            external_types=["keyword"]),
    }
    for family, check in checks.items():
        if problem is None:
            check()
        else:
            assert any(line.endswith(problem) for line in issues(check)), family


@pytest.mark.parametrize(("field", "bounds"), [
    ("PRIOR_TURNS_RANGE", (2, 31)), ("TURN_BYTES_RANGE", (512, 32768)),
    ("INPUT_BYTES_RANGE", (2048, 524288)),
])
def test_ranges_have_one_definition(monkeypatch: pytest.MonkeyPatch, field: str,
                                    bounds: tuple) -> None:
    # Narrow one range: validation, its message and the evaluator's own check
    # must all follow, because they all read the one definition.
    monkeypatch.setattr(config_ranges, field, bounds)
    low = bounds[0] - 1
    key = {"PRIOR_TURNS_RANGE": "max_prior_turns", "TURN_BYTES_RANGE": "max_turn_bytes",
           "INPUT_BYTES_RANGE": "max_input_bytes"}[field]
    limits = {"max_prior_turns": 2, "max_turn_bytes": 1024, "max_input_bytes": 4096, key: low}
    lines = issues(parse_topic_continuity_rules, [{"name": "r", "limits": limits}])
    assert f"{P}[0]: limits.{key} must be in [{bounds[0]}, {bounds[1]}], got {low}" in lines
    effective = dict(limits)
    assert not valid_config(EvaluatorConfig("r", True, 0.35, 0.08, effective["max_prior_turns"],
                                       effective["max_turn_bytes"],
                                       effective["max_input_bytes"]))


def test_the_evaluator_check_agrees_with_validation_at_every_bound() -> None:
    from turnsignal import TopicContinuityRule

    for prior in (0, 1, 32, 33):
        for turn in (255, 256, 65536, 65537):
            for input_bytes in (1023, 1024, 65535, 65536, 1048576, 1048577):
                rule = TopicContinuityRule.unchecked(name="r", max_prior_turns=prior,
                                                     max_turn_bytes=turn,
                                                     max_input_bytes=input_bytes)
                config = EvaluatorConfig("r", True, 0.35, 0.08, prior, turn, input_bytes)
                expected = (1 <= prior <= 32 and 256 <= turn <= 65536
                            and 1024 <= input_bytes <= 1048576 and input_bytes >= turn)
                assert rule.is_valid() is expected and valid_config(config) is expected


def test_no_copy_of_the_range_limits_outside_ranges_py() -> None:
    package = ROOT / "python" / "turnsignal"
    for path in (package / "topic_continuity").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for literal in ("65536", "1048576", "1 << 20", "[1, 32]"):
            assert literal not in text, f"{path.name} repeats the range limit {literal}"
