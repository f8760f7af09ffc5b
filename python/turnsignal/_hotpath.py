"""The hot-path interface and the choice of implementation.

Decoding requests for the evaluators, and the per-turn text work of the
topic_continuity evaluator (spec §5.4, §6), live behind a small interface
implemented twice, with identical results:

* ``turnsignal._native`` — the Rust core (``rust/``), through PyO3;
* ``turnsignal._reference`` — the pure-Python reference, the fallback.

The interface is what both modules export: the same names with the same
parameters (checked by ``tests/hotpath/test_hotpath_interface.py``), typed in
``turnsignal/_native.pyi``; the tuples the per-turn calls return are laid out
once, in ``turnsignal._reference.turns``.

The orchestration (``turnsignal.topic_continuity.walk``) is shared: it walks
a ``Doc`` (one kind byte per message) and calls the interface once for the
live turn and once per prior turn, so it can check the deadline and the
cancellation token between calls (spec §9).

All offsets are UTF-8 byte offsets into the text passed in. Segments are the
windowed text pieces of one turn (spec §5.4); nothing is ever formed across two
segments.

``TURNSIGNAL_IMPLEMENTATION`` selects the implementation: ``native`` or
``python``. Unset means native, falling back to Python with a warning only when
the extension is missing; ``native`` without the extension raises ImportError.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType
from typing import Any, Optional, Tuple

__all__ = ["ENV_VAR", "default_module", "load", "module_vector_table", "native_available",
           "numbers_only", "vector_table"]

ENV_VAR = "TURNSIGNAL_IMPLEMENTATION"


def native_available() -> bool:
    try:
        from turnsignal import _native  # noqa: F401
    except ImportError:
        return False
    return True


def load(name: str | None = None) -> Tuple[str, ModuleType]:
    """Return ``(implementation name, module)`` for ``name`` (``"native"``,
    ``"python"``) or, when ``None``, for the environment's choice. Any other
    ``name`` is a ``ValueError`` naming where it came from."""
    source = "implementation" if name is not None else ENV_VAR
    if name is not None and not isinstance(name, str):
        raise ValueError(f"{source} must be 'native' or 'python', got {type(name).__name__}")
    choice = (name if name is not None else os.environ.get(ENV_VAR, "")).strip().lower()
    if choice in ("python", "reference"):
        from turnsignal import _reference

        return "python", _reference
    if choice == "native":
        from turnsignal import _native  # raises ImportError when the extension is missing

        return "native", _native
    if choice:
        shown = repr(choice) if len(choice) <= 32 else f"a text of {len(choice)} characters"
        raise ValueError(f"{source} must be 'native' or 'python', got {shown}")
    try:
        from turnsignal import _native
    except ImportError:
        _warn_fallback_once()
        from turnsignal import _reference

        return "python", _reference
    return "native", _native


_default: Optional[ModuleType] = None


def default_module() -> ModuleType:
    """The environment's implementation, chosen on first use and kept (not
    at import: choosing may warn that the native extension is missing)."""
    global _default
    if _default is None:
        _default = load()[1]
    return _default


def numbers_only(values: Tuple[Any, ...]) -> bool:
    """The environment's ``numbers_only`` (whether every value is exactly a
    ``bool``, an ``int`` or a ``float``: what keeps a result content-free),
    for results built outside an evaluation, which has its own hot path."""
    return default_module().numbers_only(values)  # type: ignore[no-any-return]


def vector_table(name: str | None = None) -> Any:
    """The static word-vector table of the implementation ``name`` (as for
    ``load``): its ``VectorTable``, read from the package and parsed on the
    first call, then shared between threads (``turnsignal._vector_data``).
    ``table.pool(text)`` gives a ``PooledText``; ``a.similarity(b)`` their
    cosine or None; ``known_share`` says how much of a text it knows."""
    implementation, module = load(name)
    from turnsignal import _vector_data

    return _vector_data.table(implementation, module.VectorTable)


def module_vector_table(module: ModuleType) -> Any:
    """The static word-vector table of the implementation ``module``
    (``turnsignal._native`` or ``turnsignal._reference``), as ``vector_table``."""
    from turnsignal import _vector_data

    implementation = "python" if module.__name__ == "turnsignal._reference" else "native"
    return _vector_data.table(implementation, module.VectorTable)


_fallback_warned = False


def _warn_fallback_once() -> None:
    """One warning per process, at the first use that resolves the default
    (``turnsignal.IMPLEMENTATION``, a ``TopicContinuity()``, the command
    line), not at ``import turnsignal``; every later use resolves it again,
    and each call site would otherwise print its own copy."""
    global _fallback_warned
    if _fallback_warned:
        return
    _fallback_warned = True
    warnings.warn(
        "turnsignal's native extension is not available; using the pure-Python "
        "reference implementation (slower, identical results)",
        RuntimeWarning,
        stacklevel=4,
    )
