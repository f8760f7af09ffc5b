//! The evaluator's `Doc` (see `python/turnsignal/_reference/doc.py`): the
//! decoded window of a conversation, held as handles to the caller's strings,
//! and the per-turn calls that read it — one crossing per turn, the text work
//! done with the GIL released.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::evidence::{is_blank, strs, upper_bound, Window};
use crate::request::model::{message_kind, window};
use crate::request::{Block, BlockKind, Collector, MessageSpan, Role};

use super::primitives::LiveTurn;
use super::run;
use super::text::text;

/// A conversation as the topic-continuity walk reads it: `kinds` (one byte
/// per message of the window), `floor` (what lies before message 0), and the
/// messages' blocks, only read by the per-turn calls.
#[pyclass(frozen, module = "turnsignal._native", name = "Doc")]
pub struct Doc {
    blocks: Vec<Block<Py<PyAny>>>,
    /// The window's messages, oldest first.
    spans: Vec<MessageSpan>,
    kinds: Py<PyBytes>,
    #[pyo3(get)]
    floor: u8,
    #[pyo3(get)]
    history_available: bool,
    #[pyo3(get)]
    format: &'static str,
}

#[pymethods]
impl Doc {
    #[getter]
    fn kinds(&self, py: Python<'_>) -> Py<PyBytes> {
        self.kinds.clone_ref(py)
    }

    fn __len__(&self) -> usize {
        self.spans.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Doc(messages={}, floor={}, format={:?})",
            self.spans.len(),
            self.floor,
            self.format
        )
    }
}

impl Doc {
    /// The evaluator's window of what `out` collected (oldest first).
    pub fn from_collector(
        py: Python<'_>,
        out: Collector<Py<PyAny>>,
        truncated: bool,
        history_available: bool,
        format: &'static str,
    ) -> Doc {
        let counts = out.messages.iter().map(|m| m.end - m.start);
        let (first, floor) = window(counts, truncated);
        let spans: Vec<MessageSpan> = out.messages[first..].to_vec();
        let kinds: Vec<u8> = spans
            .iter()
            .map(|m| message_kind(m.role, &out.blocks[m.start..m.end]))
            .collect();
        Doc {
            blocks: out.blocks,
            spans,
            kinds: PyBytes::new(py, &kinds).unbind(),
            floor,
            history_available,
            format,
        }
    }

    fn message(&self, index: usize) -> Option<(Role, &[Block<Py<PyAny>>])> {
        let m = self.spans.get(index)?;
        Some((m.role, &self.blocks[m.start..m.end]))
    }

    /// Messages `start..end` (clamped to the window).
    fn messages(
        &self,
        start: usize,
        end: usize,
    ) -> impl Iterator<Item = (Role, &[Block<Py<PyAny>>])> {
        let end = end.min(self.spans.len());
        (start.min(end)..end).filter_map(move |i| self.message(i))
    }
}

/// The text of a kept string (`None`: the empty string).
fn resolve<'a>(py: Python<'_>, t: &'a Option<Py<PyAny>>) -> Cow<'a, str> {
    match t {
        Some(obj) => {
            // The Doc holds the object alive: borrowing its buffer is safe
            // for as long as `t` is borrowed.
            let bound = obj.bind_borrowed(py);
            match text(&bound) {
                Cow::Borrowed(s) => {
                    // SAFETY: `s` points into `obj`'s own buffer, which lives
                    // as long as `obj` (held by `t` for `'a`).
                    Cow::Borrowed(unsafe { &*(s as *const str) })
                }
                Cow::Owned(s) => Cow::Owned(s),
            }
        }
        None => Cow::Borrowed(""),
    }
}

/// Content outside the evidence policy: anything but text and argument-free
/// tool calls (tool results, reasoning, refusals, media…).
fn excluded<'a, T: 'a>(blocks: impl Iterator<Item = &'a Block<T>>) -> bool {
    blocks.into_iter().any(|b| match b.kind {
        BlockKind::Text => false,
        BlockKind::ToolCall => b.has_arguments,
        _ => true,
    })
}

/// The tool walk's check (§5.3) over messages `start+1 ..`: some tool
/// result, and every result answers a call.
#[pyfunction]
pub fn tool_ids_match(py: Python<'_>, doc: &Bound<'_, Doc>, start: usize) -> bool {
    let doc = doc.get();
    let mut calls: Vec<Cow<str>> = Vec::new();
    let mut results: Vec<Cow<str>> = Vec::new();
    for (_, blocks) in doc.messages(start + 1, usize::MAX) {
        for b in blocks {
            match b.kind {
                BlockKind::ToolCall => calls.push(resolve(py, &b.id)),
                BlockKind::ToolResult => results.push(resolve(py, &b.text)),
                _ => {}
            }
        }
    }
    !results.is_empty() && results.iter().all(|r| !r.is_empty() && calls.contains(r))
}

fn user_texts<'a>(py: Python<'_>, blocks: &'a [Block<Py<PyAny>>]) -> Vec<Cow<'a, str>> {
    blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Text)
        .map(|b| resolve(py, &b.text))
        .collect()
}

