//! The parts of an evaluation's private provenance
//! (`python/turnsignal/_provenance.py`): the newest wire items of a request
//! and the `content` value of each, read in one call instead of a Python loop
//! that every evaluation would pay for.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::dicts::lookup;

/// `(tuple(items[-max_items:]), contents)` when `items` is exactly a list or
/// a tuple; `None` for any other sequence (its own `__getitem__` may run: the
/// caller reads it in Python). A content is `item.get("content")` for an
/// exact dict and `None` for anything else, as the reference reads it.
/// `max_items` must be at least 1 (`items[-0:]` would be every item).
#[pyfunction]
pub fn provenance_parts<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    max_items: usize,
) -> PyResult<Option<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)>> {
    let Some(tail) = newest(items, max_items)? else {
        return Ok(None);
    };
    let key = intern!(py, "content");
    let mut contents = Vec::with_capacity(tail.len());
    for item in tail.iter() {
        contents.push(match item.cast_exact::<PyDict>() {
            Ok(dict) => content_of(dict, key)?,
            Err(_) => py.None().into_bound(py),
        });
    }
    Ok(Some((tail, PyTuple::new(py, contents)?)))
}

/// `items[-max_items:]` as a tuple when `items` is exactly a list or a
/// tuple; `None` for any other sequence. `max_items` must be at least 1
/// (`items[-0:]` would be every item).
fn newest<'py>(
    items: &Bound<'py, PyAny>,
    max_items: usize,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    if max_items == 0 {
        return Err(PyValueError::new_err("max_items must be at least 1"));
    }
    Ok(if let Ok(list) = items.cast_exact::<PyList>() {
        let from = list.len().saturating_sub(max_items);
        Some(list.get_slice(from, list.len()).to_tuple())
    } else if let Ok(tuple) = items.cast_exact::<PyTuple>() {
        let from = tuple.len().saturating_sub(max_items);
        Some(tuple.get_slice(from, tuple.len()))
    } else {
        None
    })
}

/// `dict.get("content")`: None when missing; an error a key's own `__eq__`
/// raised goes to the caller, as it would from `dict.get`.
fn content_of<'py>(
    dict: &Bound<'py, PyDict>,
    key: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = dict.py();
    Ok(lookup(dict.as_any(), key)?.unwrap_or_else(|| py.None().into_bound(py)))
}

/// Whether `items[-max_items:]` (an exact list or tuple) are exactly the
/// objects `kept` and their contents exactly `contents`, by identity:
/// the items first (no Python code runs), then each content, read as
/// `provenance_parts` reads it, stopping at the first that differs. `None`
/// for any other sequence; an error a content's lookup raised goes to the
/// caller. The reference reads in the same order, so both stop alike.
#[pyfunction]
pub fn provenance_same<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    max_items: usize,
    kept: &Bound<'py, PyTuple>,
    contents: &Bound<'py, PyTuple>,
) -> PyResult<Option<bool>> {
    let Some(tail) = newest(items, max_items)? else {
        return Ok(None);
    };
    if tail.len() != kept.len() || tail.len() != contents.len() {
        return Ok(Some(false));
    }
    if !tail.iter().zip(kept.iter()).all(|(a, b)| a.is(&b)) {
        return Ok(Some(false));
    }
    let key = intern!(py, "content");
    for (item, expected) in tail.iter().zip(contents.iter()) {
        let content = match item.cast_exact::<PyDict>() {
            Ok(dict) => content_of(dict, key)?,
            Err(_) => py.None().into_bound(py),
        };
        if !content.is(&expected) {
            return Ok(Some(false));
        }
    }
    Ok(Some(true))
}
