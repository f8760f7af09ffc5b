"""The installed distribution's version (``turnsignal.__version__``)."""

from __future__ import annotations

__all__ = ["__version__"]


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return "0+unknown"
    try:
        return version("turnsignal")
    except PackageNotFoundError:
        return "0+unknown"


__version__: str = _version()
