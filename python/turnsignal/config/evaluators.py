"""The ``evaluator`` and ``change_evidence`` keys of a topic_continuity rule
(docs/lexical2.md §1, docs/hybrid1.md §1): which evaluator runs, and for
lexical.2 and hybrid.1 which evidence may produce ``change``."""

from __future__ import annotations

from typing import List, Optional, Tuple

from .names import go_quote, yaml_type_name

__all__ = [
    "CHANGE_EVIDENCE",
    "DEFAULT_CHANGE_EVIDENCE",
    "DEFAULT_EVALUATOR",
    "EVALUATORS",
    "EVIDENCE_OF",
    "HYBRID1",
    "LEXICAL1",
    "LEXICAL2",
    "evaluator_problems",
    "read_evaluator",
]

LEXICAL1 = "lexical.1"
LEXICAL2 = "lexical.2"
HYBRID1 = "hybrid.1"
EVALUATORS = (LEXICAL1, LEXICAL2, HYBRID1)
DEFAULT_EVALUATOR = LEXICAL1
#: Each level adds to the one before: explicit markers, new requests, disjoint
#: questions, and (hybrid.1 only) a low similarity to the message before.
CHANGE_EVIDENCE = ("explicit", "request", "disjoint", "similarity")
#: The levels each evaluator with levels accepts.
EVIDENCE_OF = {LEXICAL2: CHANGE_EVIDENCE[:3], HYBRID1: CHANGE_EVIDENCE}
DEFAULT_CHANGE_EVIDENCE = "request"


def _quoted(values: Tuple[str, ...]) -> str:
    return ", ".join(f'"{value}"' for value in values)


def _choice_problem(field: str, value: object, allowed: Tuple[str, ...]) -> Optional[str]:
    if not isinstance(value, str):
        return f"{field} must be a string, got {yaml_type_name(value)}"
    if value not in allowed:
        return f"{field} must be one of {_quoted(allowed)}, got {go_quote(value)}"
    return None


def evaluator_problems(evaluator: object, change_evidence: object) -> List[str]:
    """Every problem of the two keys' effective values (``None`` evidence = default)."""
    problems = []
    problem = _choice_problem("evaluator", evaluator, EVALUATORS)
    if problem:
        problems.append(problem)
    if change_evidence is not None:
        problem = _choice_problem("change_evidence", change_evidence, CHANGE_EVIDENCE)
        if problem:
            problems.append(problem)
        elif evaluator == LEXICAL1:  # (an invalid evaluator is reported once, above)
            problems.append(f"change_evidence is only valid with evaluator: {LEXICAL2}")
        elif evaluator == LEXICAL2 and change_evidence not in EVIDENCE_OF[LEXICAL2]:
            problems.append(f"change_evidence {go_quote(change_evidence)} is only valid with "
                            f"evaluator: {HYBRID1}")
    return problems


def read_evaluator(evaluator: object, change_evidence: object,
                   problems: List[str]) -> Tuple[str, Optional[str]]:
    """Effective ``(evaluator, change_evidence)`` of a rule mapping (``null``
    means the default); problems are appended. lexical.1 has no evidence level."""
    evaluator = DEFAULT_EVALUATOR if evaluator is None else evaluator
    found = evaluator_problems(evaluator, change_evidence)
    problems.extend(found)
    if found or evaluator not in EVIDENCE_OF:
        return (evaluator if isinstance(evaluator, str) else DEFAULT_EVALUATOR), None
    return evaluator, change_evidence or DEFAULT_CHANGE_EVIDENCE
