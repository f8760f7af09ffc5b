"""Lazy imports of the optional dependencies behind the observers."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` when an observer is built, not when turnsignal is
    imported, so the extras stay optional; a missing one says how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{feature} needs the optional dependency {module!r}; "
            f"install it with: pip install 'turnsignal[{extra}]'") from error
