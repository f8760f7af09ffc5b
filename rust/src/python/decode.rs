//! The native decoders' entry points: the evaluator's `Doc`, the
//! conversation facts, and the full neutral conversation of
//! `turnsignal.decode()` (exported as plain tuples the Python side turns
//! into `turnsignal.model` values).

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyTuple, PyType};

use crate::request::source::thousands;
use crate::request::{
    decode, decode_with, Block, Caps, Collector, Counter, Decoded, Failure, Format, Mode, Read,
    Source, EVALUATOR_CAPS,
};

use super::doc::Doc;
use super::plain_evaluation::PlainEvaluationReader;
use super::plain_facts::PlainReader;
use super::source::PySource;
use super::text::clean;
use super::{panic_message, NativeError};

static WIRE_FORMAT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `turnsignal.WireFormatError(path, problem)`.
pub(crate) fn wire_format_error(py: Python<'_>, path: String, problem: String) -> PyErr {
    let class = WIRE_FORMAT_ERROR.get_or_try_init(py, || -> PyResult<_> {
        Ok(py
            .import("turnsignal.errors")?
            .getattr("WireFormatError")?
            .cast_into::<PyType>()?
            .unbind())
    });
    match class {
        Ok(class) => PyErr::from_type(class.bind(py).clone(), (path, problem)),
        Err(e) => e,
    }
}

/// How a decode call ended, for Python: `Ok(None)` when cancelled.
fn outcome<T>(py: Python<'_>, src: &mut PySource<'_>, result: Read<T>) -> PyResult<Option<T>> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(Failure::Cancelled) => Ok(None),
        Err(Failure::CancelFailed) => Err(src
            .failed
            .take()
            .unwrap_or_else(|| NativeError::new_err("cancel.is_set() failed"))),
        Err(Failure::Budget) => Err(wire_format_error(
            py,
            String::new(),
            format!(
                "over the decoding budget of {} values",
                thousands(src.limit())
            ),
        )),
        Err(Failure::Wire(e)) => Err(wire_format_error(py, e.path(), e.problem)),
        Err(Failure::Cap) => Err(NativeError::new_err("a cap escaped the walk")),
    }
}

/// Run a decoder with every panic caught (it cannot release the GIL: it
/// reads Python objects all along).
fn guarded<T, F: FnOnce() -> T>(f: F) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| NativeError::new_err(panic_message(e)))
}

/// The requested format (`None`: `"auto"`); the caller checked the name.
fn requested(format: &str) -> Option<Format> {
    Format::parse(format)
}

/// The evaluator's `Doc` of `request` (LEAN decoding, the newest 512
/// messages / 4,096 blocks, at most `budget` values read); `None` when the
/// deadline passed or `cancel` was set while decoding.
#[pyfunction]
#[pyo3(signature = (request, format, budget, deadline=None, cancel=None))]
pub fn evaluation_doc(
    py: Python<'_>,
    request: &Bound<'_, PyAny>,
    format: &str,
    budget: usize,
    deadline: Option<f64>,
    cancel: Option<Bound<'_, PyAny>>,
) -> PyResult<Option<Doc>> {
    let mut src = PySource::new(py, Mode::Lean, budget, deadline, cancel)?;
    let mut out = Collector::new(EVALUATOR_CAPS.messages, EVALUATOR_CAPS.blocks);
    let result = guarded(|| {
        let reader = &mut PlainEvaluationReader::default();
        decode_with(&mut src, &mut out, request, requested(format), reader)
    })?;
    let Some(decoded) = outcome(py, &mut src, result)? else {
        return Ok(None);
    };
    out.finish();
    Doc::from_collector(
        py,
        out,
        decoded.walk.truncated,
        decoded.history_available,
        decoded.format.name(),
    )
    .map(Some)
}

type Facts<'py> = (Bound<'py, PyTuple>, &'static str);

