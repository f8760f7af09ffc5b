"""Static types as a user's type checker sees them.

``python/turnsignal/_native.pyi`` describes the built extension exactly:
``mypy.stubtest`` compares every name, signature and type in the stub with the
runtime module (CI runs this test with the extension built, and .ci/run runs
stubtest once more as a lint step). Public containers return typed values."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.environment import load_hotpath, require_module


def test_native_stub_matches_the_extension(tmp_path: Path) -> None:
    load_hotpath("native")  # outside CI, skips when the extension is not built
    require_module("mypy.stubtest")
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", "turnsignal._native"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          check=False)  # cwd: its cache goes to the temporary folder
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_conversation_results_are_typed(tmp_path: Path) -> None:
    require_module("mypy.stubtest")
    snippet = tmp_path / "use.py"
    snippet.write_text(
        "from turnsignal.conversation.signal import ConversationResults\n"
        "results = ConversationResults(())\n"
        "reveal_type(results['tool_heavy'])\n"
        "reveal_type(results[0])\n"
        "reveal_type(results[1:])\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", str(snippet)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          check=False)
    revealed = [line.split("Revealed type is ")[1] for line in done.stdout.splitlines()
                if "Revealed type is" in line]
    assert len(revealed) == 3, done.stdout + done.stderr
    assert all("ConversationRuleResult" in line and "Any" not in line for line in revealed)
    assert revealed[2].startswith('"tuple[tuple[')  # a slice is a tuple of results


def _mypy_strict(tmp_path: Path, source: str) -> str:
    snippet = tmp_path / "use.py"
    snippet.write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                           "--follow-imports=silent", str(snippet)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          check=False)
    return done.stdout + done.stderr


def test_documented_uses_type_check_strictly(tmp_path: Path) -> None:
    """What the docs show, in a strictly typed user's code: no error, no
    Any where the docs promise a type."""
    require_module("mypy")
    output = _mypy_strict(tmp_path, (
        "from typing import FrozenSet, List, Tuple\n"
        "import turnsignal\n"
        "from turnsignal import Segment\n"
        "from turnsignal.conversation.signal import ConversationResults\n"
        "names: FrozenSet[str] = ConversationResults(()).matched\n"
        "ordered: List[str] = sorted(names)\n"
        "segmentation = turnsignal.segment([])\n"
        "first: Segment = segmentation[0]\n"
        "rest: Tuple[Segment, ...] = segmentation[1:]\n"
        "reveal_type(turnsignal.TopicContinuity.from_config)\n"
        "reveal_type(ConversationResults(()).matched)\n"))
    errors = [line for line in output.splitlines() if ": error:" in line]
    assert not errors, output
    revealed = [line.split("Revealed type is ")[1] for line in output.splitlines()
                if "Revealed type is" in line]
    assert len(revealed) == 2, output
    assert "source: str | os.PathLike[str] |" in revealed[0]  # not PathLike[Any]
    assert revealed[1] == '"frozenset[str]"'


def test_the_langgraph_hook_is_a_node_to_a_type_checker(tmp_path: Path) -> None:
    """integrations.md's ``graph.add_node("reset", history_reset_hook())``:
    LangGraph's node protocol names its parameter ``state``."""
    require_module("mypy")
    require_module("langgraph")
    output = _mypy_strict(tmp_path, (
        "from typing import Any, Dict, TypedDict\n"
        "from langgraph.graph import StateGraph\n"
        "from turnsignal.integrations.langchain import history_reset_hook\n"
        "class State(TypedDict):\n"
        "    messages: list[Any]\n"
        "graph = StateGraph(State)\n"
        "graph.add_node('reset', history_reset_hook())\n"))
    assert "No overload variant" not in output and ": error:" not in output, output


@pytest.mark.slow  # mypy reads LiteLLM and LangChain: about 40 s
def test_the_integrations_are_their_frameworks_classes(tmp_path: Path) -> None:
    """TurnsignalLogger is a LiteLLM CustomLogger and HistoryResetMiddleware
    a LangChain AgentMiddleware to a type checker too (their bases came from
    optional imports and read as Any: a misspelt attribute passed)."""
    require_module("mypy")
    require_module("litellm")
    require_module("langchain")
    output = _mypy_strict(tmp_path, (
        "from litellm.integrations.custom_logger import CustomLogger\n"
        "from langchain.agents.middleware import AgentMiddleware\n"
        "from turnsignal.integrations.litellm import TurnsignalLogger\n"
        "from turnsignal.integrations.langchain import HistoryResetMiddleware\n"
        "logger: CustomLogger = TurnsignalLogger()\n"
        "middleware: AgentMiddleware = HistoryResetMiddleware()\n"
        "TurnsignalLogger().reest\n"
        "HistoryResetMiddleware().before_modle\n"))
    errors = [line.split(": error: ")[1] for line in output.splitlines() if ": error: " in line]
    assert len(errors) == 2, output
    assert errors[0].startswith('"TurnsignalLogger" has no attribute "reest"'), output
    assert errors[1].startswith('"HistoryResetMiddleware" has no attribute "before_modle"'), output
