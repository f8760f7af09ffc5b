//! The UTF-8 text of Python strings, borrowed from the objects whenever
//! possible (no copy), with lone surrogates read as U+FFFD (spec §1).

use std::borrow::Cow;
use std::os::raw::c_char;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

extern "C" {
    // Part of the stable ABI since Python 3.10 and exported, with this
    // signature, by every CPython 3.x: not declared by the abi3-py39 bindings.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const c_char;
}

/// The UTF-8 text of `obj` (a `str` or `str` subclass), borrowed from it:
/// for a compact ASCII string its characters themselves, else the UTF-8 form
/// CPython caches on the object. `None` when it holds lone surrogates.
pub fn utf8<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `obj` is a live `str` (checked by every caller); the buffer
    // belongs to the object and lives as long as it does, and CPython's
    // strict encoder only produces valid UTF-8.
    unsafe {
        let data = PyUnicode_AsUTF8AndSize(obj.as_ptr(), &mut size);
        if data.is_null() {
            // A lone surrogate: clear the UnicodeEncodeError.
            drop(PyErr::fetch(obj.py()));
            return None;
        }
        let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
        Some(std::str::from_utf8_unchecked(bytes))
    }
}

/// Decode the `surrogatepass` UTF-8 of a Python string, replacing every
/// surrogate code point (3 bytes `ED A0..BF xx`) by U+FFFD.
pub fn replace_surrogates(bytes: &[u8]) -> String {
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

/// The text of a string object as the spec reads it: borrowed, or (lone
/// surrogates replaced) owned.
pub fn text<'a>(obj: &'a Bound<'_, PyAny>) -> Cow<'a, str> {
    if let Some(s) = utf8(obj) {
        return Cow::Borrowed(s);
    }
    let encoded = obj
        .cast::<PyString>()
        .ok()
        .and_then(|s| s.call_method1("encode", ("utf-8", "surrogatepass")).ok());
    match encoded.as_ref().and_then(|b| b.cast::<PyBytes>().ok()) {
        Some(bytes) => Cow::Owned(replace_surrogates(bytes.as_bytes())),
        None => Cow::Borrowed(""),
    }
}

/// A plain `str` holding the cleaned text of `obj`: `obj` itself when it
/// already is one (an exact `str` with no lone surrogate).
pub fn clean<'py>(obj: &Bound<'py, PyAny>) -> Bound<'py, PyAny> {
    let exact = obj.is_exact_instance_of::<PyString>();
    match text(obj) {
        Cow::Borrowed(_) if exact => obj.clone(),
        t => PyString::new(obj.py(), &t).into_any(),
    }
}
