"""Typed errors. Messages name a JSON path and the problem, never request text."""

from __future__ import annotations

from typing import Any, Callable, Sequence, Tuple, TypeVar

_T = TypeVar("_T")

__all__ = ["ConfigError", "ConfigIssue", "InputFileError", "TurnsignalError",
           "WireFormatError", "config_read", "refuse_class", "shown_name", "unreadable",
           "unreadable_issue"]


class TurnsignalError(Exception):
    """Base class of every error turnsignal raises on purpose."""


class WireFormatError(TurnsignalError, ValueError):
    """A request body could not be decoded into the neutral model.

    ``path`` is the JSON path of the offending value (``messages[3].content[1]``)
    and ``problem`` says what is wrong with it. Neither ever contains text from
    the request.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)

    def __reduce__(self) -> Tuple[Any, Tuple[str, str]]:
        # Pickled with its own arguments (not the message), so that it crosses
        # to another process whole: a worker pool, a Ray task.
        return type(self), (self.path, self.problem)


def unreadable(error: BaseException, path: str = "") -> WireFormatError:
    """A caller's object raised while being read (at ``path``): the error
    names its type only, never what it said."""
    return WireFormatError(path, f"could not be read ({type(error).__name__})")


def refuse_class(value: object, expected: str) -> None:
    """A class handed over where an instance of it belongs (an observer, a
    signal) is a ``TypeError`` saying so; anything else passes."""
    if isinstance(value, type):
        raise TypeError(f"{expected}, got the class {value.__name__} itself;"
                        f" make one: {value.__name__}(...)")


class ConfigIssue:
    """One problem found while validating a configuration."""

    __slots__ = ("message", "path")

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def __repr__(self) -> str:
        return f"ConfigIssue({self.path!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ConfigIssue)
                and (self.path, self.message) == (other.path, other.message))

    def __hash__(self) -> int:
        return hash((self.path, self.message))


class ConfigError(TurnsignalError, ValueError):
    """A configuration is invalid. ``issues`` lists every problem found, in order;
    the message shows them all, one per line."""

    def __init__(self, issues: Sequence[ConfigIssue]) -> None:
        self.issues = tuple(issues)
        if not self.issues:
            raise ValueError("ConfigError needs at least one issue")
        super().__init__("\n".join(str(issue) for issue in self.issues))

    def __reduce__(self) -> Tuple[Any, Tuple[Tuple[ConfigIssue, ...]]]:
        return type(self), (self.issues,)


def unreadable_issue(error: BaseException, path: str) -> ConfigIssue:
    """A configuration value of the caller's raised while being read (a
    mapping that fails on access, an int too long to format): the issue names
    its type only, never what it said."""
    return ConfigIssue(path, f"could not be read ({type(error).__name__})")


def config_read(parse: Callable[[Any], _T], source: Any, path: str) -> _T:
    """``parse(source)``, where anything but a ``ConfigError`` becomes a
    ``ConfigError`` at ``path`` too: configuration problems have one
    exception type."""
    try:
        return parse(source)
    except ConfigError:
        raise
    except Exception as error:
        raise ConfigError([unreadable_issue(error, path)]) from None


def shown_name(name: str) -> str:
    """A file name as an error shows it: a control character in it (a line
    break, an escape that a terminal would act on) written as its escape, so
    the error stays one line and prints as it is."""
    if name.isprintable():
        return name
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


class InputFileError(TurnsignalError, ValueError):
    """A data file (a request log, labelled cases, conformance vectors) cannot
    be read as a whole: truncated or corrupt gzip data, a read failure, a
    vector that is not JSON. ``path`` names the file; ``problem`` says what
    is wrong (never with the file's content)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{shown_name(path)}: {problem}")

    def __reduce__(self) -> Tuple[Any, Tuple[str, str]]:
        return type(self), (self.path, self.problem)
