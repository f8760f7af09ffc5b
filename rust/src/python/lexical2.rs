//! The lexical.2 primitives (`crate::lexical2`) for Python: the live turn
//! as `Lexical2LiveTurn` (made by `doc::lexical2_live_turn` on the request path), and the
//! functions the differential tests compare with the reference.

use std::mem::ManuallyDrop;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::primitives::{flags_tuple, hold, hold_seq, strs, total, FlagsTuple};
use super::run;
use crate::lexical2::{self, LiveCues};

/// One rendered section of `data/lexicons.toml`: its name, lists, constants, rules.
type Section = (
    &'static str,
    &'static [(&'static str, &'static [&'static str])],
    &'static [(&'static str, f64)],
    &'static [(&'static str, &'static [lexical2::lexicon::SuffixRule])],
);

/// The word lists, constants and suffix rules the core was built with, by
/// evaluator: `{"lexical1": {"stopwords": [...], ..., "constants": {...},
/// "rules": {...}}}`. Tests compare them with the Python lists rendered from
/// the same data file.
#[pyfunction]
fn lexicons(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    let sections: [Section; 2] = [
        (
            "lexical1",
            crate::lexicon::ALL_LISTS,
            crate::lexicon::ALL_CONSTANTS,
            &[],
        ),
        (
            "lexical2",
            lexical2::lexicon::ALL_LISTS,
            lexical2::lexicon::ALL_CONSTANTS,
            lexical2::lexicon::ALL_RULES,
        ),
    ];
    for (name, lists, constants, rules) in sections {
        let section = PyDict::new(py);
        for (list, items) in lists {
            section.set_item(list, items.to_vec())?;
        }
        let values = PyDict::new(py);
        for (constant, value) in constants {
            values.set_item(constant, value)?;
        }
        section.set_item("constants", values)?;
        let suffixes = PyDict::new(py);
        for (rule, items) in rules {
            suffixes.set_item(rule, items.to_vec())?;
        }
        section.set_item("rules", suffixes)?;
        out.set_item(name, section)?;
    }
    Ok(out)
}

type CuesTuple = (usize, u8, bool, bool, bool, bool, bool);

/// (lead, request, addition, polar, pronoun, dependency, question).
pub(crate) fn cues_tuple(c: &LiveCues) -> CuesTuple {
    (
        c.lead,
        c.request,
        c.addition,
        c.polar,
        c.pronoun,
        c.dependency,
        c.question,
    )
}

/// The live turn as lexical.2 sees it; created by `lexical2_analyze_live`.
#[pyclass(frozen, module = "turnsignal._native", name = "Lexical2LiveTurn")]
pub struct Lexical2LiveTurn {
    // Taken back by `Drop` for the next live turn (see
    // `lexical2::LiveAnalysis::recycle`), as `LiveTurn`'s analysis is.
    inner: ManuallyDrop<lexical2::LiveAnalysis>,
}

impl Drop for Lexical2LiveTurn {
    fn drop(&mut self) {
        // SAFETY: `inner` is never used again: this is the value's last use.
        unsafe { ManuallyDrop::take(&mut self.inner) }.recycle();
    }
}

impl Lexical2LiveTurn {
    pub(crate) fn new(inner: lexical2::LiveAnalysis) -> Self {
        Lexical2LiveTurn {
            inner: ManuallyDrop::new(inner),
        }
    }

    pub(crate) fn analysis(&self) -> &lexical2::LiveAnalysis {
        &self.inner
    }
}

#[pymethods]
impl Lexical2LiveTurn {
    #[getter]
    fn term_count(&self) -> usize {
        self.inner.base.term_count()
    }
    #[getter]
    fn entity_count(&self) -> usize {
        self.inner.base.entity_count()
    }
    #[getter]
    fn capped(&self) -> bool {
        self.inner.base.capped
    }
    #[getter]
    fn content_term_count(&self) -> usize {
        self.inner.content.len()
    }
    #[getter]
    fn prose_terms(&self) -> usize {
        self.inner.prose_terms
    }
    /// (lead, request, addition, polar, pronoun, dependency, question).
    #[getter]
    fn cues(&self) -> CuesTuple {
        cues_tuple(&self.inner.cues)
    }
    /// (strong_reference, weak_reference, acknowledgement, change_marker, marker_ambiguous).
    #[getter]
    fn flags(&self) -> FlagsTuple {
        flags_tuple(&self.inner.flags)
    }
    fn __repr__(&self) -> String {
        format!(
            "Lexical2LiveTurn(term_count={}, entity_count={}, content_term_count={}, capped={})",
            self.inner.base.term_count(),
            self.inner.base.entity_count(),
            self.inner.content.len(),
            if self.inner.base.capped {
                "True"
            } else {
                "False"
            }
        )
    }
}

