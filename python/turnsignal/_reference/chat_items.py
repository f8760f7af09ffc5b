"""The reference of the native ``chat_item_codes`` (``turnsignal._chat_items``)."""

from __future__ import annotations

from typing import Any, Optional

from turnsignal._chat_items import ItemCodes, read_codes

__all__ = ["chat_item_codes"]


def chat_item_codes(items: Any, start: int, max_blocks: int,
                    max_openings: int) -> Optional[ItemCodes]:
    """``read_codes``: the codes of an exact list's or tuple's items."""
    return read_codes(items, start, max_blocks, max_openings)
