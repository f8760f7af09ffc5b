//! The PyO3 binding: module `turnsignal._native`, behind the cargo feature
//! `python`. All the code that touches Python objects is here, over the
//! pure-Rust core (`crate::request`, `crate::evidence`, the text modules):
//!
//! * `source` — the decoders' `Source` over the caller's objects (`dicts`:
//!   one scan per small exact dict);
//! * `plain_facts` — the facts of plain Chat and Anthropic messages, read
//!   without the generic decoder's work around each read;
//! * `plain_evaluation` — the evaluator's reading of plain Chat and
//!   Anthropic messages, the same way;
//! * `decode` — the decoding entry points (the evaluator's `Doc`, the
//!   conversation facts, the full conversation of `turnsignal.decode()`);
//! * `doc` — the `Doc`, and what it yields for one turn;
//! * `turns` — the per-turn calls of the topic-continuity walk;
//! * `messages` — already-decoded neutral messages (`turnsignal.model`);
//! * `provenance` — the newest items of a request and their contents, which
//!   an evaluation keeps (`turnsignal._provenance`);
//! * `chat_items` — one code per OpenAI Chat message, for a history reset
//!   (`turnsignal._chat_items`);
//! * `text` — the UTF-8 text of Python strings, borrowed;
//! * `primitives` — the text primitives, exposed for the differential tests;
//! * `lexical2` — evaluator lexical.2's live turn (`Lexical2LiveTurn`) and its
//!   primitives;
//! * `vectors` — the static word vectors (`VectorTable`, `PooledText`).
//!
//! Every call runs with panics caught (none may cross the FFI boundary; a
//! caught panic raises `NativeError`) and releases the GIL while it works on
//! text without touching Python objects.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

mod call_pairs;
mod chat_items;
mod decode;
mod dicts;
mod doc;
mod lexical2;
mod messages;
mod plain_evaluation;
mod plain_facts;
mod primitives;
mod provenance;
mod source;
mod text;
mod turns;
mod values;
mod vectors;

create_exception!(
    turnsignal._native,
    NativeError,
    PyRuntimeError,
    "A bug in the native core (a caught Rust panic)."
);

/// Text work above this many bytes is done with the GIL released: below it,
/// releasing and taking it back costs more than other threads gain.
const DETACH_BYTES: usize = 1024;

/// The name of a value's type, for an error message: never the value, which
/// may be conversation text.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// The name of an exception's type: never its message, which may quote the
/// object that raised it.
pub(crate) fn error_name(py: Python<'_>, error: &PyErr) -> String {
    error
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".into())
}

pub(crate) fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    let what = if let Some(s) = e.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    };
    format!("turnsignal native core panicked: {what}")
}

/// Run `f` (which touches no Python object) with panics caught, detached
/// from the interpreter when `bytes` is large.
pub(crate) fn run<T, F>(py: Python<'_>, bytes: usize, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let result = if bytes > DETACH_BYTES {
        py.detach(|| catch_unwind(AssertUnwindSafe(f)))
    } else {
        catch_unwind(AssertUnwindSafe(f))
    };
    result.map_err(|e| NativeError::new_err(panic_message(e)))
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "BUILD_PROFILE",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    m.add("UNICODE_VERSION", crate::UNICODE_VERSION)?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add_class::<primitives::LiveTurn>()?;
    m.add_class::<doc::Doc>()?;
    m.add_function(wrap_pyfunction!(primitives::lowercase, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::terms, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::term_set, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::masked_ranges, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::single_quote_spans, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::phrase_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::entities, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::prose_term_count, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::phrase_flags, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::analyze_live, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::score_prior, m)?)?;
    m.add_function(wrap_pyfunction!(decode::evaluation_doc, m)?)?;
    m.add_function(wrap_pyfunction!(decode::request_facts, m)?)?;
    m.add_function(wrap_pyfunction!(decode::decode_request, m)?)?;
    m.add_function(wrap_pyfunction!(messages::messages_doc, m)?)?;
    m.add_function(wrap_pyfunction!(messages::count_facts, m)?)?;
    m.add_function(wrap_pyfunction!(doc::tool_ids_match, m)?)?;
    m.add_function(wrap_pyfunction!(turns::live_turn, m)?)?;
    m.add_function(wrap_pyfunction!(turns::prior_turn, m)?)?;
    m.add_function(wrap_pyfunction!(turns::lexical2_live_turn, m)?)?;
    m.add_function(wrap_pyfunction!(turns::lexical2_prior_turn, m)?)?;
    m.add_function(wrap_pyfunction!(turns::hybrid1_live_turn, m)?)?;
    m.add_function(wrap_pyfunction!(turns::hybrid1_prior_turn, m)?)?;
    m.add_class::<turns::TurnPooling>()?;
    m.add_function(wrap_pyfunction!(provenance::provenance_parts, m)?)?;
    m.add_function(wrap_pyfunction!(provenance::provenance_same, m)?)?;
    m.add_function(wrap_pyfunction!(chat_items::chat_item_codes, m)?)?;
    m.add_function(wrap_pyfunction!(call_pairs::call_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(values::numbers_only, m)?)?;
    lexical2::register(m)?;
    vectors::register(m)?;
    Ok(())
}
