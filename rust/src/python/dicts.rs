//! The values of the exact `dict`s a decoder is reading, by key, from one
//! scan of each: the decoders look up several keys of each mapping, going
//! back and forth between a message and its parts, and one pass over a small
//! dict costs less than several lookups.
//!
//! What is remembered stays valid only while no Python code runs (nothing
//! can change a dict then): the source forgets everything before any call
//! into Python (`DictScans::forget`).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::Borrowed;

use crate::request::Key;

use super::text::utf8;

/// Dicts with more keys than this are read by lookup, never scanned (a scan
/// must cost a constant, whatever the caller's dict holds).
const SCANNED_KEYS: usize = 16;
/// Dicts remembered at once: the request, a message, a part, a tool call's body.
const REMEMBERED: usize = 4;
const KEYS: usize = Key::ALL.len();

struct Scan<'py> {
    /// The dict scanned, held alive (its address cannot be reused).
    dict: Option<Bound<'py, PyAny>>,
    /// Borrowed from `dict`, by `Key` (null: absent).
    values: [*mut ffi::PyObject; KEYS],
    /// The keys set in `values` (cleared before the next scan).
    set: [u8; SCANNED_KEYS],
    set_len: usize,
}

impl Scan<'_> {
    fn clear(&mut self) {
        for &k in &self.set[..self.set_len] {
            self.values[k as usize] = std::ptr::null_mut();
        }
        self.set_len = 0;
        self.dict = None;
    }
}

