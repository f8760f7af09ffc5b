"""The structural facts of a decoded request (spec conversation.md, "Facts").

One pass over the neutral messages, no text read: only roles, block types and
the request-level tool count and tool choice. The facts are the same for the
same conversation in every wire format (except that OpenAI Responses sends
each function call and reasoning item as its own assistant message).

The per-message pass is ``count_facts`` of the hot-path module (the Rust core
or the pure-Python reference, ``turnsignal._hotpath``); the facts are
assembled from its counts by ``turnsignal._reference.facts.facts_of``, which
both implementations' ``request_facts`` share.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, NamedTuple, Optional, Tuple

from turnsignal import _hotpath
from turnsignal._reference import facts as _facts
from turnsignal.model import Conversation, Role
from turnsignal.wire import MAX_REQUEST_VALUES

__all__ = ["ConversationFacts", "check_facts", "compute_facts", "tool_choice_flags"]


class ConversationFacts(NamedTuple):
    """Counts of one request. Instructions count as messages of their role."""

    system_messages: int = 0
    developer_messages: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    tool_messages: int = 0
    tool_definitions: int = 0
    assistant_tool_calls: int = 0
    assistant_tool_cycles: int = 0
    images: int = 0
    active_tool_loop: int = 0
    tool_choice_required: int = 0
    tool_choice_none: int = 0

    def messages(self, role: Optional[str] = None) -> int:
        """Messages of ``role`` (a ``Role`` value or ``"non_user"``); all when ``None``."""
        everyone = (self.system_messages + self.developer_messages + self.user_messages
                    + self.assistant_messages + self.tool_messages)
        if role is None:
            return everyone
        if role == "non_user":
            return everyone - self.user_messages
        return int(getattr(self, f"{Role(role).value}_messages"))

    def to_dict(self) -> Dict[str, int]:
        return dict(self._asdict())


def tool_choice_flags(value: Any) -> Tuple[int, int]:
    """``(tool_choice_required, tool_choice_none)`` of a raw ``tool_choice``
    value (see ``turnsignal.wire``: "required", "any" or a named tool force a
    tool; "none" forbids one). ``Conversation.tool_choice`` holds the decoded
    kind (``"required"``, ``"none"``, ``"auto"`` or None), which reads the same."""
    return _facts.tool_choice_flags(value, MAX_REQUEST_VALUES)


def check_facts(facts: Any) -> ConversationFacts:
    """``facts`` when it is ``ConversationFacts`` whose every field is a count
    (an ``int`` >= 0, not a ``bool``): ``TypeError`` or ``ValueError``
    naming the field otherwise. Facts a caller builds by hand would
    otherwise be counted wrong without a word (``3.5`` read as 3, ``True``
    as 1) or fail inside a rule."""
    if not issubclass(type(facts), ConversationFacts):
        raise TypeError(f"facts must be ConversationFacts (compute_facts(conversation)),"
                        f" got {type(facts).__name__}")
    for name, value in zip(ConversationFacts._fields, facts):
        if type(value) is not int:
            raise TypeError(f"facts.{name} must be an int >= 0, got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"facts.{name} must be an int >= 0, got a negative count")
    return facts


def compute_facts(conversation: Conversation,
                  hotpath: Optional[ModuleType] = None) -> ConversationFacts:
    """The facts of a decoded request, in one pass over its messages.

    Decode without tail limits first (``decode(request)``): facts count the
    whole request, not the window topic continuity reads. ``hotpath`` is the
    implementation module (``turnsignal._native`` or ``turnsignal._reference``)
    running the pass; ``None`` means the environment's choice
    (``turnsignal._hotpath.default_module()``). Both give identical facts.
    """
    if not issubclass(type(conversation), Conversation):
        raise TypeError(f"compute_facts needs a Conversation (turnsignal.decode(request)),"
                        f" got {type(conversation).__name__}")
    module = _hotpath.default_module() if hotpath is None else hotpath
    return ConversationFacts(*_facts.facts_of(conversation, module.count_facts,
                                              MAX_REQUEST_VALUES))
