//! The PyO3 binding: module `turnsignal._native` (see `python/turnsignal/_hotpath.py`).
//!
//! Thin by design: convert arguments, run the pure-Rust core with every panic
//! caught (none may cross the FFI boundary; a caught panic raises
//! `NativeError`), and release the GIL while working on large inputs.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::score::LiveAnalysis;

create_exception!(
    turnsignal._native,
    NativeError,
    PyRuntimeError,
    "A bug in the native core (a caught Rust panic)."
);

/// Inputs above this many bytes are processed with the GIL released.
const DETACH_BYTES: usize = 4096;

/// The UTF-8 text of one Python `str`, kept alive for the call.
pub(crate) enum Held<'py> {
    /// The strict UTF-8 encoding (the common case: no lone surrogates).
    Bytes(Bound<'py, PyBytes>),
    /// Text that held lone surrogates, each replaced by U+FFFD (spec §1).
    Owned(String),
}

impl Held<'_> {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            // Validated in `hold` (and Python's strict UTF-8 encoder only
            // produces valid UTF-8), so the fallback is unreachable.
            Held::Bytes(b) => std::str::from_utf8(b.as_bytes()).unwrap_or(""),
            Held::Owned(s) => s,
        }
    }
}

/// Decode the `surrogatepass` UTF-8 of a Python string, replacing every
/// surrogate code point (3 bytes `ED A0..BF xx`) by U+FFFD.
fn replace_surrogates(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0xED && i + 2 < bytes.len() && bytes[i + 1] >= 0xA0 {
            out.extend_from_slice("\u{fffd}".as_bytes());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

pub(crate) fn hold<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Held<'py>> {
    let s = obj.cast::<PyString>().map_err(|_| {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        PyTypeError::new_err(format!("{what} must be str, not {ty}"))
    })?;
    match s.encode_utf8() {
        Ok(b) => {
            if std::str::from_utf8(b.as_bytes()).is_err() {
                return Err(NativeError::new_err("str encoded to invalid UTF-8"));
            }
            Ok(Held::Bytes(b))
        }
        Err(_) => {
            let raw = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
            let raw = raw.cast::<PyBytes>().map_err(PyErr::from)?;
            Ok(Held::Owned(replace_surrogates(raw.as_bytes())))
        }
    }
}

pub(crate) fn hold_seq<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Held<'py>>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence of str, not str"
        )));
    }
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(hold(&item?, what)?);
    }
    Ok(out)
}

pub(crate) fn strs<'a>(held: &'a [Held<'_>]) -> Vec<&'a str> {
    held.iter().map(Held::as_str).collect()
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

/// Run `f` with panics caught, detached from the interpreter when `bytes` is large.
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

pub(crate) fn total(texts: &[&str]) -> usize {
    texts.iter().map(|s| s.len()).sum()
}

/// The live turn's term set L and entity set E (spec §6.7); created by `analyze_live`.
#[pyclass(frozen, module = "turnsignal._native", name = "LiveTurn")]
pub struct LiveTurn {
    inner: LiveAnalysis,
}

#[pymethods]
impl LiveTurn {
    /// |L|, the number of distinct live terms.
    #[getter]
    fn term_count(&self) -> usize {
        self.inner.term_count()
    }

    /// |E|, the number of distinct live entities.
    #[getter]
    fn entity_count(&self) -> usize {
        self.inner.entity_count()
    }

    /// Whether some live segment reached the entity cap.
    #[getter]
    fn capped(&self) -> bool {
        self.inner.capped
    }

    fn __repr__(&self) -> String {
        format!(
            "LiveTurn(term_count={}, entity_count={}, capped={})",
            self.inner.term_count(),
            self.inner.entity_count(),
            if self.inner.capped { "True" } else { "False" }
        )
    }
}

#[pyfunction]
fn lowercase(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::charclass::lowercase(t).into_owned())
}

#[pyfunction]
fn terms(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::terms::terms(t))
}

#[pyfunction]
fn term_set(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    run(py, total(&s), || crate::terms::term_set(&s))
}

#[pyfunction]
fn masked_ranges(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, usize)>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::masking::masked_ranges(t))
}

#[pyfunction]
fn single_quote_spans(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, usize)>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::quotes::single_quote_spans(t))
}

#[pyfunction]
fn phrase_tokens(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    change_view: bool,
) -> PyResult<Vec<(String, usize, usize)>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || {
        crate::phrases::phrase_tokens(t, change_view)
    })
}

#[pyfunction]
fn entities(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<(Vec<String>, bool)> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::entities::entities(t))
}

#[pyfunction]
fn prose_term_count(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<usize> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    run(py, total(&s), || crate::score::prose_term_count(&s))
}

#[pyfunction]
fn phrase_flags(
    py: Python<'_>,
    segments: &Bound<'_, PyAny>,
) -> PyResult<(bool, bool, bool, bool, bool)> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let f = run(py, total(&s), || crate::phrases::phrase_flags(&s))?;
    Ok((
        f.strong_reference,
        f.weak_reference,
        f.acknowledgement,
        f.change_marker,
        f.marker_ambiguous,
    ))
}

#[pyfunction]
fn analyze_live(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<LiveTurn> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let inner = run(py, total(&s), || crate::score::analyze_live(&s))?;
    Ok(LiveTurn { inner })
}

#[pyfunction]
fn score_prior(
    py: Python<'_>,
    live: &Bound<'_, LiveTurn>,
    segments: &Bound<'_, PyAny>,
    tool_names: &Bound<'_, PyAny>,
) -> PyResult<(f64, f64, bool)> {
    let h = hold_seq(segments, "segments")?;
    let t = hold_seq(tool_names, "tool_names")?;
    let (s, t) = (strs(&h), strs(&t));
    let live = &live.get().inner;
    run(py, total(&s) + total(&t), || {
        crate::score::score_prior(live, &s, &t)
    })
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
    m.add_class::<LiveTurn>()?;
    m.add_function(wrap_pyfunction!(lowercase, m)?)?;
    m.add_function(wrap_pyfunction!(terms, m)?)?;
    m.add_function(wrap_pyfunction!(term_set, m)?)?;
    m.add_function(wrap_pyfunction!(masked_ranges, m)?)?;
    m.add_function(wrap_pyfunction!(single_quote_spans, m)?)?;
    m.add_function(wrap_pyfunction!(phrase_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(entities, m)?)?;
    m.add_function(wrap_pyfunction!(prose_term_count, m)?)?;
    m.add_function(wrap_pyfunction!(phrase_flags, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_live, m)?)?;
    m.add_function(wrap_pyfunction!(score_prior, m)?)?;
    m.add_function(wrap_pyfunction!(crate::python_facts::count_facts, m)?)?;
    crate::python_lexical2::register(m)?;
    Ok(())
}
