"""Reading a configuration file: regular files only, at most
``MAX_CONFIG_BYTES``.

``/dev/zero`` would grow memory without bound and a FIFO would block forever,
so the file is opened without blocking, checked with ``fstat`` on the open
descriptor (no race with a rename), and read with a counted limit (a file
that grows while it is read is refused too).
"""

from __future__ import annotations

import os

from .._lines import OPEN_FLAGS, not_regular
from ..errors import ConfigError, ConfigIssue
from .bounds import MAX_CONFIG_BYTES

__all__ = ["read_config_file"]


def read_config_file(path: str) -> bytes:
    """The bytes of the configuration file ``path``; ``ConfigError`` naming the
    file when it cannot be read, is not a regular file, or is too large."""
    try:
        fd = os.open(path, OPEN_FLAGS)
    except OSError as error:
        raise _error(path, f"cannot read the file: {error.strerror or error}") from None
    try:
        kind = not_regular(os.fstat(fd).st_mode)
        if kind is not None:
            raise _error(path, f"is {kind}, not a regular file; give a YAML or JSON file")
        data = _read_at_most(fd, MAX_CONFIG_BYTES + 1)
    except OSError as error:
        raise _error(path, f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_CONFIG_BYTES:
        raise _error(path, f"the file is larger than {MAX_CONFIG_BYTES:,} bytes (1 MiB),"
                           " the limit for a configuration file")
    return data


def _read_at_most(fd: int, limit: int) -> bytes:
    parts = []
    remaining = limit
    while remaining > 0:
        part = os.read(fd, min(remaining, 1 << 16))
        if not part:
            break
        parts.append(part)
        remaining -= len(part)
    return b"".join(parts)


def _error(path: str, message: str) -> ConfigError:
    return ConfigError([ConfigIssue(path, message)])
