"""The hot-path interface is what both implementations export: the same
names, each with the same parameters (names, kinds and defaults), as
``turnsignal._hotpath`` chooses between them. Types are the stub's business
(``_native.pyi``, checked by stubtest in tests/test_typing.py)."""

from __future__ import annotations

import inspect
from typing import Any, List, Tuple

import turnsignal._reference as reference
from support.environment import load_hotpath

#: What only the extension has, and why.
NATIVE_ONLY = {
    "BUILD_PROFILE": "how the extension was built",
    "UNICODE_VERSION": "the version of its generated tables",
    "__version__": "the crate's version",
    "NativeError": "a caught Rust panic",
    "Doc": "its Doc class (the reference's is turnsignal._reference.doc.Doc)",
    "decode_request": "turnsignal.decode() natively (the reference is wire.decode_reference)",
    "lexicons": "the lexicons it compiled in (tests/hotpath/test_lexicons.py checks them)",
}


def _parameters(value: Any) -> List[Tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(value).parameters.values()]


def test_both_export_the_same_names() -> None:
    native = load_hotpath("native")
    assert set(native.__all__) - set(NATIVE_ONLY) == set(reference.__all__)
    assert set(NATIVE_ONLY) <= set(dir(native))


def test_every_function_takes_the_same_parameters() -> None:
    native = load_hotpath("native")
    checked = 0
    for name in reference.__all__:
        ours, theirs = getattr(reference, name), getattr(native, name)
        if isinstance(ours, type):  # the live-turn analyses: built by the calls, never by hand
            assert isinstance(theirs, type), name
            continue
        if isinstance(ours, int):  # a bound both sides apply: the same number
            assert ours == theirs, name
            continue
        assert _parameters(ours) == _parameters(theirs), name
        checked += 1
    assert checked >= 30


def test_a_different_parameter_is_seen() -> None:
    def one(doc: Any, start: int, max_turn_bytes: int) -> None: ...

    def other(doc: Any, start: int, max_bytes: int) -> None: ...

    assert _parameters(one) != _parameters(other)
    assert _parameters(reference.live_turn) == _parameters(one)
