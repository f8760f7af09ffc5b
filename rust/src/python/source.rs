//! The decoders' `Source` over the caller's Python objects, read exactly as
//! `python/turnsignal/_reference/request/source.py` reads them: an exact `dict` by lookup,
//! any other mapping through `__getitem__` (a `KeyError` is "missing"); an
//! exact `list`/`tuple` by index, any other `collections.abc.Sequence` (not
//! `str`/`bytes`/`bytearray`) through `__len__` and `__getitem__`; a `str`
//! subclass as the string it holds. Every read is counted; the deadline and
//! the cancellation token are checked every 1,024 reads.

use std::time::{Duration, Instant};

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType,
};
use pyo3::{ffi, intern};

use crate::request::source::{Failure, Key, Mode, Read, Shape, Source};

use super::dicts::{lookup, DictScans, Found};
use super::error_name;
use super::text::utf8;

/// How often (in reads) the deadline and the cancellation token are checked.
const CHECK_EVERY: usize = 1024;

static KEYS: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
static ABCS: PyOnceLock<(Py<PyType>, Py<PyType>)> = PyOnceLock::new();
static TOOL_INPUT_JSON: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn keys(py: Python<'_>) -> &[Py<PyString>] {
    KEYS.get_or_init(py, || {
        Key::ALL
            .iter()
            .map(|k| PyString::intern(py, k.name()).unbind())
            .collect()
    })
}

fn abcs(py: Python<'_>) -> PyResult<&(Py<PyType>, Py<PyType>)> {
    ABCS.get_or_try_init(py, || {
        let module = py.import("collections.abc")?;
        let mapping = module.getattr("Mapping")?.cast_into::<PyType>()?.unbind();
        let sequence = module.getattr("Sequence")?.cast_into::<PyType>()?.unbind();
        Ok((mapping, sequence))
    })
}

/// A caller's object raised while being read: report its type only.
pub fn unreadable(py: Python<'_>, error: PyErr) -> Failure {
    Failure::wire(format!("could not be read ({})", error_name(py, &error)))
}

/// The deadline and the cancellation token of one decode call.
struct Check<'py> {
    deadline: Option<Instant>,
    cancel: Option<Bound<'py, PyAny>>,
}

pub struct PySource<'py> {
    py: Python<'py>,
    mode: Mode,
    used: usize,
    limit: usize,
    check: Option<Check<'py>>,
    keys: &'py [Py<PyString>],
    mapping: Bound<'py, PyType>,
    sequence: Bound<'py, PyType>,
    dicts: DictScans<'py>,
    /// Why checking the cancellation token failed (re-raised by the caller).
    pub failed: Option<PyErr>,
}

impl<'py> PySource<'py> {
    /// `deadline` is an absolute `time.monotonic()` value.
    pub fn new(
        py: Python<'py>,
        mode: Mode,
        limit: usize,
        deadline: Option<f64>,
        cancel: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let (mapping, sequence) = abcs(py)?;
        let deadline = match deadline {
            None => None,
            Some(at) => {
                let now: f64 = py
                    .import(intern!(py, "time"))?
                    .call_method0(intern!(py, "monotonic"))?
                    .extract()?;
                let left = at - now;
                let left = if left > 0.0 && left.is_finite() {
                    Duration::try_from_secs_f64(left).unwrap_or(Duration::MAX)
                } else {
                    Duration::ZERO
                };
                Some(
                    Instant::now()
                        .checked_add(left)
                        .unwrap_or_else(Instant::now),
                )
            }
        };
        let check = if deadline.is_some() || cancel.is_some() {
            Some(Check { deadline, cancel })
        } else {
            None
        };
        Ok(PySource {
            py,
            mode,
            used: 0,
            limit,
            check,
            keys: keys(py),
            mapping: mapping.bind(py).clone(),
            sequence: sequence.bind(py).clone(),
            dicts: DictScans::new(),
            failed: None,
        })
    }

    /// Python code is about to run (a caller's method, the cancellation
    /// token, an `isinstance` hook): what was read of any dict may change.
    #[inline]
    fn python_runs(&mut self) {
        self.dicts.forget();
    }

