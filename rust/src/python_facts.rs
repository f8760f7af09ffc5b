//! `count_facts`: the per-message counting pass of the conversation facts
//! (`python/turnsignal/conversation/facts.py`, spec conversation.md "Facts").
//!
//! It walks the neutral model's tuples directly (a `Message` is a
//! `(role, content)` tuple, a block a `NamedTuple`) and compares roles and
//! block classes by identity with the objects Python passes in, exactly as the
//! reference loop (`turnsignal._reference.facts.count_facts`) does. Any object
//! of a shape it does not know (a role that is no `Role` member, a message or
//! content that is not a tuple, ...) raises `TypeError`; the caller then runs
//! the reference loop, which defines the result (or the error) for those.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::python::{panic_message, NativeError};

/// `(users, assistants, tools, systems, developers, calls, results, images)`.
type Counts = (usize, usize, usize, usize, usize, usize, usize, usize);

/// Position of the `type` field in each known block class (`turnsignal.model`).
const CALL_TYPE: usize = 3; // ToolCallBlock(id, name, arguments, type)
const RESULT_TYPE: usize = 2; // ToolResultBlock(call_id, content, type)
const FIRST_TYPE: usize = 0; // MediaBlock(type), TextBlock(type, text), OtherBlock(type)

fn unexpected(what: &str) -> PyErr {
    PyTypeError::new_err(format!("count_facts: {what}"))
}

/// The identities the pass compares against, as raw pointers.
struct Known {
    user: *mut pyo3::ffi::PyObject,
    assistant: *mut pyo3::ffi::PyObject,
    tool: *mut pyo3::ffi::PyObject,
    system: *mut pyo3::ffi::PyObject,
    developer: *mut pyo3::ffi::PyObject,
    call: *mut pyo3::ffi::PyObject,
    result: *mut pyo3::ffi::PyObject,
    media: *mut pyo3::ffi::PyObject,
    text: *mut pyo3::ffi::PyObject,
    other: *mut pyo3::ffi::PyObject,
    image: *mut pyo3::ffi::PyObject,
}

fn pointers<const N: usize>(
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<[*mut pyo3::ffi::PyObject; N]> {
    let tuple = obj
        .cast::<PyTuple>()
        .map_err(|_| unexpected(&format!("{what} must be a tuple")))?;
    if tuple.len() != N {
        return Err(unexpected(&format!("{what} must hold {N} objects")));
    }
    let mut out = [std::ptr::null_mut(); N];
    for (slot, item) in out.iter_mut().zip(tuple.iter_borrowed()) {
        *slot = item.as_ptr();
    }
    Ok(out)
}

/// Field `index` of a block whose class has a known layout.
fn field(block: &Bound<'_, PyAny>, index: usize) -> PyResult<*mut pyo3::ffi::PyObject> {
    let tuple = block
        .cast::<PyTuple>()
        .map_err(|_| unexpected("a known block class that is no tuple"))?;
    let item = tuple
        .get_borrowed_item(index)
        .map_err(|_| unexpected("a block shorter than its class"))?;
    Ok(item.as_ptr())
}

/// `block.type is image` for a block of a user message.
fn is_image(
    known: &Known,
    block: &Bound<'_, PyAny>,
    class: *mut pyo3::ffi::PyObject,
) -> PyResult<bool> {
    let kind = if class == known.media || class == known.text || class == known.other {
        field(block, FIRST_TYPE)?
    } else if class == known.result {
        field(block, RESULT_TYPE)?
    } else if class == known.call {
        field(block, CALL_TYPE)?
    } else {
        // A class the model does not define: read the attribute like Python.
        let kind = block
            .getattr(intern!(block.py(), "type"))
            .map_err(|_| unexpected("a block without a type"))?;
        return Ok(kind.as_ptr() == known.image);
    };
    Ok(kind == known.image)
}

fn count(known: &Known, messages: &Bound<'_, PyAny>) -> PyResult<Counts> {
    let messages = messages
        .cast::<PyTuple>()
        .map_err(|_| unexpected("messages must be a tuple"))?;
    let (mut users, mut assistants, mut tools, mut systems, mut developers) = (0, 0, 0, 0, 0);
    let (mut calls, mut results, mut images) = (0, 0, 0);
    for message in messages.iter_borrowed() {
        let message = message
            .cast::<PyTuple>()
            .map_err(|_| unexpected("a message that is no tuple"))?;
        if message.len() != 2 {
            return Err(unexpected("a message that is no (role, content) pair"));
        }
        let role = message.get_borrowed_item(0)?.as_ptr();
        let content = message.get_borrowed_item(1)?;
        let content = content
            .cast::<PyTuple>()
            .map_err(|_| unexpected("a content that is no tuple"))?;
        if role == known.assistant {
            assistants += 1;
            for block in content.iter_borrowed() {
                let class = block.get_type_ptr().cast::<pyo3::ffi::PyObject>();
                if class == known.call {
                    calls += 1;
                } else if class == known.result {
                    results += 1;
                }
            }
        } else if role == known.user {
            users += 1;
            for block in content.iter_borrowed() {
                let class = block.get_type_ptr().cast::<pyo3::ffi::PyObject>();
                if is_image(known, &block, class)? {
                    images += 1;
                } else if class == known.result {
                    results += 1;
                }
            }
        } else {
            if role == known.tool {
                tools += 1;
            } else if role == known.system {
                systems += 1;
            } else if role == known.developer {
                developers += 1;
            } else {
                return Err(unexpected("a role that is no Role member"));
            }
            for block in content.iter_borrowed() {
                if block.get_type_ptr().cast::<pyo3::ffi::PyObject>() == known.result {
                    results += 1;
                }
            }
        }
    }
    Ok((
        users, assistants, tools, systems, developers, calls, results, images,
    ))
}

/// `count_facts(messages, roles, classes)`: `roles` is `(USER, ASSISTANT,
/// TOOL, SYSTEM, DEVELOPER)`, `classes` is `(ToolCallBlock, ToolResultBlock,
/// MediaBlock, TextBlock, OtherBlock, BlockType.IMAGE)`.
#[pyfunction]
pub(crate) fn count_facts(
    messages: &Bound<'_, PyAny>,
    roles: &Bound<'_, PyAny>,
    classes: &Bound<'_, PyAny>,
) -> PyResult<Counts> {
    let [user, assistant, tool, system, developer] = pointers::<5>(roles, "roles")?;
    let [call, result, media, text, other, image] = pointers::<6>(classes, "classes")?;
    let known = Known {
        user,
        assistant,
        tool,
        system,
        developer,
        call,
        result,
        media,
        text,
        other,
        image,
    };
    // `roles` and `classes` stay alive (borrowed from the caller) for the
    // whole call, so the pointers compared against remain valid.
    catch_unwind(AssertUnwindSafe(|| count(&known, messages)))
        .map_err(|e| NativeError::new_err(panic_message(e)))?
}
