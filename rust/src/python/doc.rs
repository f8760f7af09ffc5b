//! The evaluator's `Doc` (see `python/turnsignal/_reference/doc.py`): the
//! decoded window of a conversation, held as handles to the caller's strings,
//! and what it yields for one turn (`LiveInputs`, `PriorInputs`: the texts
//! borrowed, nothing copied), read by the per-turn calls of `turns`.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::evidence::upper_bound;
use crate::request::model::{kind::START, message_kind, window};
use crate::request::{Block, BlockKind, Collector, MessageSpan, Role};

use super::text::text;

/// A conversation as the topic-continuity walk reads it: `kinds` (one byte
/// per message of the window), `floor` (what lies before message 0), the
/// indexes of the turn-starting messages, and the messages' blocks, only
/// read by the per-turn calls.
#[pyclass(frozen, module = "turnsignal._native", name = "Doc")]
pub struct Doc {
    blocks: Vec<Block<Py<PyAny>>>,
    /// The window's messages, oldest first.
    spans: Vec<MessageSpan>,
    kinds: Py<PyBytes>,
    /// `(kinds, floor, starts)`, built once: the walk reads all three with
    /// one attribute access.
    layout: Py<PyTuple>,
    /// The newest turn-starting message: where the live turn starts (when
    /// the walk reads prior turns), so where the newest prior turn ends.
    newest_start: Option<usize>,
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

    #[getter]
    fn layout(&self, py: Python<'_>) -> Py<PyTuple> {
        self.layout.clone_ref(py)
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
    ) -> PyResult<Doc> {
        let counts = out.messages.iter().map(|m| m.end - m.start);
        let (first, floor) = window(counts, truncated);
        let spans: Vec<MessageSpan> = out.messages[first..].to_vec();
        let kinds: Vec<u8> = spans
            .iter()
            .map(|m| message_kind(m.role, &out.blocks[m.start..m.end]))
            .collect();
        let starts: Vec<usize> = (0..kinds.len()).filter(|&i| kinds[i] == START).collect();
        let newest_start = starts.last().copied();
        let starts = PyTuple::new(py, starts)?;
        let kinds = PyBytes::new(py, &kinds);
        let layout = (kinds.clone(), floor, starts).into_pyobject(py)?.unbind();
        Ok(Doc {
            blocks: out.blocks,
            spans,
            kinds: kinds.unbind(),
            layout,
            newest_start,
            floor,
            history_available,
            format,
        })
    }

    /// Whether the prior turn that ends at message `end` is the newest one
    /// (it ends where the live turn starts).
    pub(crate) fn is_newest_prior(&self, end: usize) -> bool {
        self.newest_start == Some(end)
    }

    fn message(&self, index: usize) -> Option<(Role, &[Block<Py<PyAny>>])> {
        let m = self.spans.get(index)?;
        Some((m.role, &self.blocks[m.start..m.end]))
    }

    /// Messages `start..end` (clamped to the window).
    pub(crate) fn messages(
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
pub(crate) fn excluded<'a, T: 'a>(blocks: impl Iterator<Item = &'a Block<T>>) -> bool {
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

/// What the live turn's analysis reads (messages `start..`): the first
/// message's texts, whether the turn holds excluded content, whether the
/// first message holds media.
pub(crate) struct LiveInputs<'a> {
    pub texts: Vec<Cow<'a, str>>,
    pub excluded: bool,
    pub has_opaque: bool,
}

impl<'a> LiveInputs<'a> {
    pub fn gather(py: Python<'_>, doc: &'a Doc, start: usize) -> PyResult<Self> {
        let Some((_, first)) = doc.message(start) else {
            return Err(pyo3::exceptions::PyIndexError::new_err("no such message"));
        };
        Ok(LiveInputs {
            texts: user_texts(py, first),
            excluded: excluded(doc.messages(start, usize::MAX).flat_map(|(_, b)| b.iter())),
            has_opaque: first.iter().any(|b| b.kind.is_opaque()),
        })
    }
}

/// What a prior turn's analysis reads (messages `start..end`): the first
/// message's texts, the assistant's texts (when included), the tool names
/// (the first `MAX_TOOL_NAMES_PER_TURN`) and the number of tool calls.
pub(crate) struct PriorInputs<'a> {
    pub user: Vec<Cow<'a, str>>,
    pub assistant: Vec<Cow<'a, str>>,
    pub names: Vec<Cow<'a, str>>,
    pub calls: usize,
}

impl<'a> PriorInputs<'a> {
    pub fn gather(
        py: Python<'_>,
        doc: &'a Doc,
        start: usize,
        end: usize,
        include_assistant: bool,
    ) -> PyResult<Self> {
        let Some((_, first)) = doc.message(start) else {
            return Err(pyo3::exceptions::PyIndexError::new_err("no such message"));
        };
        let mut inputs = PriorInputs {
            user: user_texts(py, first),
            assistant: Vec::new(),
            names: Vec::new(),
            calls: 0,
        };
        for (index, (role, blocks)) in doc.messages(start, end).enumerate() {
            let assistant_text = include_assistant && index > 0 && role == Role::Assistant;
            for b in blocks {
                match b.kind {
                    BlockKind::ToolCall => {
                        if inputs.calls < crate::evidence::MAX_TOOL_NAMES_PER_TURN {
                            inputs.names.push(resolve(py, &b.name));
                        }
                        inputs.calls += 1;
                    }
                    BlockKind::Text if assistant_text => {
                        inputs.assistant.push(resolve(py, &b.text))
                    }
                    _ => {}
                }
            }
        }
        Ok(inputs)
    }

    pub fn upper_bound(&self, max_turn_bytes: usize) -> usize {
        upper_bound(&self.user, &self.assistant, &self.names, max_turn_bytes)
    }
}