#[pyfunction]
fn lexical2_analyze_live(
    py: Python<'_>,
    segments: &Bound<'_, PyAny>,
) -> PyResult<Lexical2LiveTurn> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let inner = run(py, total(&s), || lexical2::analyze_live(&s))?;
    Ok(Lexical2LiveTurn::new(inner))
}

#[pyfunction]
fn lexical2_score_prior(
    py: Python<'_>,
    live: &Bound<'_, Lexical2LiveTurn>,
    segments: &Bound<'_, PyAny>,
    tool_names: &Bound<'_, PyAny>,
    newest: bool,
) -> PyResult<(f64, f64, bool, bool, f64)> {
    let h = hold_seq(segments, "segments")?;
    let t = hold_seq(tool_names, "tool_names")?;
    let (s, t) = (strs(&h), strs(&t));
    let live = &live.get().inner;
    run(py, total(&s) + total(&t), || {
        lexical2::score_prior(live, &s, &t, newest)
    })
}

// -- primitives, for the differential tests ---------------------------------

#[pyfunction]
fn stem(py: Python<'_>, word: &Bound<'_, PyAny>) -> PyResult<String> {
    let h = hold(word, "word")?;
    let w = h.as_str();
    run(py, w.len(), || lexical2::stem(w))
}

#[pyfunction]
fn lexical2_phrase_flags(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<FlagsTuple> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let f = run(py, total(&s), || lexical2::phrase_flags(&s))?;
    Ok(flags_tuple(&f))
}

#[pyfunction]
fn live_cues(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<CuesTuple> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let c = run(py, total(&s), || lexical2::live_cues(&s))?;
    Ok(cues_tuple(&c))
}

/// hybrid.1's phrase flags (its change markers).
#[pyfunction]
fn hybrid1_phrase_flags(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<FlagsTuple> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let f = run(py, total(&s), || crate::hybrid1::phrase_flags(&s))?;
    Ok(flags_tuple(&f))
}

/// hybrid.1's own live cues: (additive, lead_dependent).
#[pyfunction]
fn hybrid1_live_cues(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<(bool, bool)> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    let c = run(py, total(&s), || crate::hybrid1::analyze_live(&s).cues)?;
    Ok((c.additive, c.lead_dependent))
}

#[pyfunction]
fn content_terms(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    run(py, total(&s), || {
        lexical2::analyze_live(&s).content.sorted()
    })
}

#[pyfunction]
fn definite_heads(py: Python<'_>, segments: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let h = hold_seq(segments, "segments")?;
    let s = strs(&h);
    run(py, total(&s), || lexical2::analyze_live(&s).heads())
}

#[pyfunction]
fn recent_act(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u8> {
    let h = hold(text, "text")?;
    let t = h.as_str();
    run(py, t.len(), || lexical2::recent_act(t) as u8)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Lexical2LiveTurn>()?;
    m.add_function(wrap_pyfunction!(lexicons, m)?)?;
    m.add_function(wrap_pyfunction!(lexical2_analyze_live, m)?)?;
    m.add_function(wrap_pyfunction!(lexical2_score_prior, m)?)?;
    m.add_function(wrap_pyfunction!(stem, m)?)?;
    m.add_function(wrap_pyfunction!(lexical2_phrase_flags, m)?)?;
    m.add_function(wrap_pyfunction!(live_cues, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid1_phrase_flags, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid1_live_cues, m)?)?;
    m.add_function(wrap_pyfunction!(content_terms, m)?)?;
    m.add_function(wrap_pyfunction!(definite_heads, m)?)?;
    m.add_function(wrap_pyfunction!(recent_act, m)?)?;
    Ok(())
}
