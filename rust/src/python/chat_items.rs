//! One code per OpenAI Chat message, for a history reset
//! (`python/turnsignal/_chat_items.py`, the reference, says why and what
//! each code means), with the ids of its tool calls or result: a client
//! resending its history sends hundreds of messages, and one call reads them
//! all where the general scanner would take a Python call each.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::request::source::Key;

use super::dicts::{lookup, DictScans};

const INSTRUCTION: u8 = 0;
const USER_TURN: u8 = 1;
const USER_EMPTY: u8 = 2;
const ASSISTANT_PLAIN: u8 = 3;
const GENERAL: u8 = 4;
const ASSISTANT_CALLS: u8 = 5;
const TOOL_RESULT: u8 = 6;

/// A value of exactly one of the JSON types (`Missing`: no key, or None).
enum Json {
    Missing,
    Str,
    List(usize),
    Other,
}

/// `value`'s kind, or `None` when its type is not exactly a JSON one (a
/// subclass could answer `len` or truthiness its own way).
fn json(value: Option<&Bound<'_, PyAny>>) -> Option<Json> {
    let Some(value) = value else {
        return Some(Json::Missing);
    };
    if value.is_none() {
        return Some(Json::Missing);
    }
    if value.is_exact_instance_of::<PyString>() {
        return Some(Json::Str);
    }
    if let Ok(list) = value.cast_exact::<PyList>() {
        return Some(Json::List(list.len()));
    }
    if let Ok(tuple) = value.cast_exact::<PyTuple>() {
        return Some(Json::List(tuple.len()));
    }
    let other = value.is_exact_instance_of::<PyDict>()
        || value.is_exact_instance_of::<PyInt>()
        || value.is_exact_instance_of::<PyFloat>()
        || value.is_exact_instance_of::<PyBool>();
    other.then_some(Json::Other)
}

fn width(value: &Json) -> usize {
    match value {
        Json::List(len) => *len,
        _ => 0,
    }
}

/// The fields of one exact-dict item that its code needs: `role`,
/// `content`, `tool_calls`, `function_call`, `tool_call_id`.
struct Fields<'py> {
    role: Option<Bound<'py, PyAny>>,
    content: Option<Bound<'py, PyAny>>,
    calls: Option<Bound<'py, PyAny>>,
    /// `None` when looked up only if needed (the dict was not scanned).
    legacy: Option<Option<Bound<'py, PyAny>>>,
    answered: Option<Option<Bound<'py, PyAny>>>,
}

/// The fields of `item`, from one pass over its entries (a small dict of
/// exact-str keys, no Python code run) or, failing that, by lookup in the
/// reference's order (`content`, `tool_calls`; `role` and `function_call`
/// later, when needed).
fn fields<'py>(scans: &mut DictScans<'py>, item: &Bound<'py, PyAny>) -> PyResult<Fields<'py>> {
    let py = item.py();
    let mut found = [std::ptr::null_mut(); 5];
    let complete = scans.named_entries(item, |key, value| match key {
        Key::Role => found[0] = value,
        Key::Content => found[1] = value,
        Key::ToolCalls => found[2] = value,
        Key::FunctionCall => found[3] = value,
        Key::ToolCallId => found[4] = value,
        _ => {}
    });
    if complete {
        // SAFETY: borrowed references held by `item`, which is alive and
        // unchanged: no Python code ran since the pass.
        let [role, content, calls, legacy, answered] =
            found.map(|value| unsafe { Bound::from_borrowed_ptr_or_opt(py, value) });
        return Ok(Fields {
            role,
            content,
            calls,
            legacy: Some(legacy),
            answered: Some(answered),
        });
    }
    Ok(Fields {
        role: None,
        content: lookup(item, intern!(py, "content"))?,
        calls: lookup(item, intern!(py, "tool_calls"))?,
        legacy: None,
        answered: None,
    })
}

/// A call id the general scanner would accept as it is: an exact,
/// non-empty str.
fn call_id<'py>(value: Option<Bound<'py, PyAny>>) -> PyResult<Option<Bound<'py, PyAny>>> {
    match value {
        Some(value) if value.is_exact_instance_of::<PyString>() && value.len()? > 0 => {
            Ok(Some(value))
        }
        _ => Ok(None),
    }
}

/// The ids of `calls` (an exact list or tuple, not empty) when each is an
/// exact dict with a call id, in order; `None` otherwise.
fn call_ids<'py>(calls: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let py = calls.py();
    let len = calls.len()?;
    let mut ids = Vec::with_capacity(len);
    for index in 0..len {
        let call = item_at(calls, index)?;
        if !call.is_exact_instance_of::<PyDict>() {
            return Ok(None);
        }
        match call_id(lookup(&call, intern!(py, "id"))?)? {
            Some(id) => ids.push(id),
            None => return Ok(None),
        }
    }
    PyTuple::new(py, ids).map(Some)
}

/// A code with the ids of the calls it opens or the call it answers.
type Coded<'py> = (u8, Option<Bound<'py, PyTuple>>);

