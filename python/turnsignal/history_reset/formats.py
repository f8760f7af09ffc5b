"""Per wire format: where the items are, how to read one, what is valid."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Sequence

from turnsignal.history_reset import anthropic, openai, responses
from turnsignal.history_reset.view import Item, View, scan

__all__ = ["FORMATS", "WireFormat", "rebuild"]


def _no_top_level_check(request: Any) -> None:
    return None


class WireFormat(NamedTuple):
    key: str  # the top-level key holding the items
    scan_item: Callable[[Any], Item]
    valid: Callable[[Sequence[Item]], bool]
    check_top: Callable[[Any], None]

    def view(self, request: Any, items: Sequence[Any]) -> View:
        self.check_top(request)
        return scan(items, self.scan_item)


FORMATS: Dict[str, WireFormat] = {
    "openai": WireFormat("messages", openai.scan_item, openai.valid,
                         _no_top_level_check),
    "anthropic": WireFormat("messages", anthropic.scan_item, anthropic.valid,
                            _no_top_level_check),
    "responses": WireFormat("input", responses.scan_item, responses.valid,
                            responses.check_top),
}


def rebuild(request: Any, key: str, items: List[Any]) -> Any:
    """A new request like ``request`` holding ``items``: a bare list stays a
    list; a mapping becomes a new dict sharing every other value."""
    if isinstance(request, (list, tuple)):
        return items
    new = dict(request)
    new[key] = items
    return new
