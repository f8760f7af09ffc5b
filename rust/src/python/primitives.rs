//! The hot path's text primitives (exposed for the differential tests) and
//! the per-segment-list calls of the original interface.

use std::mem::ManuallyDrop;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::score::LiveAnalysis;

use super::text::replace_surrogates;
use super::{run, type_name, NativeError};

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

/// `TypeError: {what} must be {wanted}, not {type of obj}`.
pub(crate) fn wrong_type(obj: &Bound<'_, PyAny>, what: &str, wanted: &str) -> PyErr {
    PyTypeError::new_err(format!("{what} must be {wanted}, not {}", type_name(obj)))
}

pub(crate) fn hold<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Held<'py>> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| wrong_type(obj, what, "str"))?;
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

pub(crate) fn total(texts: &[&str]) -> usize {
    texts.iter().map(|s| s.len()).sum()
}

/// The live turn's term set L and entity set E (spec §6.7); created by `analyze_live`.
#[pyclass(frozen, module = "turnsignal._native", name = "LiveTurn")]
pub struct LiveTurn {
    // Taken back by `Drop` for the next live turn (see `LiveAnalysis::recycle`).
    pub(crate) inner: ManuallyDrop<LiveAnalysis>,
}

impl LiveTurn {
    pub fn new(inner: LiveAnalysis) -> Self {
        LiveTurn {
            inner: ManuallyDrop::new(inner),
        }
    }
}

impl Drop for LiveTurn {
    fn drop(&mut self) {
        // SAFETY: `inner` is never used again: this is the value's last use.
        unsafe { ManuallyDrop::take(&mut self.inner) }.recycle();
    }
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
pub fn lowercase(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::charclass::lowercase(t).into_owned())
}

#[pyfunction]
pub fn terms(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::terms::terms(t))
}

#[pyfunction]
pub fn term_set(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    run(py, total(&s), || crate::terms::term_set(&s))
}

#[pyfunction]
pub fn masked_ranges(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, usize)>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::masking::masked_ranges(t))
}

#[pyfunction]
pub fn single_quote_spans(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
) -> PyResult<Vec<(usize, usize)>> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::quotes::single_quote_spans(t))
}

#[pyfunction]
pub fn phrase_tokens(
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
pub fn entities(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<(Vec<String>, bool)> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || crate::entities::entities(t))
}

#[pyfunction]
pub fn prose_term_count(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<usize> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    run(py, total(&s), || crate::score::prose_term_count(&s))
}

/// (strong_reference, weak_reference, acknowledgement, change_marker,
/// marker_ambiguous): the phrase flags as Python reads them.
pub(crate) type FlagsTuple = (bool, bool, bool, bool, bool);

pub(crate) fn flags_tuple(f: &crate::phrases::PhraseFlags) -> FlagsTuple {
    (
        f.strong_reference,
        f.weak_reference,
        f.acknowledgement,
        f.change_marker,
        f.marker_ambiguous,
    )
}

#[pyfunction]
pub fn phrase_flags(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<FlagsTuple> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let f = run(py, total(&s), || crate::phrases::phrase_flags(&s))?;
    Ok(flags_tuple(&f))
}

#[pyfunction]
pub fn analyze_live(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<LiveTurn> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let inner = run(py, total(&s), || crate::score::analyze_live(&s))?;
    Ok(LiveTurn::new(inner))
}

#[pyfunction]
pub fn score_prior(
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