    /// Count one read, as every `Source` read does (the budget, the
    /// deadline and the cancellation token).
    #[inline(always)]
    pub fn count(&mut self) -> Read<()> {
        self.used += 1;
        if self.used > self.limit {
            return Err(Failure::Budget);
        }
        if self.used % CHECK_EVERY == 0 {
            self.checkpoint()?;
        }
        Ok(())
    }

    #[cold]
    fn checkpoint(&mut self) -> Read<()> {
        if self.check.is_none() {
            return Ok(());
        }
        self.python_runs();
        let Some(check) = &self.check else {
            return Ok(());
        };
        if let Some(cancel) = &check.cancel {
            let set = cancel
                .call_method0(intern!(self.py, "is_set"))
                .and_then(|v| v.is_truthy());
            match set {
                Ok(true) => return Err(Failure::Cancelled),
                Ok(false) => {}
                Err(e) => {
                    self.failed = Some(e);
                    return Err(Failure::CancelFailed);
                }
            }
        }
        match check.deadline {
            Some(at) if Instant::now() >= at => Err(Failure::Cancelled),
            _ => Ok(()),
        }
    }

    /// The reads counted so far (what `rewind` goes back to).
    pub fn used(&self) -> usize {
        self.used
    }

    /// Forget the reads counted since `used()` returned `mark`: a reader
    /// that gave up re-reads them through the generic decoder.
    pub fn rewind(&mut self, mark: usize) {
        self.used = mark.min(self.used);
    }

    /// Whether `reads` more reads would reach neither the budget nor a
    /// checkpoint: a reader that then makes at most that many may count
    /// them with `advance`.
    #[inline(always)]
    pub fn has_room(&self, reads: usize) -> bool {
        let after = self.used + reads;
        after <= self.limit && after / CHECK_EVERY == self.used / CHECK_EVERY
    }

    /// Count `reads` reads for which `has_room` held.
    #[inline(always)]
    pub fn advance(&mut self, reads: usize) {
        self.used += reads;
    }

    /// `each` entry of an exact dict whose key names a `Key`, in one pass
    /// (`dicts::named_entries`: `false` for a dict that cannot be read so).
    #[inline(always)]
    pub fn named_entries<F>(&mut self, dict: &Bound<'py, PyAny>, each: F) -> bool
    where
        F: FnMut(Key, *mut ffi::PyObject),
    {
        self.dicts.named_entries(dict, each)
    }

    pub fn key(&self, key: Key) -> &Bound<'py, PyString> {
        self.keys[key as usize].bind(self.py)
    }

    /// `map[key]` for an exact dict (`map`), by `dicts::lookup`.
    #[inline]
    fn dict_lookup(&self, map: &Bound<'py, PyAny>, key: Key) -> Read<Option<Bound<'py, PyAny>>> {
        match lookup(map, self.key(key).as_any()) {
            Ok(value) => Ok(value),
            // A key's own `__eq__` raised it: missing, as `dict.get` reads it.
            Err(e) if e.is_instance_of::<PyKeyError>(self.py) => Ok(None),
            Err(e) => Err(unreadable(self.py, e)),
        }
    }

    fn is_instance(&self, v: &Bound<'py, PyAny>, class: &Bound<'py, PyType>) -> bool {
        // An isinstance that raises (a hostile `__class__`): not a container.
        v.is_instance(class).unwrap_or(false)
    }
}

impl<'py> Source for PySource<'py> {
    type V = Bound<'py, PyAny>;
    type T = Py<PyAny>;

    fn mode(&self) -> Mode {
        self.mode
    }

