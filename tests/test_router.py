"""``Router``: the seed's agentic-routing example end to end in the three wire
formats, one decode per request, topic continuity as ``TopicContinuity``
gives it, observers, fragments, and the examples of the docs."""

from __future__ import annotations

import contextlib
import copy
import io
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from support.environment import require_shared
from turnsignal import ConfigError, TopicContinuity, WireFormatError
from turnsignal.router import Router

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "agentic-routing.yaml"
_TOOLS = ("read_file", "edit_file", "run_tests")

# ---------------------------------------------------------------- requests

# An agentic session: developer instruction, two user turns, one completed
# tool cycle, three tool definitions. By hand: multi_turn_user = 2 (>= 2),
# has_developer_message = 1.0, tool_heavy = 3 (>= 3) -> agentic_routing.
AGENTIC = {
    "openai": {
        "messages": [
            {"role": "developer", "content": "Work in small, tested steps."},
            {"role": "user", "content": "The build is red, fix it"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function",
                 "function": {"name": "run_tests", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "2 failed"},
            {"role": "assistant", "content": "Two parser tests fail."},
            {"role": "user", "content": "Fix them and rerun"},
        ],
        "tools": [{"type": "function", "function": {"name": n}} for n in _TOOLS],
    },
    "anthropic": {
        "system": "Work in small, tested steps.",
        "messages": [
            {"role": "user", "content": "The build is red, fix it"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "c1", "name": "run_tests", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": "2 failed"}]},
            {"role": "assistant", "content": "Two parser tests fail."},
            {"role": "user", "content": "Fix them and rerun"},
        ],
        "tools": [{"name": n, "input_schema": {"type": "object"}} for n in _TOOLS],
    },
    "responses": {
        "instructions": "Work in small, tested steps.",
        "input": [
            {"role": "user", "content": "The build is red, fix it"},
            {"type": "function_call", "call_id": "c1", "name": "run_tests", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "2 failed"},
            {"type": "message", "role": "assistant", "content": "Two parser tests fail."},
            {"role": "user", "content": "Fix them and rerun"},
        ],
        "tools": [{"type": "function", "name": n} for n in _TOOLS],
    },
}
# Anthropic has no developer role: its system prompt is a system instruction.
HAS_DEVELOPER = {"openai": 1.0, "anthropic": 0.0, "responses": 1.0}

PLAIN = {
    "openai": {"messages": [{"role": "user", "content": "What is 2+2?"}]},
    "anthropic": {"messages": [{"role": "user", "content": [{"type": "text",
                                                             "text": "What is 2+2?"}]}],
                  "system": None},
    "responses": {"input": "What is 2+2?"},
}


@pytest.mark.parametrize("format", sorted(AGENTIC))
def test_seed_example_routes_agentic_requests_to_its_model(format: str,
                                                           implementation: str) -> None:
    router = Router.from_config(EXAMPLE, implementation=implementation)
    evaluation = router.evaluate(AGENTIC[format], format)
    dev = HAS_DEVELOPER[format]
    assert [tuple(r) for r in evaluation.conversation] == [
        ("multi_turn_user", 2, True), ("has_developer_message", dev, dev == 1.0),
        ("tool_heavy", 3, True)]
    assert evaluation.route is not None
    assert evaluation.route.name == "agentic_routing"
    assert [ref["model"] for ref in evaluation.route.model_refs] == ["gpt-4o"]
    assert evaluation.format == format


@pytest.mark.parametrize("format", sorted(PLAIN))
def test_seed_example_routes_a_plain_request_nowhere(format: str, implementation: str) -> None:
    evaluation = Router.from_config(EXAMPLE, implementation=implementation).evaluate(
        PLAIN[format], format)
    assert [tuple(r) for r in evaluation.conversation] == [
        ("multi_turn_user", 1, False), ("has_developer_message", 0.0, False),
        ("tool_heavy", 0, False)]
    assert evaluation.decisions == () and evaluation.route is None
    assert evaluation.to_dict()["route"] is None


def _seed_yaml(text: str, start: str, end: str) -> Dict[str, Any]:
    section = text.split(start, 1)[1]
    return yaml.safe_load(section.split(end, 1)[0] if end else section)


def test_example_file_is_the_seed_configuration() -> None:
    seed = require_shared("seeds", "003_9b50b724f5ed23bb.txt").read_text(encoding="utf-8")
    signals = _seed_yaml(seed, "配置\n", "特征类型")
    decisions = _seed_yaml(seed, "决策用法\n", "")
    example = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    assert example["routing"]["signals"] == signals["routing"]["signals"]
    assert example["routing"]["decisions"] == decisions["routing"]["decisions"]


# ---------------------------------------------------------------- one decode

class _Counting:
    """A hot path that records its decoding calls."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.calls: List[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def request_facts(self, *args: Any) -> Any:
        self.calls.append("facts")
        return self._inner.request_facts(*args)

    def evaluation_doc(self, *args: Any) -> Any:
        self.calls.append("evaluation")
        return self._inner.evaluation_doc(*args)


def test_the_request_is_read_twice_and_not_mutated(implementation: str) -> None:
    # Once for the facts of the whole request (no text read), once for the
    # newest messages topic continuity reads: both bounded by count.
    doc = {"signals": {"topic_continuity": [{"name": "topic_boundary"}],
                       "conversation": yaml.safe_load(EXAMPLE.read_text())["routing"]["signals"]
                       ["conversation"]}}
    router = Router.from_config(doc, implementation=implementation)
    counting = _Counting(router._hotpath)
    # Injected past the instances' immutability, as only a test may.
    object.__setattr__(router, "_hotpath", counting)
    object.__setattr__(router.topic_continuity, "_hotpath", counting)
    request = AGENTIC["openai"]
    before = copy.deepcopy(request)
    router.evaluate(request, "openai")
    assert counting.calls == ["facts", "evaluation"]
    assert request == before


def test_topic_continuity_matches_the_signal_on_a_long_request(implementation: str) -> None:
    messages = []
    for index in range(400):  # 800 messages: past the evaluator's 512-message window
        messages.append({"role": "user", "content": f"Tune the Redis cache eviction {index}"})
        messages.append({"role": "assistant", "content": "Use allkeys-lru with maxmemory."})
    messages.append({"role": "user", "content": "And the Redis maxmemory value?"})
    request = {"messages": messages}
    rules = [{"name": "topic_boundary"}, {"name": "user_only", "include_assistant": False}]
    router = Router.from_config({"signals": {"topic_continuity": rules}},
                                implementation=implementation)
    direct = TopicContinuity(rules, implementation=implementation).evaluate(request, "openai")
    routed = router.evaluate(request, "openai").topic_continuity
    assert routed.to_dict() == direct.to_dict()
    assert routed.results.names == ("topic_boundary", "user_only")


def test_server_side_history_is_unavailable_to_topic_continuity(implementation: str) -> None:
    request = {"previous_response_id": "resp_1", "input": "and the second one?"}
    router = Router.from_config({"signals": {"topic_continuity": [{"name": "tb"}]}},
                                implementation=implementation)
    routed = router.evaluate(request, "responses").topic_continuity.results["tb"]
    direct = TopicContinuity([{"name": "tb"}], implementation=implementation).evaluate(
        request, "responses").results["tb"]
    assert routed == direct and routed.reason.value == "unknown_history_unavailable"
    forced = router.evaluate(AGENTIC["openai"], "openai", history_available=False)
    assert forced.topic_continuity.results["tb"].reason.value == "unknown_history_unavailable"


# ---------------------------------------------------------------- observers

class _Recorder:
    def __init__(self) -> None:
        self.seen: List[Any] = []

    def on_conversation(self, results: Any, request_id: Any) -> None:
        self.seen.append(("conversation", [r.name for r in results], request_id))

    def on_topic_continuity(self, evaluation: Any, request_id: Any) -> None:
        self.seen.append(("topic_continuity", list(evaluation.results.names), request_id))


class _Broken:
    def on_conversation(self, results: Any, request_id: Any) -> None:
        raise RuntimeError("observer bug")


def test_observers(implementation: str) -> None:
    recorder = _Recorder()
    doc = yaml.safe_load(EXAMPLE.read_text())
    doc["routing"]["signals"]["topic_continuity"] = [{"name": "tb"}]
    router = Router.from_config(doc, implementation=implementation,
                                observers=[_Broken(), recorder])
    evaluation = router.evaluate(AGENTIC["openai"], "openai", request_id="req-7")
    assert evaluation.route is not None  # a failing observer changes nothing
    assert recorder.seen == [
        ("topic_continuity", ["tb"], "req-7"),
        ("conversation", ["multi_turn_user", "has_developer_message", "tool_heavy"], "req-7")]


# ---------------------------------------------------------------- arguments

def test_argument_and_request_errors(implementation: str) -> None:
    router = Router.from_config(EXAMPLE, implementation=implementation)
    with pytest.raises(TypeError):
        router.evaluate(PLAIN["openai"], deadline="soon")
    with pytest.raises(TypeError):
        router.evaluate(PLAIN["openai"], history_available=None)  # type: ignore[arg-type]
    with pytest.raises(WireFormatError, match=r"^messages\[0\]"):
        router.evaluate({"messages": ["not a message"]}, "openai")
    with pytest.raises(ValueError):
        router.evaluate(PLAIN["openai"], "yaml")
    with pytest.raises(TypeError):
        Router.from_config(EXAMPLE, external_types="keyword")
    with pytest.raises(ValueError):
        Router.from_config(EXAMPLE, external_types=["conversation"])


def test_to_dict_and_repr(implementation: str) -> None:
    evaluation = Router.from_config(EXAMPLE, implementation=implementation).evaluate(
        AGENTIC["openai"], "openai")
    out = evaluation.to_dict()
    assert set(out) == {"format", "cancelled", "topic_continuity", "facts", "conversation",
                        "decisions", "route"}
    assert out["cancelled"] is False
    assert out["conversation"][2] == {"name": "tool_heavy", "value": 3, "matched": True}
    assert out["decisions"] == [{"name": "agentic_routing", "priority": 0,
                                 "modelRefs": [{"model": "gpt-4o"}]}]
    assert out["facts"]["tool_definitions"] == 3
    assert "agentic_routing" in repr(evaluation)


# ---------------------------------------------------------------- configuration

def test_every_problem_of_a_document_is_reported(implementation: str) -> None:
    doc = {"routing": {
        "signals": {"topic_continuity": [{"name": ""}],
                    "conversation": [{"name": "x", "feature": {"type": "count",
                                                               "source": {"type": "message"}}}]},
        "decisions": [{"name": "d", "rules": {"type": "topic_continuity", "name": "tb"}}]}}
    with pytest.raises(ConfigError) as caught:
        Router.from_config(doc, implementation=implementation)
    assert [str(issue) for issue in caught.value.issues] == [
        "routing.signals.topic_continuity[0]: name is required",
        'routing.signals.conversation[0] "x": feature.type "count" requires a predicate',
        'routing.decisions["d"]: signal type "topic_continuity" is not decision-referenceable;'
        " it is evidence for context policy, read from the request context"]


def test_structure_errors(implementation: str) -> None:
    for doc, message in (
            ({"signals": []}, "routing.signals: must be a mapping, got list"),
            ({"signals": {"conversation": {}}},
             "routing.signals.conversation: must be a list, got mapping"),
            ({"decisions": "none"}, "routing.decisions: must be a list, got string")):
        with pytest.raises(ConfigError) as caught:
            Router.from_config(doc, implementation=implementation)
        assert str(caught.value) == message


def test_a_decision_naming_an_invalid_rule_gets_only_the_rule_error(implementation: str) -> None:
    doc = {"signals": {"conversation": [{"name": "r", "feature": {"type": "bogus"}}]},
           "decisions": [{"name": "d", "rules": {"type": "conversation", "name": "r"}}]}
    with pytest.raises(ConfigError) as caught:
        Router.from_config(doc, implementation=implementation)
    assert all(issue.path.startswith("routing.signals") for issue in caught.value.issues)


# ---------------------------------------------------------------- fragments

def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _fragments(folder: Path) -> List[Path]:
    return [
        _write(folder, "tc.yaml", "routing:\n  signals:\n    topic_continuity:\n"
                                  "      - name: topic_boundary\n"),
        _write(folder, "conv-a.yaml", """
routing:
  signals:
    conversation:
      - name: multi_turn_user
        feature: {type: count, source: {type: message, role: user}}
        predicate: {gte: 2}
"""),
        _write(folder, "conv-b.yaml", """
routing:
  signals:
    conversation:
      - name: tool_heavy
        feature: {type: count, source: {type: tool_definition}}
        predicate: {gte: 3}
    keyword:
      - name: urgent
        keywords: [asap]
"""),
        _write(folder, "decisions.yaml", """
routing:
  decisions:
    - name: agentic_routing
      rules:
        operator: AND
        conditions:
          - {type: conversation, name: tool_heavy}
          - {type: conversation, name: multi_turn_user}
      modelRefs: [{model: gpt-4o}]
    - name: urgent
      priority: 5
      rules: {type: keyword, name: urgent}
      modelRefs: [{model: fast}]
"""),
    ]


def test_fragments_concatenate(tmp_path: Path, implementation: str) -> None:
    paths = _fragments(tmp_path)
    router = Router.from_config([str(path) for path in paths], implementation=implementation)
    assert [rule.name for rule in router.conversation.rules] == ["multi_turn_user", "tool_heavy"]
    assert [rule.name for rule in router.topic_continuity.rules] == ["topic_boundary"]
    assert [decision.name for decision in router.decisions] == ["urgent", "agentic_routing"]
    assert router.routing["signals"]["keyword"] == [{"name": "urgent", "keywords": ["asap"]}]
    evaluation = router.evaluate(AGENTIC["openai"], "openai",
                                 external_matches={"keyword": ["urgent"]})
    assert [d.name for d in evaluation.decisions] == ["urgent", "agentic_routing"]
    assert evaluation.topic_continuity.results.names == ("topic_boundary",)
    # Path objects work as well as strings.
    assert Router.from_config(paths, implementation=implementation).decisions == router.decisions


def test_duplicate_names_across_fragments_name_both_files(tmp_path: Path,
                                                          implementation: str) -> None:
    paths = _fragments(tmp_path)
    again = _write(tmp_path, "again.yaml", """
routing:
  signals:
    topic_continuity:
      - name: topic_boundary
    conversation:
      - name: tool_heavy
        feature: {type: exists, source: {type: tool_definition}}
  decisions:
    - name: urgent
      rules: {type: conversation, name: tool_heavy}
""")
    with pytest.raises(ConfigError) as caught:
        Router.from_config([*paths, again], implementation=implementation)
    assert [str(issue) for issue in caught.value.issues] == [
        f"{again}: routing.signals.topic_continuity[0]: duplicate name \"topic_boundary\""
        f" (first declared at {paths[0]}: routing.signals.topic_continuity[0])",
        f'{again}: routing.signals.conversation[0] "tool_heavy": duplicate name "tool_heavy"'
        f" (first declared at {paths[2]}: routing.signals.conversation[0])",
        f'{again}: routing.decisions["urgent"]: duplicate name "urgent"'
        f" (first declared at {paths[3]}: routing.decisions[1])",
    ]


def test_fragment_problems_name_their_file(tmp_path: Path, implementation: str) -> None:
    bad = _write(tmp_path, "bad.yaml", """
routing:
  strategy: priority
  signals:
    conversation:
      - name: r
        feature: {type: exists, source: {type: tool_definition, role: user}}
""")
    other = _write(tmp_path, "other.yaml", "routing:\n  strategy: first\n")
    missing = tmp_path / "missing.yaml"
    with pytest.raises(ConfigError) as caught:
        Router.from_config([bad, other, missing], implementation=implementation)
    issues = [str(issue) for issue in caught.value.issues]
    assert issues[0] == (f"{other}: routing.strategy: set differently by another fragment;"
                         " only lists are merged")
    assert issues[1].startswith(f"{missing}: cannot read the file")
    assert issues[2:] == [
        f'{bad}: routing.signals.conversation[0] "r": source.role is only valid when'
        ' source.type is "message"']


class _Hostile(dict):
    def get(self, key: Any, default: Any = None) -> Any:
        raise RuntimeError("boom")


def test_hostile_or_shared_configuration(implementation: str) -> None:
    doc = {"signals": {"conversation": [_Hostile(name="x")]}}
    with pytest.raises(ConfigError, match=r"^routing: could not be read \(RuntimeError\)$"):
        Router.from_config(doc, implementation=implementation)
    example = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    before = copy.deepcopy(example)
    router = Router.from_config(example, implementation=implementation)
    router.evaluate(AGENTIC["openai"], "openai")
    assert example == before


def test_a_list_of_rule_mappings_is_still_a_topic_continuity_list(implementation: str) -> None:
    router = Router.from_config([{"name": "tb"}], implementation=implementation)
    assert router.topic_continuity.rules[0].name == "tb"
    assert router.conversation.rules == () and router.decisions == ()


# ---------------------------------------------------------------- the docs

DOCS = ["docs/conversation.md", "docs/decisions.md"]


def _expected_output(block: str) -> List[str]:
    """The ``# ...`` comment lines that directly follow a ``print(...)``."""
    expected: List[str] = []
    following = False
    for line in block.splitlines():
        if line.startswith("# ") and following:
            expected.append(line[2:])
            continue
        following = "print(" in line or (following and not line.startswith("#")
                                         and line.startswith(" "))
    return expected


@pytest.mark.parametrize("document", DOCS)
def test_doc_examples_run_as_written(document: str, implementation: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNSIGNAL_IMPLEMENTATION", implementation)
    monkeypatch.chdir(ROOT)
    text = (ROOT / document).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: Dict[str, Any] = {}
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        for block in blocks:
            exec(compile(block, document, "exec"), namespace)
    expected = [line for block in blocks for line in _expected_output(block)]
    assert output.getvalue().splitlines() == expected


@pytest.mark.parametrize("document, example", [("docs/conversation.md", EXAMPLE),
                                               ("docs/decisions.md",
                                                ROOT / "examples" / "decisions.yaml")])
def test_doc_yaml_is_the_example_file(document: str, example: Path) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    first = yaml.safe_load(re.findall(r"```yaml\n(.*?)```", text, re.S)[0])
    on_disk = yaml.safe_load(example.read_text(encoding="utf-8"))
    if document.endswith("conversation.md"):  # the page shows the signals part
        on_disk["routing"].pop("decisions")
    assert first == on_disk


def test_doc_validation_messages_are_real(implementation: str) -> None:
    """The ``text`` block of docs/decisions.md lists messages Router produces."""
    text = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    listed = re.findall(r"```text\n(.*?)```", text, re.S)[0].strip().splitlines()
    conv = [{"name": "tool_heavy", "feature": {"type": "exists",
                                               "source": {"type": "tool_definition"}}}]
    documents = [
        {"signals": {"conversation": conv}, "decisions": [{"name": "agentic_routing", "rules": {
            "operator": "AND", "conditions": [{"type": "conversation", "name": "tool_heavy"},
                                              {"type": "conversation", "name": "multi_turn"}]}}]},
        {"signals": {"conversation": conv}, "decisions": [{"name": "agentic_routing", "rules": {
            "operator": "XOR", "conditions": [{"type": "conversation", "name": "tool_heavy"}]}}]},
        {"decisions": [{"name": "uses_tc", "rules": {"type": "topic_continuity", "name": "t"}}]},
        {"signals": {"conversation": conv}, "decisions": [{"name": "urgent", "rules": {
            "operator": "AND", "conditions": [{"type": "keyword", "name": "urgent"}]}}]},
    ]
    produced = []
    for doc in documents:
        with pytest.raises(ConfigError) as caught:
            Router.from_config(doc, implementation=implementation)
        produced.extend(str(issue) for issue in caught.value.issues)
    assert produced == listed


def test_a_router_cannot_be_changed(implementation: str) -> None:
    router = Router.from_config({"signals": {"topic_continuity": [{"name": "t"}]}},
                                implementation=implementation)
    for name in ("decisions", "routing", "topic_continuity", "_hotpath", "other"):
        with pytest.raises(AttributeError, match="Router is immutable"):
            setattr(router, name, None)
    with pytest.raises(AttributeError, match="Router is immutable"):
        del router.decisions
