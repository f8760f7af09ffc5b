//! The check that keeps a result content-free (`turnsignal/topic_continuity/
//! result.py`, `shared_parts_valid`): every value of a features or scope
//! tuple is a number. One call instead of a Python iteration that every
//! evaluation would pay for.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyTuple};

/// Whether every item of `values` is exactly a `bool`, an `int` or a
/// `float` (no subclass: a subclass could carry anything).
#[pyfunction]
pub fn numbers_only(values: &Bound<'_, PyTuple>) -> bool {
    values.iter().all(|v| {
        v.is_exact_instance_of::<PyFloat>()
            || v.is_exact_instance_of::<PyBool>()
            || v.is_exact_instance_of::<PyInt>()
    })
}