    fn shape(&mut self, v: &Self::V) -> Shape {
        if v.is_exact_instance_of::<PyString>() {
            return Shape::Str;
        }
        if v.is_exact_instance_of::<PyDict>() {
            return Shape::Map;
        }
        if v.is_exact_instance_of::<PyList>() || v.is_exact_instance_of::<PyTuple>() {
            return Shape::List;
        }
        if v.is_none()
            || v.is_exact_instance_of::<PyInt>()
            || v.is_exact_instance_of::<PyFloat>()
            || v.is_exact_instance_of::<PyBool>()
        {
            return Shape::Other;
        }
        if v.is_instance_of::<PyString>() {
            return Shape::Str;
        }
        if v.is_instance_of::<PyDict>() {
            return Shape::Map;
        }
        if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
            return Shape::List;
        }
        if v.is_instance_of::<PyBytes>() || v.is_instance_of::<PyByteArray>() {
            return Shape::Other;
        }
        self.python_runs(); // an ABC's `__instancecheck__`
        if self.is_instance(v, &self.mapping) {
            return Shape::Map;
        }
        if self.is_instance(v, &self.sequence) {
            return Shape::List;
        }
        Shape::Other
    }

    fn is_null(&self, v: &Self::V) -> bool {
        v.is_none()
    }

    fn as_bool(&self, v: &Self::V) -> Option<bool> {
        v.cast_exact::<PyBool>().ok().map(|b| b.is_true())
    }

    fn type_name(&mut self, v: &Self::V) -> String {
        let name = if v.is_none() {
            "null"
        } else if v.is_exact_instance_of::<PyBool>() {
            "bool"
        } else if v.is_exact_instance_of::<PyInt>() {
            "int"
        } else if v.is_exact_instance_of::<PyFloat>() {
            "float"
        } else if v.is_exact_instance_of::<PyString>() {
            "string"
        } else if v.is_exact_instance_of::<PyList>() || v.is_exact_instance_of::<PyTuple>() {
            "list"
        } else if v.is_exact_instance_of::<PyDict>() || self.shape(v) == Shape::Map {
            "mapping"
        } else {
            self.python_runs(); // a metaclass may answer `__name__`
            return v
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "object".into());
        };
        name.to_owned()
    }

    fn get(&mut self, map: &Self::V, key: Key) -> Read<Option<Self::V>> {
        self.count()?;
        if map.is_exact_instance_of::<PyDict>() {
            // Counting reads one or two keys of most dicts: a lookup costs
            // less than scanning every entry (measured on the 10,000-message
            // agentic request: 1.13 -> 0.85 ms). Decoding reads several keys
            // of each dict, where one scan wins. Counting never scans, so it
            // has nothing to forget before a lookup.
            if self.mode != Mode::Count {
                if let Found::Value(value) = self.dicts.get(map, key) {
                    return Ok(value);
                }
                self.python_runs(); // a key's own `__eq__` may run
            }
            return self.dict_lookup(map, key);
        }
        self.python_runs();
        let key = self.key(key);
        match map.get_item(key) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_instance_of::<PyKeyError>(self.py) => Ok(None),
            Err(e) => Err(unreadable(self.py, e)),
        }
    }

    fn len(&mut self, list: &Self::V) -> Read<usize> {
        self.count()?;
        if !(list.is_exact_instance_of::<PyList>()
            || list.is_exact_instance_of::<PyTuple>()
            || list.is_exact_instance_of::<PyDict>())
        {
            self.python_runs();
        }
        list.len().map_err(|e| unreadable(self.py, e))
    }

    fn item(&mut self, list: &Self::V, index: usize) -> Read<Self::V> {
        self.count()?;
        if list.is_exact_instance_of::<PyList>() {
            // SAFETY: checked to be exactly a list just above.
            let l = unsafe { list.cast_unchecked::<PyList>() };
            return l.get_item(index).map_err(|e| unreadable(self.py, e));
        }
        if list.is_exact_instance_of::<PyTuple>() {
            // SAFETY: checked to be exactly a tuple just above.
            let t = unsafe { list.cast_unchecked::<PyTuple>() };
            return t.get_item(index).map_err(|e| unreadable(self.py, e));
        }
        self.python_runs();
        list.get_item(index).map_err(|e| unreadable(self.py, e))
    }

    fn which(&mut self, v: &Self::V, literals: &[&str]) -> Option<usize> {
        let s = utf8(v)?.as_bytes();
        literals.iter().position(|l| same(s, l.as_bytes()))
    }

    fn which_folded(&mut self, v: &Self::V, literals: &[&str]) -> Option<usize> {
        // Lone surrogates are no white space and lowercase to themselves: no
        // ASCII name can match a string that holds one (`utf8` is None).
        let s = utf8(v)?.as_bytes();
        // The common case first: already trimmed and lowercase.
        if let Some(i) = literals.iter().position(|l| same(s, l.as_bytes())) {
            return Some(i);
        }
        let mut buf = [0u8; 32];
        let folded = fold(utf8(v)?, &mut buf)?;
        literals.iter().position(|l| same(folded, l.as_bytes()))
    }

    fn str_is_empty(&mut self, v: &Self::V) -> bool {
        // SAFETY: `v` is a live str (checked by every caller).
        unsafe { ffi::PyUnicode_GetLength(v.as_ptr()) == 0 }
    }

    fn keep(&mut self, v: &Self::V) -> Self::T {
        v.clone().unbind()
    }

    fn keep_literal(&mut self, s: &'static str) -> Self::T {
        PyString::new(self.py, s).into_any().unbind()
    }

    fn tool_input_json(&mut self, v: &Self::V) -> Read<Self::T> {
        self.python_runs();
        let py = self.py;
        let function = TOOL_INPUT_JSON
            .get_or_try_init(py, || -> PyResult<Py<PyAny>> {
                Ok(py
                    .import("turnsignal._reference.request.tool_input")?
                    .getattr("native_tool_input_json")?
                    .unbind())
            })
            .map_err(|e| unreadable(py, e))?;
        let left = self.limit.saturating_sub(self.used);
        match function.bind(py).call1((v, left)) {
            Ok(result) => {
                let (text, used): (Bound<'py, PyAny>, usize) =
                    result.extract().map_err(|e| unreadable(py, e))?;
                self.used += used;
                Ok(text.unbind())
            }
            Err(e) => Err(python_failure(py, e)),
        }
    }

    fn limit(&self) -> usize {
        self.limit
    }
}