/// Key strings already identified, by address: the dicts of one request
/// mostly share their key objects (literals are interned, `json.loads` reuses
/// one object per key), so most keys are recognised by address. Each entry
/// holds its string alive, so an address cannot be reused meanwhile.
struct KnownKeys<'py> {
    slots: [Option<(Bound<'py, PyAny>, Option<Key>)>; 32],
}

impl<'py> KnownKeys<'py> {
    /// The key `key` (an exact str) names, if the decoders look it up.
    #[inline(always)]
    fn identify(&mut self, key: Borrowed<'_, 'py, PyAny>) -> Option<Key> {
        let slot = &mut self.slots[((key.as_ptr() as usize) >> 4) % 32];
        if let Some((known, id)) = slot {
            if known.as_ptr() == key.as_ptr() {
                return *id;
            }
        }
        Self::learn(slot, key)
    }

    /// A key not seen at its slot yet: identified by name, and remembered.
    #[cold]
    #[inline(never)]
    fn learn(
        slot: &mut Option<(Bound<'py, PyAny>, Option<Key>)>,
        key: Borrowed<'_, 'py, PyAny>,
    ) -> Option<Key> {
        let key = key.to_owned();
        let id = utf8(&key).and_then(|name| Key::from_name(name.as_bytes()));
        *slot = Some((key, id));
        id
    }
}

pub struct DictScans<'py> {
    scans: [Scan<'py>; REMEMBERED],
    next: usize,
    known: KnownKeys<'py>,
}

/// What a dict holds at a key, when it could be scanned.
pub enum Found<'py> {
    Value(Option<Bound<'py, PyAny>>),
    /// Too many keys, or a key that is no exact `str`: look it up.
    Unscanned,
}

impl<'py> DictScans<'py> {
    pub fn new() -> Self {
        DictScans {
            scans: std::array::from_fn(|_| Scan {
                dict: None,
                values: [std::ptr::null_mut(); KEYS],
                set: [0; SCANNED_KEYS],
                set_len: 0,
            }),
            next: 0,
            known: KnownKeys {
                slots: Default::default(),
            },
        }
    }

    /// `each` entry of an exact dict with the key it names (`named_entries`).
    #[inline(always)]
    pub fn named_entries<F>(&mut self, dict: &Bound<'py, PyAny>, each: F) -> bool
    where
        F: FnMut(Key, *mut ffi::PyObject),
    {
        named_entries(&mut self.known, dict, each)
    }

    /// Python code is about to run: what was read of any dict may change.
    #[inline]
    pub fn forget(&mut self) {
        for scan in &mut self.scans {
            scan.dict = None;
        }
    }

    /// `dict[key]` for an exact `dict`.
    pub fn get(&mut self, dict: &Bound<'py, PyAny>, key: Key) -> Found<'py> {
        let index = match self
            .scans
            .iter()
            .position(|s| s.dict.as_ref().is_some_and(|d| d.as_ptr() == dict.as_ptr()))
        {
            Some(i) => i,
            None => match self.scan(dict) {
                Some(i) => i,
                None => return Found::Unscanned,
            },
        };
        let value = self.scans[index].values[key as usize];
        // SAFETY: a borrowed reference held by the scanned dict, which is
        // alive (held) and unchanged (no Python code ran since the scan).
        Found::Value(unsafe { Bound::from_borrowed_ptr_or_opt(dict.py(), value) })
    }

    /// Scan `dict` into the next slot; `None` when it cannot be scanned.
    /// Kept out of line: the source's `get`, which counting also runs,
    /// stays small.
    #[inline(never)]
    fn scan(&mut self, dict: &Bound<'py, PyAny>) -> Option<usize> {
        let index = self.next;
        self.next = (self.next + 1) % REMEMBERED;
        let scan = &mut self.scans[index];
        scan.clear();
        let complete = named_entries(&mut self.known, dict, |k, value| {
            scan.values[k as usize] = value;
            scan.set[scan.set_len] = k as u8;
            scan.set_len += 1;
        });
        if !complete {
            scan.clear();
            return None; // a key equal to a name only by its own rules: look up
        }
        scan.dict = Some(dict.clone());
        Some(index)
    }
}

/// `each` entry of an exact `dict` whose key names a `Key`, with its value
/// (borrowed from `dict`, in one pass): `false`, with only some entries
/// seen, when the dict has more than `SCANNED_KEYS` entries or a key that is
/// not an exact str (equal to a name only by its own rules). No Python code
/// runs.
#[inline(always)]
fn named_entries<'py, F>(known: &mut KnownKeys<'py>, dict: &Bound<'py, PyAny>, mut each: F) -> bool
where
    F: FnMut(Key, *mut ffi::PyObject),
{
    let py = dict.py();
    // SAFETY: `dict` is an exact dict; PyDict_Next hands out borrowed
    // references it owns, and no Python code runs during the pass
    // (identifying an exact str runs none).
    unsafe {
        if ffi::PyDict_Size(dict.as_ptr()) > SCANNED_KEYS as ffi::Py_ssize_t {
            return false;
        }
        let mut pos: ffi::Py_ssize_t = 0;
        let mut key: *mut ffi::PyObject = std::ptr::null_mut();
        let mut value: *mut ffi::PyObject = std::ptr::null_mut();
        while ffi::PyDict_Next(dict.as_ptr(), &mut pos, &mut key, &mut value) != 0 {
            if ffi::Py_TYPE(key) != std::ptr::addr_of_mut!(ffi::PyUnicode_Type) {
                return false;
            }
            if let Some(k) = known.identify(Borrowed::from_ptr(py, key)) {
                each(k, value);
            }
        }
    }
    true
}

/// `dict.get(key)` for an exact `dict`, by one `PyDict_GetItemWithError`:
/// `None` when the key is missing (no error is fetched then); an error a
/// key's own `__eq__` raised is returned.
#[inline(always)]
pub fn lookup<'py>(
    dict: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = dict.py();
    // SAFETY: the caller checked `dict` is exactly a dict; both are alive and
    // the result, a borrowed reference, is owned at once.
    let found = unsafe { ffi::PyDict_GetItemWithError(dict.as_ptr(), key.as_ptr()) };
    if !found.is_null() {
        return Ok(Some(unsafe { Bound::from_borrowed_ptr(py, found) }));
    }
    // SAFETY: the GIL is held.
    if unsafe { ffi::PyErr_Occurred() }.is_null() {
        return Ok(None); // the common miss: no error to fetch
    }
    match PyErr::take(py) {
        None => Ok(None),
        Some(error) => Err(error),
    }
}
