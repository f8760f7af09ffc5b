"""Static types as a user's type checker sees them.

``python/turnsignal/_native.pyi`` describes the built extension exactly:
``mypy.stubtest`` compares every name, signature and type in the stub with the
runtime module (CI runs this test with the extension built, and .ci/run runs
stubtest once more as a lint step). Public containers return typed values."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
