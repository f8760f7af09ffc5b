"""Ray stays optional: never a requirement of ``turnsignal``, never imported
by ``import turnsignal`` (nor by the CLI until ``--engine ray`` runs), and a
clear message when it is missing. Subprocesses: imports are per process."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import requires
from pathlib import Path

from support.environment import ROOT


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_importing_turnsignal_never_imports_ray() -> None:
    done = _python(
        "import sys, turnsignal, turnsignal.offline, turnsignal.cli\n"
        "from turnsignal.cli import build_parser, replay_ray\n"
        "build_parser().parse_args(['replay', 'x.jsonl', '--engine', 'ray', '-o', 'out'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ray', 'pyarrow')))\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_ray_is_only_an_extra() -> None:
    mentions = [line for line in requires("turnsignal") or []
                if re.match(r"(ray|pyarrow)\b", line)]
    assert mentions, "the ray extra is not declared"
    for requirement in mentions:
        assert re.search(r"""extra\s*==\s*["'](ray|test)["']""", requirement), requirement


def test_without_ray_the_engine_says_how_to_get_it(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("{}\n")
    done = _python(
        "import sys\n"
        "sys.modules['ray'] = None  # as if Ray were not installed\n"
        "from turnsignal.cli import main\n"
        f"sys.exit(main(['replay', '--engine', 'ray', {str(log)!r}, '-o', "
        f"{str(tmp_path / 'out')!r}]))\n")
    assert done.returncode == 2
    assert "pip install 'turnsignal[ray]'" in done.stderr
    assert "Traceback" not in done.stderr
