"""Near-miss keys: a misspelt key that turnsignal reads is an error, any other
key is the router's business.

A full router configuration holds many keys turnsignal never reads, so unknown
keys above the rule level are accepted. But ``routng:``, ``signal:``,
``topic_continuty:`` or ``decisons:`` would otherwise load as "no rules" and
change what the configuration means without a word. A key is a near miss of a
key turnsignal reads when, compared case-insensitively with ``-`` read as
``_``, the two are at most two edits apart (insertions, deletions,
substitutions, swaps of neighbours; fewer for short keys: an edit for every
two characters of the shorter, so ``eq`` is no near miss of ``gt``) or differ
only by a plural ending; it is an error only while the key it resembles is
absent.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Mapping, Optional, Sequence

from ..errors import ConfigIssue

__all__ = ["MAX_EDITS", "near_miss", "near_miss_issues"]

MAX_EDITS = 2


def near_miss(key: object, known: Iterable[str]) -> Optional[str]:
    """The known key ``key`` is a near miss of, or ``None`` (also for exact keys)."""
    if not isinstance(key, str):
        return None
    folded = _fold(key)
    for candidate in known:
        if key == candidate:
            return None
        target = _fold(candidate)
        edits = min(MAX_EDITS, (min(len(folded), len(target)) - 1) // 2)
        if _singular(folded) == _singular(target) or _within(folded, target, edits):
            return candidate
    return None


def near_miss_issues(data: Mapping[Any, Any], known: Sequence[str], path: str,
                     prefix: str = "") -> List[ConfigIssue]:
    """One issue per key of ``data`` that nearly spells a known key absent from
    ``data``. ``path`` is the mapping's dotted path (``""`` for the top
    level), ``prefix`` the file it came from (``"rules.yaml: "``)."""
    absent = [key for key in known if key not in data]
    if not absent:
        return []
    issues = []
    for key in data:
        meant = near_miss(key, absent)
        if meant is not None:
            where = f"{prefix}{path}.{key}" if path else f"{prefix}{key}"
            issues.append(ConfigIssue(where, f'unknown key; did you mean "{meant}"?'))
    return issues


def _fold(key: str) -> str:
    return key.casefold().replace("-", "_").strip()


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and len(word) > 3:
        return word[:-1]
    return word


def _within(a: str, b: str, limit: int) -> bool:
    """Optimal-string-alignment distance of ``a`` and ``b`` is at most ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return False
    before: List[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if (i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]):
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return False
        before, row = row, current
    return row[-1] <= limit
