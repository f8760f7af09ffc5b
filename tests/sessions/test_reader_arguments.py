"""The session readers' arguments: a value that is no path, or no iterable
of lines, is a ``TypeError`` naming its type, read with ``type()`` (never
``isinstance``, which reads a caller's ``__class__``, nor ``str()``, which
may raise or quote). A text given whole to ``read_claude_code_lines`` is
refused: iterated, its characters would be read as lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.hostile import SECRET, Boom, FalseClass, hostile_values
from turnsignal.sessions import read_claude_code_lines, read_path, read_paths

LINE = ('{"type": "user", "uuid": "a", "parentUuid": null, "sessionId": "s",'
        ' "message": {"role": "user", "content": "Fix the flaky test"}}')


class Unprintable:
    """No path, and ``str()`` of it fails."""

    def __str__(self) -> str:
        raise Boom(SECRET)

    __repr__ = __str__


#: Made in the test: pytest's own isinstance checks cannot take FalseClass.
LINES = {"str": lambda: LINE, "bytes": LINE.encode, "bytearray": lambda: bytearray(LINE.encode()),
         "int": lambda: 7, "none": lambda: None, "raising_class": FalseClass}
PATHS = {"unprintable": Unprintable, "mapping": lambda: {"a": Unprintable()},
         "raising_class": FalseClass, "none": lambda: None, "int": lambda: 3}


@pytest.mark.parametrize("kind", sorted(LINES))
def test_lines_must_be_an_iterable_of_lines(kind: str) -> None:
    lines = LINES[kind]()
    with pytest.raises(TypeError, match=r"^expected an iterable of lines \(bytes or str each\), "
                                        r"got \w+: give text.splitlines\(\) or an open file$"):
        read_claude_code_lines(lines)
    assert read_claude_code_lines([LINE]).messages  # the same line, as a list of one


def test_each_line_is_named_by_its_type() -> None:
    for value in (FalseClass(), {"type": "user"}, 5):
        with pytest.raises(TypeError, match=rf"^line 2: expected bytes or str, got "
                                            rf"{type(value).__name__}$"):
            read_claude_code_lines([LINE, value])


@pytest.mark.parametrize("kind", sorted(PATHS))
def test_read_path_reads_nothing_of_what_is_no_path(kind: str) -> None:
    path = PATHS[kind]()
    with pytest.raises(TypeError) as raised:
        list(read_path(path))
    assert SECRET not in str(raised.value)


def test_read_paths_names_what_is_no_path(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"^expected a path or an iterable of paths, "
                                        r"got FalseClass$"):
        list(read_paths(FalseClass()))
    with pytest.raises(TypeError, match=r"^expected a path \(str or os.PathLike\), "
                                        r"got FalseClass$"):
        list(read_paths([tmp_path, FalseClass()]))
    for value in hostile_values().values():
        try:
            list(read_paths([value]))
        except (TypeError, OSError, ValueError) as error:
            assert SECRET not in str(error) or type(value) is str
