//! The static word vectors (`crate::vectors`) for Python: `VectorTable`,
//! parsed once from the bytes `turnsignal._vector_data` reads and shared
//! between threads, and `PooledText`, a text's pooled value — numbers only.
//! Text work above `DETACH_BYTES` runs with the GIL released.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PySlice, PyString, PyTuple};

use super::primitives::wrong_type;
use super::run;
use crate::vectors::pool::{pool, tokens};
use crate::vectors::wordpiece::Piece;
use crate::vectors::{Pooled, Table, MAX_TEXT_BYTES};

/// A parsed static vector table.
#[pyclass(frozen, module = "turnsignal._native", name = "VectorTable")]
pub struct VectorTable {
    table: Arc<Table>,
}

/// A text's pooled value: integer sums and token counts.
#[pyclass(frozen, module = "turnsignal._native", name = "PooledText")]
pub struct PooledText {
    inner: Pooled,
}

/// Run `f` on the text a call reads: at most `MAX_TEXT_BYTES` code points
/// of `text` (which hold at least `MAX_TEXT_BYTES` UTF-8 bytes, so a huge
/// string is never encoded whole), borrowed from the string object, lone
/// surrogates read as U+FFFD; detached from the interpreter when long.
fn with_text<T, F>(py: Python<'_>, text: &Bound<'_, PyAny>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&str) -> T + Send,
{
    if !text.is_instance_of::<PyString>() {
        return Err(wrong_type(text, "text", "str"));
    }
    let bounded = if text.len()? > MAX_TEXT_BYTES {
        text.get_item(PySlice::new(py, 0, MAX_TEXT_BYTES as isize, 1))?
    } else {
        text.clone()
    };
    let read = super::text::text(&bounded);
    let t: &str = &read;
    run(py, t.len(), || f(t))
}

impl VectorTable {
    /// The parsed table, shared (for the per-turn calls of hybrid.1).
    pub(crate) fn shared(&self) -> Arc<Table> {
        Arc::clone(&self.table)
    }
}

impl PooledText {
    pub(crate) fn new(inner: Pooled) -> Self {
        PooledText { inner }
    }
}

#[pymethods]
impl VectorTable {
    #[new]
    fn new(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let bytes = data
            .cast::<PyBytes>()
            .map_err(|_| wrong_type(data, "data", "bytes"))?;
        let raw = bytes.as_bytes();
        let parsed = run(py, raw.len(), || Table::parse(raw))?;
        let table = parsed.map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(VectorTable {
            table: Arc::new(table),
        })
    }

    #[getter]
    fn dims(&self) -> usize {
        self.table.dims()
    }

    #[getter]
    fn rows(&self) -> usize {
        self.table.rows()
    }

    /// The token of `row`.
    fn token(&self, row: usize) -> PyResult<String> {
        if row >= self.table.rows() {
            return Err(PyIndexError::new_err("row out of range"));
        }
        Ok(self.table.token(row).to_owned())
    }

    /// The pooled value of `text`.
    fn pool(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PooledText> {
        let table = &self.table;
        let inner = with_text(py, text, |t| pool(table, t))?;
        Ok(PooledText { inner })
    }

    /// The kept tokens of `text`, `[UNK]` for an unknown one (for the tests).
    fn tokens(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let table = &self.table;
        with_text(py, text, |t| {
            tokens(table, t)
                .into_iter()
                .map(|piece| match piece {
                    Piece::Known(row) => table.token(row as usize).to_owned(),
                    Piece::Unknown => "[UNK]".to_owned(),
                })
                .collect()
        })
    }
}

#[pymethods]
impl PooledText {
    #[getter]
    fn known(&self) -> u32 {
        self.inner.known
    }

    #[getter]
    fn unknown(&self) -> u32 {
        self.inner.unknown
    }

    #[getter]
    fn spelled(&self) -> u32 {
        self.inner.spelled
    }

    #[getter]
    fn words(&self) -> u32 {
        self.inner.words
    }

    #[getter]
    fn whole(&self) -> u32 {
        self.inner.whole
    }

    #[getter]
    fn whole_share(&self) -> f64 {
        self.inner.whole_share()
    }

    #[getter]
    fn total(&self) -> u32 {
        self.inner.total()
    }

    #[getter]
    fn word_share(&self) -> f64 {
        self.inner.word_share()
    }

    #[getter]
    fn known_share(&self) -> f64 {
        self.inner.known_share()
    }

    /// The integer sums (for the differential tests; never in a result).
    fn sums<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.inner.sums)
    }

    fn similarity(&self, other: &PooledText) -> Option<f64> {
        self.inner.similarity(&other.inner)
    }

    /// The similarity with the sum of `others`, merged in order as by
    /// `merged` (a window of turns in one call); None when `others` is
    /// empty or as for `similarity`.
    fn similarity_to_sum(&self, others: Vec<PyRef<'_, PooledText>>) -> Option<f64> {
        let (first, rest) = others.split_first()?;
        let mut sum = first.inner.clone();
        for other in rest {
            if !sum.absorb(&other.inner) {
                return None;
            }
        }
        self.inner.similarity(&sum)
    }

    fn merged(&self, other: &PooledText) -> Option<PooledText> {
        self.inner
            .merged(&other.inner)
            .map(|inner| PooledText { inner })
    }

    fn __repr__(&self) -> String {
        format!(
            "PooledText(known={}, unknown={}, spelled={})",
            self.inner.known, self.inner.unknown, self.inner.spelled
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorTable>()?;
    m.add_class::<PooledText>()?;
    m.add("MAX_TEXT_BYTES", MAX_TEXT_BYTES)?;
    m.add("MAX_TOKENS", crate::vectors::MAX_TOKENS)?;
    m.add("MAX_WORD_CHARS", crate::vectors::MAX_WORD_CHARS)?;
    Ok(())
}
