//! One code per OpenAI Chat message, for a history reset
//! (`python/turnsignal/_chat_items.py`, the reference, says why and what
//! each code means): a client resending its history sends hundreds of plain
//! messages, and one call reads them all where the general scanner would
//! take a Python call each.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::dicts::lookup;

const INSTRUCTION: u8 = 0;
const USER_TURN: u8 = 1;
const USER_EMPTY: u8 = 2;
const ASSISTANT_PLAIN: u8 = 3;
const GENERAL: u8 = 4;

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

/// The code of one exact-dict item, given its `content` and `tool_calls`.
fn code(item: &Bound<'_, PyAny>, content: &Json, calls: &Json) -> PyResult<u8> {
    let py = item.py();
    let Some(role) = lookup(item, intern!(py, "role"))? else {
        return Ok(GENERAL);
    };
    let Ok(role) = role.cast_exact::<PyString>() else {
        return Ok(GENERAL);
    };
    // A role that is not valid UTF-8 (a lone surrogate) equals none of these.
    let Ok(role) = role.to_str() else {
        return Ok(GENERAL);
    };
    Ok(match role {
        "user" => match content {
            Json::Str => USER_TURN,
            Json::List(len) if *len > 0 => USER_TURN,
            _ => USER_EMPTY,
        },
        "assistant" => {
            let no_calls = matches!(calls, Json::Missing | Json::List(0));
            let legacy = lookup(item, intern!(py, "function_call"))?;
            if no_calls && legacy.is_none_or(|value| value.is_none()) {
                ASSISTANT_PLAIN
            } else {
                GENERAL
            }
        }
        "system" | "developer" => INSTRUCTION,
        _ => GENERAL,
    })
}

/// The item at `index` of an exact list or tuple.
fn item_at<'py>(items: &Bound<'py, PyAny>, index: usize) -> PyResult<Bound<'py, PyAny>> {
    match items.cast_exact::<PyList>() {
        Ok(list) => list.get_item(index),
        Err(_) => items.get_item(index),
    }
}

/// The codes of `items[start:]`, from the newest back, stopping before the
/// item whose blocks would bring the count over `max_blocks`; `None` when an
/// item cannot be read this way (the reference's `read_codes` exactly).
fn read<'py>(
    items: &Bound<'py, PyAny>,
    len: usize,
    start: usize,
    max_blocks: usize,
) -> PyResult<Option<(Vec<u8>, usize)>> {
    let py = items.py();
    let mut codes = Vec::with_capacity(len.saturating_sub(start));
    let mut blocks: usize = 0;
    let mut first = len;
    for index in (start..len).rev() {
        let item = item_at(items, index)?;
        if !item.is_exact_instance_of::<PyDict>() {
            return Ok(None);
        }
        let content = lookup(&item, intern!(py, "content"))?;
        let calls = lookup(&item, intern!(py, "tool_calls"))?;
        let (Some(content), Some(calls)) = (json(content.as_ref()), json(calls.as_ref())) else {
            return Ok(None);
        };
        blocks = blocks.saturating_add(width(&content) + width(&calls));
        if blocks > max_blocks {
            break;
        }
        codes.push(code(&item, &content, &calls)?);
        first = index;
    }
    codes.reverse();
    Ok(Some((codes, first)))
}

/// `(codes of items[first:], first)` for an exact list or tuple; `None` for
/// any other sequence or an item holding other than exact JSON values, and
/// when reading raised (a key's own `__eq__`): the caller then reads every
/// item the general way, which reports it.
#[pyfunction]
pub fn chat_item_codes<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    start: isize,
    max_blocks: usize,
) -> Option<(Bound<'py, PyBytes>, usize)> {
    let len = if let Ok(list) = items.cast_exact::<PyList>() {
        list.len()
    } else if let Ok(tuple) = items.cast_exact::<PyTuple>() {
        tuple.len()
    } else {
        return None;
    };
    let start = usize::try_from(start).unwrap_or(0).min(len);
    match read(items, len, start, max_blocks) {
        Ok(Some((codes, first))) => Some((PyBytes::new(py, &codes), first)),
        _ => None, // the error is dropped: the general reading meets it again
    }
}
