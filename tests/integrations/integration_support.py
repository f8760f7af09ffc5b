"""What the framework-integration tests share: importing the real framework
(which the ``test`` extra installs — missing in CI is a failure, elsewhere a
skip), and waiting for what a framework does in the background."""

from __future__ import annotations

import os
import time
from types import ModuleType
from typing import Callable, TypeVar

from support.environment import require_module

T = TypeVar("T")


def framework(module: str) -> ModuleType:
    # LiteLLM fetches its price list from the network when first imported
    # unless told not to: the tests never touch the network.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return require_module(module)


def eventually(probe: Callable[[], T], timeout: float = 20.0) -> T:
    """``probe()`` once it returns something truthy (LiteLLM logs after it answers)."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)
