//! PyO3 bindings added with evaluator lexical.2, registered by `python.rs`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One rendered section of `data/lexicons.toml`: its name, lists and constants.
type Section = (
    &'static str,
    &'static [(&'static str, &'static [&'static str])],
    &'static [(&'static str, f64)],
);

/// The word lists and constants the core was built with, by evaluator:
/// `{"lexical1": {"stopwords": [...], ..., "constants": {...}}}`. Tests compare
/// them with the Python lists rendered from the same data file.
#[pyfunction]
pub fn lexicons(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    let sections: [Section; 1] = [(
        "lexical1",
        crate::lexicon::ALL_LISTS,
        crate::lexicon::ALL_CONSTANTS,
    )];
    for (name, lists, constants) in sections {
        let section = PyDict::new(py);
        for (list, items) in lists {
            section.set_item(list, items.to_vec())?;
        }
        let values = PyDict::new(py);
        for (constant, value) in constants {
            values.set_item(constant, value)?;
        }
        section.set_item("constants", values)?;
        out.set_item(name, section)?;
    }
    Ok(out)
}