/// The live turn (messages `start..`): `(analysis, byte_count, truncated,
/// excluded, opaque_only, term_count, entity_count, capped, prose_terms,
/// strong_reference, weak_reference, acknowledgement, change_marker,
/// marker_ambiguous)`.
#[pyfunction]
pub fn live_turn<'py>(
    py: Python<'py>,
    doc: &Bound<'py, Doc>,
    start: usize,
    max_turn_bytes: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let doc = doc.get();
    let Some((_, first)) = doc.message(start) else {
        return Err(pyo3::exceptions::PyIndexError::new_err("no such message"));
    };
    let texts = user_texts(py, first);
    let excluded = excluded(doc.messages(start, usize::MAX).flat_map(|(_, b)| b.iter()));
    let has_opaque = first.iter().any(|b| b.kind.is_opaque());
    let texts = strs(&texts);
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let analysed = run(py, bytes, || {
        let mut window = Window::new(max_turn_bytes);
        for t in &texts {
            window.add(t);
        }
        let segments = &window.segments;
        let opaque_only = !window.truncated && has_opaque && segments.iter().all(|s| is_blank(s));
        let (analysis, prose, flags) = crate::score::analyze_live_turn(segments);
        (
            analysis,
            max_turn_bytes - window.budget,
            window.truncated,
            opaque_only,
            prose,
            flags,
        )
    })?;
    let (analysis, byte_count, truncated, opaque_only, prose, flags) = analysed;
    let (terms, entities, capped) = (
        analysis.term_count(),
        analysis.entity_count(),
        analysis.capped,
    );
    let live = Bound::new(py, LiveTurn::new(analysis))?.into_any();
    let numbers = (
        byte_count,
        truncated,
        excluded,
        opaque_only,
        terms,
        entities,
        capped,
        prose,
    )
        .into_pyobject(py)?;
    let flags = (
        flags.strong_reference,
        flags.weak_reference,
        flags.acknowledgement,
        flags.change_marker,
        flags.marker_ambiguous,
    )
        .into_pyobject(py)?;
    let items: Vec<Bound<'py, PyAny>> = std::iter::once(live)
        .chain(numbers.iter())
        .chain(flags.iter())
        .collect();
    PyTuple::new(py, items)
}

type PriorResult = (usize, i64, bool, bool, bool, f64, f64, bool);

/// One prior turn (messages `start..end`): `(upper_bound, byte_count,
/// truncated, tool_cap_reached, excluded, lexical, entity, capped)`; when
/// its upper bound exceeds `budget` the turn is not read (`byte_count` -1).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn prior_turn(
    py: Python<'_>,
    doc: &Bound<'_, Doc>,
    live: &Bound<'_, LiveTurn>,
    start: usize,
    end: usize,
    max_turn_bytes: usize,
    include_assistant: bool,
    budget: i64,
) -> PyResult<PriorResult> {
    let doc = doc.get();
    let Some((_, first)) = doc.message(start) else {
        return Err(pyo3::exceptions::PyIndexError::new_err("no such message"));
    };
    let user = user_texts(py, first);
    let mut assistant: Vec<Cow<str>> = Vec::new();
    let mut names: Vec<Cow<str>> = Vec::new();
    let mut calls = 0usize;
    for (index, (role, blocks)) in doc.messages(start, end).enumerate() {
        let assistant_text = include_assistant && index > 0 && role == Role::Assistant;
        for b in blocks {
            match b.kind {
                BlockKind::ToolCall => {
                    if calls < crate::evidence::MAX_TOOL_NAMES_PER_TURN {
                        names.push(resolve(py, &b.name));
                    }
                    calls += 1;
                }
                BlockKind::Text if assistant_text => assistant.push(resolve(py, &b.text)),
                _ => {}
            }
        }
    }
    let bound = upper_bound(&user, &assistant, &names, max_turn_bytes);
    if (bound as i64) > budget {
        return Ok((bound, -1, false, false, false, 0.0, 0.0, false));
    }
    let excluded = excluded(doc.messages(start, end).flat_map(|(_, b)| b.iter()));
    let (user, assistant) = (strs(&user), strs(&assistant));
    let bytes = user.iter().chain(assistant.iter()).map(|t| t.len()).sum();
    let live = &live.get().inner;
    let scored = run(py, bytes, || {
        let mut window = Window::new(max_turn_bytes);
        for t in user.iter().chain(assistant.iter()) {
            window.add(t);
        }
        let (kept, tool_cap) = window.tool_names(&names, calls);
        let (lexical, entity, capped) = crate::score::score_prior(live, &window.segments, &kept);
        (
            (max_turn_bytes - window.budget) as i64,
            window.truncated,
            tool_cap,
            lexical,
            entity,
            capped,
        )
    })?;
    let (byte_count, truncated, tool_cap, lexical, entity, capped) = scored;
    Ok((
        bound, byte_count, truncated, tool_cap, excluded, lexical, entity, capped,
    ))
}
