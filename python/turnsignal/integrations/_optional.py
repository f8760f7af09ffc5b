"""Importing a framework an integration needs, with an install hint."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(f"{module} is not installed: pip install 'turnsignal[{extra}]'"
                          ) from error