static HELPER_ERRORS: PyOnceLock<(Py<PyType>, Py<PyType>)> = PyOnceLock::new();

/// A `WireFormatError` or `OverBudget` raised by the Python helper, as a
/// failure (anything else: the object could not be read).
fn python_failure(py: Python<'_>, error: PyErr) -> Failure {
    let classes = HELPER_ERRORS.get_or_try_init(py, || -> PyResult<_> {
        let wire = py.import("turnsignal.errors")?.getattr("WireFormatError")?;
        let budget = py
            .import("turnsignal._reference.request.source")?
            .getattr("OverBudget")?;
        Ok((
            wire.cast_into::<PyType>()?.unbind(),
            budget.cast_into::<PyType>()?.unbind(),
        ))
    });
    let Ok((wire, budget)) = classes else {
        return unreadable(py, error);
    };
    let value = error.value(py);
    if value.is_instance(budget.bind(py)).unwrap_or(false) {
        return Failure::Budget;
    }
    if value.is_instance(wire.bind(py)).unwrap_or(false) {
        if let Ok(problem) = value.getattr("problem").and_then(|p| p.extract::<String>()) {
            return Failure::wire(problem);
        }
    }
    unreadable(py, error)
}

/// Byte equality without a `memcmp` call (the names compared are short).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Python's `s.strip().lower()` into `buf` when the result is ASCII and fits
/// (only the Kelvin sign lowercases to ASCII from outside it): what can
/// equal one of the decoders' ASCII names.
pub fn fold<'b>(s: &str, buf: &'b mut [u8; 32]) -> Option<&'b [u8]> {
    let mut n = 0;
    for c in s.trim_matches(is_python_space).chars() {
        let lower = match c {
            '\u{212a}' => b'k',
            _ if c.is_ascii() => c.to_ascii_lowercase() as u8,
            _ => return None,
        };
        *buf.get_mut(n)? = lower;
        n += 1;
    }
    Some(&buf[..n])
}

/// `str.isspace()` (what `str.strip()` removes).
fn is_python_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | '\u{1c}'..='\u{20}'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}
