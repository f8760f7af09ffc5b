"""The integrations are optional: importing turnsignal imports no framework,
and an integration whose framework is missing says which extra to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

FRAMEWORKS = {"litellm": ("litellm", "litellm"),
              "langchain": ("langchain_core", "langchain"),
              "openai_agents": ("agents", "openai-agents")}


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_importing_turnsignal_imports_no_framework() -> None:
    result = run("import sys, turnsignal, turnsignal.integrations\n"
                 "loaded = [m for m in ('litellm', 'langchain', 'langchain_core', 'langgraph',"
                 " 'agents', 'openai') if m in sys.modules]\n"
                 "print(loaded)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("integration", sorted(FRAMEWORKS))
def test_a_missing_framework_names_its_extra(integration: str) -> None:
    module, extra = FRAMEWORKS[integration]
    result = run(f"import sys\nsys.modules[{module!r}] = None\n"
                 f"import turnsignal.integrations.{integration}")
    assert result.returncode != 0
    assert f"pip install 'turnsignal[{extra}]'" in result.stderr
