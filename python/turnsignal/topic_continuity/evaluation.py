"""What ``TopicContinuity.evaluate`` returns."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union, overload

from turnsignal.topic_continuity.plan import RuleOutcome, Run
from turnsignal.topic_continuity.replay import replay_record
from turnsignal.topic_continuity.result import TopicContinuityResult

__all__ = ["Results", "TopicContinuityEvaluation", "replay_records"]


class Results(Tuple[TopicContinuityResult, ...]):
    """Results in rule order, also addressable by rule name: ``results[0]``,
    ``results["topic_boundary"]``, ``"topic_boundary" in results``."""

    __slots__ = ()

    @overload
    def __getitem__(self, key: int) -> TopicContinuityResult: ...
    @overload
    def __getitem__(self, key: str) -> TopicContinuityResult: ...
    @overload
    def __getitem__(self, key: slice) -> Tuple[TopicContinuityResult, ...]: ...

    def __getitem__(self, key: Union[int, str, slice]) -> Any:
        if isinstance(key, str):
            for result in self:
                if result.signal == key:
                    return result
            raise KeyError(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            return any(result.signal == key for result in self)
        return super().__contains__(key)

    def get(self, name: str, default: Optional[TopicContinuityResult] = None,
            ) -> Optional[TopicContinuityResult]:
        for result in self:
            if result.signal == name:
                return result
        return default

    @property
    def names(self) -> Tuple[str, ...]:
        return tuple(result.signal for result in self)


class TopicContinuityEvaluation:
    """Every rule's result for one request, in declaration order, plus one
    prepared input size per distinct history policy (first-use order) and the
    content-free cost receipt of each rule.

    Cheap to create: the per-rule views (``outcomes``, ``timings``,
    ``to_dict()``) are built when asked for.

    Pickling or deep-copying an evaluation (to or from a worker process)
    keeps everything but the private record of which request it read: that
    record is the request's own objects, which a copy cannot stand for. The
    copy therefore cannot prove where it came from, and ``HistoryReset``
    refuses it (gate ``not_from_request``); evaluate the request where the
    reset is applied. A shallow ``copy.copy`` holds the same objects, so it
    keeps the record."""

    __slots__ = ("_classify_us", "_group_us", "_outcomes", "_provenance", "ended_ns", "format",
                 "preparation_input_bytes", "results", "started_ns")

    def __init__(self, outcomes: Sequence[RuleOutcome], preparation_input_bytes: Sequence[int],
                 format: Optional[str] = None, *, started_ns: int = 0, ended_ns: int = 0) -> None:
        self.started_ns = started_ns  # wall clock (time.time_ns) around the evaluation
        self.ended_ns = ended_ns
        self._outcomes: Optional[Tuple[RuleOutcome, ...]] = tuple(outcomes)
        self.results = Results(outcome.result for outcome in self._outcomes)
        self._classify_us = tuple(o.classify_us for o in self._outcomes)
        self._group_us = tuple(o.prepare_extract_us for o in self._outcomes)
        self.preparation_input_bytes: Tuple[int, ...] = tuple(preparation_input_bytes)
        self.format = format
        # Which request this was computed from (turnsignal._provenance):
        # private, never serialised; set by the evaluate methods that read a request.
        self._provenance: Any = None

    @classmethod
    def _from_run(cls, run: Run, format: Optional[str], started_ns: int,
                  ended_ns: int) -> TopicContinuityEvaluation:
        self = cls.__new__(cls)
        results, self._classify_us, self._group_us, self.preparation_input_bytes = run
        self.started_ns = started_ns
        self.ended_ns = ended_ns
        self._outcomes = None
        self.results = Results(results)
        self.format = format
        self._provenance = None
        return self

    # Pickle and deepcopy: every slot but the provenance (the request's own
    # objects and the hot-path module: not picklable, and a copy of them
    # would prove nothing).
    def __getstate__(self) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in _STATE}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self._provenance = None

    def __copy__(self) -> TopicContinuityEvaluation:
        # The same objects: the provenance still proves which request was read.
        copied = type(self).__new__(type(self))
        for name in TopicContinuityEvaluation.__slots__:
            object.__setattr__(copied, name, getattr(self, name))
        return copied

    def __iter__(self) -> Iterator[TopicContinuityResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, key: Union[int, str]) -> TopicContinuityResult:
        return self.results[key]

    @property
    def outcomes(self) -> Tuple[RuleOutcome, ...]:
        """Per rule: the result with its ``classify_us`` and ``prepare_extract_us``."""
        if self._outcomes is None:
            self._outcomes = tuple(
                RuleOutcome(result, classify_us, group_us) for result, classify_us, group_us
                in zip(self.results, self._classify_us, self._group_us))
        return self._outcomes

    @property
    def timings(self) -> List[Dict[str, int]]:
        """Per rule: ``classify_us`` and its group's shared ``prepare_extract_us``."""
        return [{"classify_us": classify_us, "prepare_extract_us": group_us}
                for classify_us, group_us in zip(self._classify_us, self._group_us)]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "results": [result.to_dict() for result in self.results],
            "preparation_input_bytes": list(self.preparation_input_bytes),
        }

    def replay_records(self) -> List[Dict[str, Any]]:
        """One content-free replay record per rule, in declaration order (spec §12)."""
        return replay_records(self)

    def __repr__(self) -> str:
        inner = ", ".join(f"{r.signal}={r.class_.value}/{r.reason.value}" for r in self.results)
        return f"TopicContinuityEvaluation({inner})"


_STATE = tuple(name for name in TopicContinuityEvaluation.__slots__ if name != "_provenance")


def replay_records(evaluation: TopicContinuityEvaluation) -> List[Dict[str, Any]]:
    """One replay record per rule, in declaration order; anything but a
    ``TopicContinuityEvaluation`` is a ``TypeError`` naming its type."""
    if not issubclass(type(evaluation), TopicContinuityEvaluation):
        raise TypeError(f"replay_records takes a TopicContinuityEvaluation, "
                        f"got {type(evaluation).__name__}")
    return [replay_record(outcome) for outcome in evaluation.outcomes]
