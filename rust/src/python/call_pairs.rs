//! Which tool call each result answers, by position, for a history reset's
//! plan (the reference, `python/turnsignal/_reference/call_pairs.py`, says
//! what each number means): an agent's request holds hundreds of calls and
//! results, and one call pairs them where a Python loop would take a few
//! dictionary operations each.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple};

/// The ids at `field` of `item` (a tuple laid out as the reference says).
fn ids<'py>(item: &Bound<'py, PyAny>, field: usize) -> PyResult<Bound<'py, PyTuple>> {
    let item = item
        .cast::<PyTuple>()
        .map_err(|_| PyTypeError::new_err("call_pairs: an item is not a tuple"))?;
    let found = item.get_item(field)?;
    found
        .cast_into::<PyTuple>()
        .map_err(|_| PyTypeError::new_err("call_pairs: ids are not a tuple"))
}

/// `(answered, rival)` of the items of a tuple or list: the reference's
/// `call_pairs` exactly. The ids are keys of a Python dict, so they pair
/// exactly as the reference's do, whatever their type.
#[pyfunction]
pub fn call_pairs<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let items: Vec<Bound<'py, PyAny>> = if let Ok(tuple) = items.cast::<PyTuple>() {
        tuple.iter().collect()
    } else if let Ok(list) = items.cast::<PyList>() {
        list.iter().collect()
    } else {
        return Err(PyTypeError::new_err(
            "call_pairs: items must be a tuple or list",
        ));
    };
    let none = items.len();
    // id -> its position in `waiting`, each an id's unanswered calls, oldest first.
    let slots = PyDict::new(py);
    let mut waiting: Vec<Vec<usize>> = Vec::new();
    let mut answered = Vec::with_capacity(items.len());
    let mut rival = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let (mut earliest, mut other) = (none, -1isize);
        for result in ids(item, 3)?.iter() {
            let Some(slot) = slots.get_item(&result)? else {
                continue; // an orphan: nothing to keep for it
            };
            let calls = &mut waiting[slot.extract::<usize>()?];
            let Some(call) = calls.pop() else {
                continue;
            };
            earliest = earliest.min(call);
            if let Some(&newest) = calls.last() {
                other = other.max(newest as isize);
            }
        }
        answered.push(earliest);
        rival.push(other);
        for call in ids(item, 2)?.iter() {
            match slots.get_item(&call)? {
                Some(slot) => waiting[slot.extract::<usize>()?].push(index),
                None => {
                    slots.set_item(&call, PyInt::new(py, waiting.len()))?;
                    waiting.push(vec![index]);
                }
            }
        }
    }
    Ok((PyList::new(py, answered)?, PyList::new(py, rival)?))
}
