"""The command line's one convention for errors and exit statuses.

``main`` runs every sub-command's handler through :func:`run_handler`, so a
command added later gets it without doing anything: a user error is one line
on stderr naming the file and the problem (never a traceback), and the exit
status means the same for every command (docs/cli.md has the table).
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
import traceback
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, TextIO

from turnsignal.errors import TurnsignalError, shown_name

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_FAILED",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "CommandError",
    "NamedOutput",
    "Terminated",
    "fail",
    "run_handler",
]

EXIT_OK = 0
#: The command ran and its answer is "no": a failing vector, a bad line under
#: ``--strict``, nothing found to evaluate.
EXIT_FAILED = 1
#: The user's input is wrong: arguments, a configuration, a file that cannot
#: be read or written or is malformed. Nothing useful was produced.
EXIT_USAGE = 2
#: A bug in turnsignal (``EX_SOFTWARE``): one line, the traceback only with
#: ``TURNSIGNAL_DEBUG=1``.
EXIT_INTERNAL = 70
#: 128 + the signal, as a shell reports a process the signal ended.
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_BROKEN_PIPE = 128 + 13  # SIGPIPE: the reader of the output went away
EXIT_TERMINATED = 128 + signal.SIGTERM

DEBUG_VAR = "TURNSIGNAL_DEBUG"


class CommandError(Exception):
    """A user error a command reports: ``message`` names the file and the
    problem; ``status`` is the exit status (``EXIT_USAGE`` by default)."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every ``finally`` (a worker pool's
    shutdown among them) runs."""


class NamedOutput:
    """A text stream whose write failures (a full disk, ``/dev/full``, a lost
    mount) name it: ``CommandError("out.jsonl: cannot write: No space left
    on device")``. A closed pipe stays a ``BrokenPipeError``, which the
    command-line convention turns into its own exit status."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self._stream = stream
        self.name = name

    def write(self, text: str) -> int:
        return self._guard(self._stream.write, text)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def close(self) -> None:
        self._guard(self._stream.close)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)  # fileno, isatty, encoding ...: the stream's

    def _guard(self, method: Any, *args: Any) -> Any:
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            problem = error.strerror or type(error).__name__
            raise CommandError(f"{self.name}: cannot write: {problem}") from None


def fail(message: str, status: int = EXIT_USAGE) -> int:
    """Print ``turnsignal: <message>`` (each line of it) on stderr; return ``status``."""
    for line in str(message).splitlines() or [""]:
        print(f"turnsignal: {line}", file=sys.stderr)
    return status


def run_handler(handler: Callable[[argparse.Namespace], Any],
                args: argparse.Namespace) -> int:
    """Run one command under the convention; returns its exit status. While
    it runs, a failed write to standard output (a full disk, ``/dev/full``)
    names it, as a failed write to an ``--output`` file names that file."""
    stdout = sys.stdout
    # Closed (``>&-``: Python then has no sys.stdout): a write to it fails,
    # named, and a command that writes elsewhere runs as usual.
    stream = stdout if stdout is not None else _NotOpen()
    restore = _escape_unencodable(stream)
    sys.stdout = NamedOutput(stream, "stdout")  # type: ignore[assignment]
    try:
        return _run(handler, args)
    finally:
        sys.stdout = stdout
        restore()


class _NotOpen:
    """Standard output when the process has none: writing to it fails as a
    closed descriptor does; there is nothing to flush."""

    encoding = "utf-8"
    errors = "backslashreplace"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "not open")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "not open")


def _escape_unencodable(stream: Any) -> Callable[[], None]:
    """Write what the stream's encoding cannot hold (a lone surrogate from a
    log, an undecodable file name, "·" on an ASCII terminal) as a backslash
    escape instead of failing: inside a JSON string that escape is valid
    JSON. Returns what puts the stream's own error handler back."""
    previous = getattr(stream, "errors", None)
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None or previous in (None, "backslashreplace"):
        return lambda: None
    try:
        reconfigure(errors="backslashreplace")
    except (AttributeError, OSError, TypeError, ValueError):
        return lambda: None

    def restore() -> None:
        try:
            reconfigure(errors=previous)
        except (AttributeError, OSError, TypeError, ValueError):
            pass
    return restore


def _run(handler: Callable[[argparse.Namespace], Any], args: argparse.Namespace) -> int:
    try:
        with _sigterm_raises():
            status = int(handler(args) or 0)
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
            return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as interrupt:
        terminated = isinstance(interrupt, Terminated)
        fail("terminated" if terminated else "interrupted")
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    except CommandError as error:
        return fail(str(error), error.status)
    except TurnsignalError as error:  # ConfigError, WireFormatError, InputFileError
        return fail(str(error))
    except OSError as error:
        return fail(describe_os_error(error))
    except Exception as error:
        if os.environ.get(DEBUG_VAR):
            traceback.print_exc()
        return fail(f"internal error ({type(error).__name__}); this is a bug in turnsignal;"
                    f" {DEBUG_VAR}=1 shows the traceback", EXIT_INTERNAL)


def describe_os_error(error: OSError, path: Optional[str] = None) -> str:
    """``<file>: <problem>`` from an ``OSError``, without Python's decoration."""
    where = path if path is not None else error.filename
    # An OSError made with a message of its own has no strerror: that message.
    problem = error.strerror or str(error) or type(error).__name__
    if where is None:
        return problem
    name = os.fsdecode(where) if isinstance(where, (str, bytes, os.PathLike)) else str(where)
    return f"{shown_name(name)}: {problem}"


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """SIGTERM raises ``Terminated`` while the command runs (main thread only)."""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of the
    broken pipe does not print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout replaced by something without a descriptor
        pass


def replay_status(summary: Any, args: argparse.Namespace) -> int:
    """The exit status of a ``replay`` run that was not stopped, for both
    engines (here, so that neither engine's module imports the other): 1 when
    no line could be evaluated (saying why, once) or, with ``--strict``, when
    any line was bad."""
    problem = summary.nothing_evaluated()
    if problem is not None:
        inputs = [args.logs, *(getattr(args, "more_logs", None) or [])]
        where = "stdin" if inputs == ["-"] else ", ".join(inputs)
        return fail(f"{where}: {problem}", EXIT_FAILED)
    return EXIT_FAILED if args.strict and summary.bad_lines else 0
