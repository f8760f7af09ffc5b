"""Replay: evaluate a JSON-lines log of requests, one result line per input line.

Each input line is a request body in any wire format, an envelope
``{"request": ..., "format": ..., "id": ..., "history_available": ...}``
(all but ``request`` optional), or a line of an OpenAI or Anthropic batch
input file (``batch_lines``). Each output line is
``{"line": n, "id": ..., "results": [replay record per rule]}`` (with a
``HistoryReset``, also ``"reset": {...}``: what it would do to that request,
content-free) or, for a
line that cannot be evaluated, ``{"line": n, "id": ..., "error": "<type>:
<message>"}`` — with the envelope's ``id`` whenever the line is JSON, so that
results join to the caller's logs by id either way; a line that is not JSON
has no ``id``.
Messages never quote the line (errors name a position or a JSON path), so the
output is content-free.

Memory is bounded by bytes, not by lines: lines are read lazily; a chunk (the
unit of work of a worker) ends at ``DEFAULT_CHUNK_SIZE`` lines or before
``CHUNK_BYTES``; chunks are read ahead only while less than
``IN_FLIGHT_BYTES`` of input is in flight; a line longer than
``MAX_LINE_BYTES`` is never held whole (it is read in pieces and reported as
a bad line). So at most 16 MiB of input plus one chunk (1 MiB, or one line of
at most 64 MiB) is held at once, whatever the file and ``jobs``.

A run can be stopped between lines (``stop``): the output then holds the
results of a prefix of the input, whole lines only.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any, BinaryIO, Callable, Dict, Iterator, List, Optional, Tuple

from turnsignal._json import loads, problem

# Every data file's bound on a line; here a longer line is a bad line
# (``LineTooLong``), never held whole.
from turnsignal._lines import MAX_LINE_BYTES
from turnsignal.config import ConfigSource, TopicContinuityRule
from turnsignal.errors import WireFormatError
from turnsignal.history_reset import HistoryReset, ResetOutcome
from turnsignal.history_reset.reads import check_reads
from turnsignal.offline.batch_lines import BatchLineError, batch_id, batch_line
from turnsignal.offline.pool import chunked, ordered_map
from turnsignal.offline.summary import LineResult, ReplaySummary
from turnsignal.topic_continuity import TopicContinuity
from turnsignal.wire import FORMATS

__all__ = ["CHUNK_BYTES", "DEFAULT_CHUNK_SIZE", "IN_FLIGHT_BYTES", "MAX_LINE_BYTES",
           "build_signal", "check_reset", "evaluate_line", "iter_lines", "replay",
           "reset_outcome"]

#: Lines per unit of work sent to a worker: large enough to amortise the
#: inter-process hand-off, small enough to keep memory and latency low.
DEFAULT_CHUNK_SIZE = 256
#: A chunk also ends before this many bytes of input (unless it is one line).
CHUNK_BYTES = 1 << 20
#: Input read ahead and not yet written, over all workers.
IN_FLIGHT_BYTES = 16 << 20

ProgressCallback = Callable[[int, int], None]  # (bytes done, lines done) since last call
_ENVELOPE_KEYS = frozenset({"request", "format", "id", "history_available"})


class _BadLine(Exception):
    """A line that cannot be evaluated; ``str()`` is the content-free message."""


def build_signal(config: Optional[ConfigSource],
                 implementation: Optional[str] = None) -> TopicContinuity:
    """The embedded default rule, or the rules of ``config``."""
    if config is None:
        return TopicContinuity(implementation=implementation)
    return TopicContinuity.from_config(config, implementation=implementation)


def iter_lines(stream: BinaryIO, max_line_bytes: int = MAX_LINE_BYTES,
               ) -> Iterator[Tuple[int, Optional[bytes]]]:
    """``(line number from 1, bytes without the line ending)``, lazily; the
    bytes are ``None`` for a line longer than ``max_line_bytes``, which is
    skipped in pieces."""
    number = 0
    while True:
        raw = stream.readline(max_line_bytes + 1)
        if not raw:
            return
        number += 1
        if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
            while (rest := stream.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
            yield number, None
        else:
            yield number, raw.rstrip(b"\r\n")


def _line_weight(line: Tuple[int, Optional[bytes]]) -> int:
    # +1 for the newline iter_lines removed, so progress matches the file size.
    return len(line[1]) + 1 if line[1] is not None else 1


def _json_value(raw: bytes) -> Any:
    if not raw.strip():
        raise _BadLine("JSONDecodeError: empty line")
    try:
        return loads(raw)
    except ValueError as error:  # not UTF-8, not JSON, nested too deep, too many digits
        raise _BadLine(problem(error)) from None


def _parse(value: Any, default_format: str) -> Tuple[Any, str, Any, bool]:
    """``(request, format, id, history_available)`` of one parsed line."""
    if isinstance(value, dict) and "request" in value:
        return _unwrap(value, default_format)
    try:
        batch = batch_line(value)
    except BatchLineError as error:
        raise _BadLine(f"BatchLineError: {error}") from None
    if batch is not None:
        return batch.request, batch.format, batch.id, True
    return value, default_format, None, True


def _valid_id(value: Any) -> bool:
    return value is None or (isinstance(value, (str, int)) and not isinstance(value, bool))


def _envelope_id(value: Any) -> Any:
    """The envelope's ``id`` when it is a valid one (else ``None``): a bad
    line's record keeps it, as a good line's does."""
    if isinstance(value, dict) and "request" in value:
        request_id = value.get("id")
        return request_id if _valid_id(request_id) else None
    return batch_id(value)


def _unwrap(envelope: dict, default_format: str) -> Tuple[Any, str, Any, bool]:
    unknown = sorted(set(envelope) - _ENVELOPE_KEYS)
    if unknown:
        # Key names are the user's envelope vocabulary, not conversation text,
        # but they could be anything: report only how many.
        raise _BadLine(f"EnvelopeError: {len(unknown)} unknown envelope key(s)")
    format = envelope.get("format", default_format)
    if format not in FORMATS:
        raise _BadLine(f"EnvelopeError: format must be one of {', '.join(FORMATS)}")
    request_id = envelope.get("id")
    if not _valid_id(request_id):
        raise _BadLine("EnvelopeError: id must be a string, an integer or null")
    history = envelope.get("history_available", True)
    if not isinstance(history, bool):
        raise _BadLine("EnvelopeError: history_available must be a boolean")
    return envelope["request"], format, request_id, history


def evaluate_line(signal: TopicContinuity, number: int, raw: Optional[bytes],
                  default_format: str = "auto",
                  reset: Optional[HistoryReset] = None) -> LineResult:
    """Evaluate one line, and with ``reset`` say what it would do to the
    request; never raises (a failure becomes an error line)."""
    if raw is None:
        return _error(number, f"LineTooLong: longer than {MAX_LINE_BYTES:,} bytes (the limit)")
    try:
        value = _json_value(raw)
    except _BadLine as error:
        return _error(number, str(error))
    # From here on the line is JSON: its record keeps the id, good or bad.
    parsed = {"id": _envelope_id(value)}
    try:
        request, format, request_id, history = _parse(value, default_format)
        evaluation = signal.evaluate(request, format, history_available=history)
    except _BadLine as error:
        return _error(number, str(error), parsed)
    except WireFormatError as error:
        return _error(number, f"WireFormatError: {error}", parsed)
    except Exception as error:
        # The message of an unexpected error might quote the input: type only.
        return _error(number, f"{type(error).__name__}: unexpected error", parsed)
    output = {"line": number, "id": request_id, "results": evaluation.replay_records()}
    rules = tuple((r.signal, r.class_.value, r.reason.value, r.coverage.value, r.fallback)
                  for r in evaluation.results)
    if reset is None:
        return LineResult(number, json.dumps(output), None, rules)
    try:
        outcome = reset_outcome(reset, signal, request, format, evaluation, history)
    except Exception as error:  # only with on_error="raise"; type only, as above
        return _error(number, f"{type(error).__name__}: unexpected error in the reset", parsed)
    output["reset"] = outcome.to_dict()
    return LineResult(number, json.dumps(output), None, rules,
                      (outcome.gate.value, outcome.removed_turns, outcome.removed_messages))


def check_reset(signal: TopicContinuity, reset: Optional[HistoryReset]) -> None:
    """Before any work: ``reset`` is None or a ``HistoryReset`` (else
    ``TypeError``) that reads a rule of ``signal`` (else ``ValueError``)."""
    if reset is None:
        return
    if not isinstance(reset, HistoryReset):
        raise TypeError(f"reset must be a turnsignal HistoryReset, got {type(reset).__name__}")
    check_reads(signal, reset)


def reset_outcome(reset: HistoryReset, signal: Any, request: Any, format: str,
                  evaluation: Any, history: bool) -> ResetOutcome:
    """What ``reset`` would do: as a stateless gateway acts (``apply_turn``:
    the turn's opening, then the reset point among earlier turns), or, for a
    line whose history was not available, on its own verdict only."""
    if not history:
        return reset.apply(request, evaluation, format)
    return reset.apply_turn(request, signal, format, evaluation=evaluation)


def _error(number: int, message: str, kept: Optional[Dict[str, Any]] = None) -> LineResult:
    """A bad line's record: its number, what the line gave that good records
    pass through (``kept``: its ``id``, when the line is JSON), the error."""
    record = {"line": number, **(kept or {}), "error": message}
    return LineResult(number, json.dumps(record), message)


# Worker state: one signal per process, built once by the pool initializer.
_WORKER: dict = {}


def _init_worker(rules: Tuple[TopicContinuityRule, ...], implementation: str,
                 default_format: str, reset: Optional[HistoryReset] = None) -> None:
    _WORKER["signal"] = TopicContinuity(rules, implementation=implementation)
    _WORKER["format"] = default_format
    _WORKER["reset"] = reset


def _evaluate_chunk(chunk: List[Tuple[int, Optional[bytes]]]) -> Tuple[List[LineResult], int]:
    signal, default_format, reset = _WORKER["signal"], _WORKER["format"], _WORKER["reset"]
    results = [evaluate_line(signal, number, raw, default_format, reset)
               for number, raw in chunk]
    return results, sum(_line_weight(line) for line in chunk)


def _chunk_weight(chunk: List[Tuple[int, Optional[bytes]]]) -> int:
    return sum(_line_weight(line) for line in chunk)


def _check_streams(source: Any, output: Any) -> None:
    """A path given for a stream is a mistake worth naming before any work."""
    if isinstance(source, io.TextIOBase) or not callable(getattr(source, "readline", None)):
        raise TypeError("source must be a binary stream (a file opened with 'rb', or"
                        f" sys.stdin.buffer), got {type(source).__name__}")
    if not callable(getattr(output, "write", None)):
        raise TypeError(f"output must be a text stream, got {type(output).__name__}")


def replay(source: BinaryIO, output: Any, *, config: Optional[ConfigSource] = None,
           format: str = "auto", jobs: int = 1, implementation: Optional[str] = None,
           reset: Optional[HistoryReset] = None,
           chunk_size: int = DEFAULT_CHUNK_SIZE,
           on_progress: Optional[ProgressCallback] = None,
           stop: Optional[Callable[[], bool]] = None,
           chunk_bytes: int = CHUNK_BYTES,
           in_flight_bytes: int = IN_FLIGHT_BYTES) -> ReplaySummary:
    """Evaluate every line of ``source`` (a binary stream) and write one JSON
    line per input line to ``output`` (a text stream), in input order, using
    ``jobs`` processes. Raises ``ConfigError`` for a bad ``config`` before
    reading anything; bad lines never raise. When ``stop()`` turns true the
    run ends between two lines (``summary.stopped``): the output then holds
    the results of lines 1 to ``summary.lines``, and the workers are gone.

    With ``reset`` (a ``HistoryReset``), each record also says what it would
    do to its request (``"reset"``: gate, removed turns and messages, basis;
    never the request), as a gateway applies it to a stateless client's
    request (``apply_turn``), and the summary counts its gates. A reset that
    reads a rule the configuration lacks is a ``ValueError`` before any work."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    _check_streams(source, output)
    # Built here first so a configuration error surfaces once, in the caller;
    # every worker gets the rules read here (the configuration is read once)
    # and the implementation resolved here, both plain picklable values.
    signal = build_signal(config, implementation)
    check_reset(signal, reset)
    summary = ReplaySummary(counts_resets=reset is not None)
    started = time.perf_counter()
    should_stop = stop or (lambda: False)
    chunks = chunked(iter_lines(source), chunk_size, max_weight=chunk_bytes,
                     weight=_line_weight)
    for results, nbytes in ordered_map(_evaluate_chunk, chunks, jobs=jobs,
                                       initializer=_init_worker,
                                       initargs=(signal.rules, signal.implementation,
                                                 format, reset),
                                       weight=_chunk_weight, max_weight=in_flight_bytes,
                                       stop=should_stop):
        for result in results:
            if should_stop():
                break
            output.write(result.output + "\n")
            summary.add(result)
        if on_progress is not None:
            on_progress(nbytes, len(results))
    summary.stopped = should_stop()
    summary.elapsed_s = time.perf_counter() - started
    return summary