/// The code of one exact-dict item, given its fields and the kinds of its
/// `content` and `tool_calls`, and its ids for a tool call or result.
fn code<'py>(
    item: &Bound<'py, PyAny>,
    fields: Fields<'py>,
    content: &Json,
    calls: &Json,
) -> PyResult<Coded<'py>> {
    let py = item.py();
    let role = match fields.legacy {
        Some(_) => fields.role.clone(),
        None => lookup(item, intern!(py, "role"))?,
    };
    let Some(role) = role else {
        return Ok((GENERAL, None));
    };
    let Ok(role) = role.cast_exact::<PyString>() else {
        return Ok((GENERAL, None));
    };
    // A role that is not valid UTF-8 (a lone surrogate) equals none of these.
    let Ok(role) = role.to_str() else {
        return Ok((GENERAL, None));
    };
    Ok(match role {
        "user" => match content {
            Json::Str => (USER_TURN, None),
            Json::List(len) if *len > 0 => (USER_TURN, None),
            _ => (USER_EMPTY, None),
        },
        "assistant" => {
            let legacy = match fields.legacy {
                Some(legacy) => legacy,
                None => lookup(item, intern!(py, "function_call"))?,
            };
            if legacy.is_some_and(|value| !value.is_none()) {
                return Ok((GENERAL, None));
            }
            match (calls, &fields.calls) {
                (Json::Missing | Json::List(0), _) => (ASSISTANT_PLAIN, None),
                (Json::List(_), Some(list)) => match call_ids(list)? {
                    Some(ids) => (ASSISTANT_CALLS, Some(ids)),
                    None => (GENERAL, None),
                },
                _ => (GENERAL, None),
            }
        }
        "system" | "developer" => (INSTRUCTION, None),
        "tool" => {
            let answered = match fields.answered {
                Some(answered) => answered,
                None => lookup(item, intern!(py, "tool_call_id"))?,
            };
            match call_id(answered)? {
                Some(id) => (TOOL_RESULT, Some(PyTuple::new(py, [id])?)),
                None => (GENERAL, None),
            }
        }
        _ => (GENERAL, None),
    })
}

/// The item at `index` of an exact list or tuple.
fn item_at<'py>(items: &Bound<'py, PyAny>, index: usize) -> PyResult<Bound<'py, PyAny>> {
    match items.cast_exact::<PyList>() {
        Ok(list) => list.get_item(index),
        Err(_) => items.get_item(index),
    }
}

/// The counted limits of one reading.
struct Limits {
    start: usize,
    max_blocks: usize,
    max_openings: usize,
}

/// What one reading found: the codes, `first`, and the ids beside each code.
type Read<'py> = (Vec<u8>, usize, Vec<Option<Bound<'py, PyTuple>>>);

/// The codes of `items[start:]`, from the newest back, stopping before the
/// item whose blocks would bring the count over `max_blocks` or after the
/// `max_openings`-th turn opening; `None` when an item cannot be read this
/// way (the reference's `read_codes` exactly).
fn read<'py>(
    items: &Bound<'py, PyAny>,
    len: usize,
    limits: &Limits,
) -> PyResult<Option<Read<'py>>> {
    let mut scans = DictScans::new();
    let mut codes = Vec::with_capacity(len.saturating_sub(limits.start));
    let mut ids = Vec::with_capacity(codes.capacity());
    let mut blocks: usize = 0;
    let mut openings: usize = 0;
    let mut first = len;
    for index in (limits.start..len).rev() {
        let item = item_at(items, index)?;
        if !item.is_exact_instance_of::<PyDict>() {
            return Ok(None);
        }
        let fields = fields(&mut scans, &item)?;
        let (Some(content), Some(calls)) =
            (json(fields.content.as_ref()), json(fields.calls.as_ref()))
        else {
            return Ok(None);
        };
        blocks = blocks.saturating_add(width(&content) + width(&calls));
        if blocks > limits.max_blocks {
            break;
        }
        let (code, found) = code(&item, fields, &content, &calls)?;
        codes.push(code);
        ids.push(found);
        first = index;
        if code == USER_TURN {
            openings += 1;
            if openings == limits.max_openings {
                break;
            }
        }
    }
    codes.reverse();
    ids.reverse();
    Ok(Some((codes, first, ids)))
}

/// `(codes of items[first:], first, the ids of each)` for an exact list or
/// tuple; `None` for any other sequence or an item holding other than exact
/// JSON values, and when reading raised (a key's own `__eq__`): the caller
/// then reads every item the general way, which reports it.
#[pyfunction]
pub fn chat_item_codes<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    start: isize,
    max_blocks: usize,
    max_openings: usize,
) -> Option<(Bound<'py, PyBytes>, usize, Bound<'py, PyTuple>)> {
    let len = if let Ok(list) = items.cast_exact::<PyList>() {
        list.len()
    } else if let Ok(tuple) = items.cast_exact::<PyTuple>() {
        tuple.len()
    } else {
        return None;
    };
    let start = usize::try_from(start).unwrap_or(0).min(len);
    let limits = Limits {
        start,
        max_blocks,
        max_openings,
    };
    match read(items, len, &limits) {
        Ok(Some((codes, first, ids))) => {
            let ids = PyTuple::new(py, ids).ok()?;
            Some((PyBytes::new(py, &codes), first, ids))
        }
        _ => None, // the error is dropped: the general reading meets it again
    }
}
