"""TURNSIGNAL_IMPLEMENTATION, tested in subprocesses (it is read once, on first use)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support.environment import load_hotpath

PROBE = ("import turnsignal; "
         "print(turnsignal.IMPLEMENTATION, turnsignal.TopicContinuity().implementation)")
# Hide the extension by making the import of turnsignal._native fail.
BLOCK_NATIVE = ("import sys; sys.modules['turnsignal._native'] = None; "
                "import warnings; warnings.simplefilter('always'); ")


def _run(code: str, value: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TURNSIGNAL_IMPLEMENTATION"}
    if value is not None:
        env["TURNSIGNAL_IMPLEMENTATION"] = value
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_python_forced() -> None:
    out = _run(PROBE, "python")
    assert out.returncode == 0 and out.stdout.split() == ["python", "python"]


def test_unset_means_native() -> None:
    load_hotpath("native")
    out = _run(PROBE, None)
    assert out.returncode == 0 and out.stdout.split() == ["native", "native"]
    assert "warning" not in out.stderr.lower()


def test_native_forced() -> None:
    load_hotpath("native")
    assert _run(PROBE, "native").stdout.split() == ["native", "native"]


def test_unset_without_extension_falls_back_with_warning() -> None:
    out = _run(BLOCK_NATIVE + PROBE, None)
    assert out.returncode == 0 and out.stdout.split() == ["python", "python"]
    assert "RuntimeWarning" in out.stderr and "native extension" in out.stderr


def test_native_forced_without_extension_is_import_error() -> None:
    out = _run(BLOCK_NATIVE + PROBE, "native")
    assert out.returncode != 0 and "ImportError" in out.stderr


@pytest.mark.parametrize("value", ["fortran", "NATIVE "])
def test_values_are_checked(value: str) -> None:
    out = _run(PROBE, value)
    if value.strip().lower() == "native":
        load_hotpath("native")
        assert out.returncode == 0  # case and surrounding spaces are forgiven
    else:
        assert out.returncode != 0 and "TURNSIGNAL_IMPLEMENTATION" in out.stderr


def test_a_wrong_value_fails_the_first_use_not_the_import() -> None:
    """``import turnsignal`` works whatever the variable says (the command
    line imports it before it can report anything); the first evaluation, or
    ``IMPLEMENTATION``, names the variable."""
    code = ("import turnsignal\n"
            "for use in (lambda: turnsignal.IMPLEMENTATION, turnsignal.TopicContinuity):\n"
            "    try:\n"
            "        use()\n"
            "    except ValueError as error:\n"
            "        print(error)\n")
    out = _run(code, "fortran")
    assert out.returncode == 0 and out.stdout.splitlines() == [
        "TURNSIGNAL_IMPLEMENTATION must be 'native' or 'python', got 'fortran'"] * 2


@pytest.mark.parametrize(("value", "shown"), [
    (1, "int"), (True, "bool"), (b"native", "bytes"), (["native"], "list"),
    ("fortran", "'fortran'"), ("n" * 40, "a text of 40 characters"),
])
def test_an_implementation_argument_is_checked_and_named(value: object, shown: str) -> None:
    # A value that is no text was an AttributeError from inside the chooser;
    # a wrong text was blamed on the environment variable.
    from turnsignal import TopicContinuity, decode, segment

    calls = (lambda: TopicContinuity(implementation=value),  # type: ignore[arg-type]
             lambda: decode({"messages": []}, implementation=value),  # type: ignore[arg-type]
             lambda: segment([], implementation=value))  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(ValueError) as caught:
            call()
        assert str(caught.value) == f"implementation must be 'native' or 'python', got {shown}"