/// The conversation facts of the whole request (COUNT decoding, no text
/// read), in `ConversationFacts` order, and the concrete format; `None` when
/// the deadline passed or `cancel` was set while counting.
#[pyfunction]
#[pyo3(signature = (request, format, budget, deadline=None, cancel=None))]
pub fn request_facts<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    format: &str,
    budget: usize,
    deadline: Option<f64>,
    cancel: Option<Bound<'_, PyAny>>,
) -> PyResult<Option<Facts<'py>>> {
    let mut src = PySource::new(py, Mode::Count, budget, deadline, cancel)?;
    let mut n = Counter::new();
    let result = guarded(|| {
        let reader = &mut PlainReader;
        decode_with(&mut src, &mut n, request, requested(format), reader)
    })?;
    let Some(decoded) = outcome(py, &mut src, result)? else {
        return Ok(None);
    };
    let choice = decoded.tool_choice.map(|c| c.name());
    let counts = PyTuple::new(
        py,
        [
            n.systems,
            n.developers,
            n.users,
            n.assistants,
            n.tools,
            decoded.tools,
            n.calls,
            n.results,
            n.images,
            n.active_tool_loop(),
            usize::from(choice == Some("required")),
            usize::from(choice == Some("none")),
        ],
    )?;
    Ok(Some((counts, decoded.format.name())))
}

/// A block as a plain tuple: `(type, text)`, `(type,)`, `("tool_call", id,
/// name, arguments)`, `("tool_result", call_id, (blocks...))`; strings are
/// cleaned (lone surrogates replaced, plain `str`).
fn export_block<'py>(py: Python<'py>, b: &Block<Py<PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
    use crate::request::BlockKind::*;
    let s = |t: &Option<Py<PyAny>>| -> Bound<'py, PyAny> {
        match t {
            Some(obj) => clean(obj.bind(py)),
            None => pyo3::types::PyString::new(py, "").into_any(),
        }
    };
    let name = b.kind.name();
    match b.kind {
        Text | Refusal | Reasoning => {
            PyTuple::new(py, [name.into_pyobject(py)?.into_any(), s(&b.text)])
        }
        ToolCall => PyTuple::new(
            py,
            [
                name.into_pyobject(py)?.into_any(),
                s(&b.id),
                s(&b.name),
                s(&b.text),
            ],
        ),
        ToolResult => {
            let children = export_blocks(py, &b.children)?;
            PyTuple::new(
                py,
                [
                    name.into_pyobject(py)?.into_any(),
                    s(&b.text),
                    children.into_any(),
                ],
            )
        }
        _ => PyTuple::new(py, [name]),
    }
}

fn export_blocks<'py>(
    py: Python<'py>,
    blocks: &[Block<Py<PyAny>>],
) -> PyResult<Bound<'py, PyTuple>> {
    let items = blocks
        .iter()
        .map(|b| export_block(py, b))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, items)
}

type Exported<'py> = (
    &'static str,
    Vec<(&'static str, Bound<'py, PyTuple>)>,
    Vec<(&'static str, Bound<'py, PyTuple>)>,
    bool,
    usize,
    Option<&'static str>,
    bool,
    usize,
);

fn export<'py>(
    py: Python<'py>,
    out: &Collector<Py<PyAny>>,
    d: &Decoded,
) -> PyResult<Exported<'py>> {
    let messages = out
        .messages
        .iter()
        .map(|m| Ok((m.role.name(), export_blocks(py, out.message_blocks(m))?)))
        .collect::<PyResult<Vec<_>>>()?;
    let instructions = out
        .instructions
        .iter()
        .map(|(role, blocks)| Ok((role.name(), export_blocks(py, blocks)?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((
        d.format.name(),
        messages,
        instructions,
        d.history_available,
        d.tools,
        d.tool_choice.map(|c| c.name()),
        d.walk.complete,
        d.walk.skipped,
    ))
}

/// The neutral conversation of `request` (FULL decoding, for
/// `turnsignal.decode()`): `(format, messages, instructions,
/// history_available, tools, tool_choice, complete, skipped)` with messages
/// and instructions as `(role, blocks)` pairs.
#[pyfunction]
#[pyo3(signature = (request, format, budget, tail_messages=None, tail_blocks=None))]
pub fn decode_request<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    format: &str,
    budget: usize,
    tail_messages: Option<usize>,
    tail_blocks: Option<usize>,
) -> PyResult<Exported<'py>> {
    let mut src = PySource::new(py, Mode::Full, budget, None, None)?;
    let caps = Caps {
        messages: tail_messages,
        blocks: tail_blocks,
    };
    let mut out = Collector::new(caps.messages, caps.blocks);
    let result = guarded(|| decode(&mut src, &mut out, request, requested(format)))?;
    match outcome(py, &mut src, result)? {
        Some(decoded) => {
            out.finish();
            export(py, &out, &decoded)
        }
        None => Err(NativeError::new_err(
            "decoding was cancelled without a deadline",
        )),
    }
}
