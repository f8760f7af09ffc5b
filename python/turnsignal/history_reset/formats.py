"""Per wire format: where the items are, how to read one, what is valid."""

from __future__ import annotations

import sys
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from turnsignal._chat_items import ItemCodes
from turnsignal.history_reset import anthropic, openai, responses
from turnsignal.history_reset.view import Item, View, coded_view, scan

__all__ = ["FORMATS", "WireFormat", "rebuild"]


def _no_top_level_check(request: Any) -> None:
    return None


class WireFormat(NamedTuple):
    key: str  # the top-level key holding the items
    scan_item: Callable[[Any], Item]
    valid: Callable[[Sequence[Item]], bool]
    check_top: Callable[[Any], None]
    #: Its items are OpenAI Chat messages, which the hot path's
    #: ``chat_item_codes`` reads in one call.
    coded: bool = False
    #: Whether a request with no tool call and no result is always valid.
    plain_valid: bool = False

    def codes(self, request: Any, items: Sequence[Any],
              hotpath: Optional[Any]) -> Optional[ItemCodes]:
        """The top-level check, then the code of every item (and the ids of
        its tool calls or result), in one hot-path call
        (``turnsignal._chat_items``); None when the format is not coded, no
        ``hotpath`` is given or it cannot read them."""
        self.check_top(request)
        if self.coded and hotpath is not None:
            return hotpath.chat_item_codes(  # type: ignore[no-any-return]
                items, 0, sys.maxsize, sys.maxsize)
        return None

    def view_of(self, items: Sequence[Any], read: Optional[ItemCodes]) -> View:
        """The items scanned: from their codes when there are some (only the
        GENERAL ones by the scanner), else one by one."""
        if read is None:
            return scan(items, self.scan_item)
        return coded_view(items, read, self.scan_item)

    def view(self, request: Any, items: Sequence[Any], hotpath: Optional[Any] = None) -> View:
        """The top-level check, then the items scanned: in one hot-path call
        for a coded format (when ``hotpath`` is given and can read them),
        else one by one."""
        return self.view_of(items, self.codes(request, items, hotpath))


FORMATS: Dict[str, WireFormat] = {
    "openai": WireFormat("messages", openai.scan_item, openai.valid,
                         _no_top_level_check, coded=True, plain_valid=True),
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
