//! The conversation facts of plain Chat Completions and Anthropic messages,
//! read straight from exact dicts, lists and strings. The Router counts
//! every message of a request, and there the generic decoder's work around
//! each read (shapes, subclasses, error paths) costs more than the dict
//! lookups do.
//!
//! The reader makes the reads the format's `decode_message` makes in COUNT
//! mode, in the same order and counted the same way, and gives the counter
//! the same calls. It gives up on anything else: a subclass, a mapping or
//! sequence that is not a dict or list, a role written another way, a value
//! of the wrong type, the budget running out. The generic decoder then reads
//! that message again from its first read, and gives the error and its path
//! when there is one. The reader touches the counter only once the message
//! is read whole, so giving up leaves nothing to undo.
//!
//! Caller code can run in the middle of a read (a key's own `__eq__`), and
//! may change the request: a read that fails then is reported here, at the
//! path the generic decoder gives it, and the message is not read again.

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::request::{anthropic, openai};
use crate::request::{
    Block, BlockKind, Counter, Failure, Key, MessageReader, Read, Role, Seg, Sink,
};

use super::dicts::lookup;
use super::source::{unreadable, PySource};
use super::text::utf8;

/// The facts' reader of Chat and Anthropic messages (`request::decode_with`).
pub struct PlainReader;

impl<'py> MessageReader<PySource<'py>, Counter> for PlainReader {
    fn chat(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Counter,
        m: &Bound<'py, PyAny>,
    ) -> Read<()> {
        plain_or_generic(src, out, m, chat_message, openai::decode_message)
    }

    fn anthropic(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Counter,
        m: &Bound<'py, PyAny>,
    ) -> Read<()> {
        plain_or_generic(src, out, m, anthropic_message, anthropic::decode_message)
    }
}

/// Why the plain reader stopped.
enum Stop {
    /// Something it does not read: the generic decoder reads the message.
    Generic,
    /// What any read can fail with (the budget, the deadline, the token,
    /// a caller's object that fails while read).
    Failed(Failure),
}

impl Stop {
    /// A failure located under `seg` (as the generic decoder locates it).
    fn under(self, seg: Seg) -> Self {
        match self {
            Stop::Failed(f) => Stop::Failed(f.under(seg)),
            generic => generic,
        }
    }

    fn under_key(self, key: Key) -> Self {
        self.under(Seg::Key(key.name()))
    }
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Self {
        Stop::Failed(failure)
    }
}

type Plain<T> = Result<T, Stop>;
type T = Py<PyAny>;

/// A format's own `decode_message`.
type Decoder<'py> = fn(&mut PySource<'py>, &mut Counter, &Bound<'py, PyAny>) -> Read<()>;
/// A plain reader of one message.
type Reader<'py> = fn(&mut PySource<'py>, &mut Counter, &Bound<'py, PyAny>) -> Plain<()>;

/// `message` read by `plain` (which touches `out` only once it has read the
/// message whole); else by `generic`, from the message's first read.
fn plain_or_generic<'py>(
    src: &mut PySource<'py>,
    out: &mut Counter,
    message: &Bound<'py, PyAny>,
    plain: Reader<'py>,
    generic: Decoder<'py>,
) -> Read<()> {
    let mark = src.used();
    match plain(src, out, message) {
        Ok(()) => Ok(()),
        // The budget: the generic decoder names the item it was reading.
        Err(Stop::Failed(Failure::Budget) | Stop::Generic) => {
            src.rewind(mark);
            generic(src, out, message)
        }
        // Met at the same read, with the same path, as by the generic decoder.
        Err(Stop::Failed(failure)) => Err(failure),
    }
}

fn chat_message<'py>(
    src: &mut PySource<'py>,
    out: &mut Counter,
    message: &Bound<'py, PyAny>,
) -> Plain<()> {
    let message = exact_dict(message)?;
    let role = present(src, message, Key::Role)?.ok_or(Stop::Generic)?;
    let role = exact_str(&role)?;
    match role.as_bytes() {
        b"system" => Sink::<T>::instruction(out, Role::System, Vec::new()),
        b"developer" => Sink::<T>::instruction(out, Role::Developer, Vec::new()),
        b"tool" | b"function" => {
            let result = Block::<T>::tool_result(None, Vec::new());
            out.message(Role::Tool, result)?;
        }
        b"user" => {
            let images = match present(src, message, Key::Content)? {
                None => 0,
                Some(text) if text.is_exact_instance_of::<PyString>() => 0,
                Some(parts) => images_in(src, &parts)?,
            };
            counted(out, Role::User, BlockKind::Image, images)?;
        }
        b"assistant" => {
            let calls = tool_calls(src, message)?;
            counted(out, Role::Assistant, BlockKind::ToolCall, calls)?;
        }
        _ => return Err(Stop::Generic),
    }
    Ok(())
}

/// A message of `role` holding `n` blocks of `kind` (the only kind its
/// facts count).
fn counted(out: &mut Counter, role: Role, kind: BlockKind, n: usize) -> Plain<()> {
    Sink::<T>::begin(out, role, false);
    out.add_many(kind, n);
    Ok(Sink::<T>::end(out)?)
}

/// The image parts of a user message's content list.
fn images_in<'py>(src: &mut PySource<'py>, parts: &Bound<'py, PyAny>) -> Plain<usize> {
    let mut images = 0;
    let (list, n) = list_of(src, parts)?;
    for index in 0..n {
        let part = item(src, &list, index).map_err(|e| e.under_key(Key::Content))?;
        let part = exact_dict(&part)?;
        let kind = present(src, part, Key::Type)
            .map_err(|e| e.under(Seg::Index(index)).under_key(Key::Content))?;
        if let Some(kind) = kind {
            let kind = type_text(&kind)?.map_or(BlockKind::Other, openai::part_kind);
            images += usize::from(kind == BlockKind::Image);
        }
    }
    Ok(images)
}

/// The tool calls of an assistant message: its `tool_calls` of type
/// `function`, `custom` or none, and a legacy `function_call`.
fn tool_calls<'py>(src: &mut PySource<'py>, message: &Bound<'py, PyDict>) -> Plain<usize> {
    let mut calls = 0;
    if let Some(list) = present(src, message, Key::ToolCalls)? {
        let (list, n) = list_of(src, &list)?;
        for index in 0..n {
            let call = item(src, &list, index).map_err(|e| e.under_key(Key::ToolCalls))?;
            let call = exact_dict(&call)?;
            let kind = present(src, call, Key::Type)
                .map_err(|e| e.under(Seg::Index(index)).under_key(Key::ToolCalls))?;
            calls += usize::from(match kind {
                None => true,
                Some(kind) => type_text(&kind)?.is_some_and(|t| openai::CALL_TYPES.contains(&t)),
            });
        }
    }
    if let Some(call) = present(src, message, Key::FunctionCall)? {
        exact_dict(&call)?;
        calls += 1;
    }
    Ok(calls)
}

/// An Anthropic message: a string content is one message; a list is read
/// from its end and cut at every `tool_result` block, each its own `tool`
/// message (what `anthropic::decode_message` hands the counter).
fn anthropic_message<'py>(
    src: &mut PySource<'py>,
    whole: &mut Counter,
    message: &Bound<'py, PyAny>,
) -> Plain<()> {
    let message = exact_dict(message)?;
    let role = present(src, message, Key::Role)?.ok_or(Stop::Generic)?;
    let role = match exact_str(&role)? {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "system" => Role::System,
        _ => return Err(Stop::Generic),
    };
    let Some(content) = present(src, message, Key::Content)? else {
        return Ok(()); // no content: no message
    };
    if content.is_exact_instance_of::<PyString>() {
        return Ok(whole.message(role, Block::<T>::of(BlockKind::Text))?);
    }
    let (list, n) = list_of(src, &content)?;
    // Counted into a copy, kept once every block is read.
    let mut counted = *whole;
    let out = &mut counted;
    let mut piece_open = false;
    for index in (0..n).rev() {
        let block = item(src, &list, index).map_err(|e| e.under_key(Key::Content))?;
        let block = exact_dict(&block)?;
        let kind = present(src, block, Key::Type)
            .map_err(|e| e.under(Seg::Index(index)).under_key(Key::Content))?;
        let kind = match kind {
            Some(kind) => type_text(&kind)?.map_or(BlockKind::Other, anthropic::block_kind),
            None => BlockKind::Other,
        };
        if kind == BlockKind::ToolResult {
            if piece_open {
                piece_open = false;
                Sink::<T>::end(out)?;
            }
            Sink::<T>::begin(out, Role::Tool, false);
            out.add_many(kind, 1);
            Sink::<T>::end(out)?;
        } else {
            if !piece_open {
                piece_open = true;
                Sink::<T>::begin(out, role, true);
            }
            out.add_many(kind, 1);
        }
    }
    if piece_open {
        Sink::<T>::end(out)?;
    }
    *whole = counted;
    Ok(())
}

/// An exact list and its length (a counted read).
#[inline(always)]
fn list_of<'py>(
    src: &mut PySource<'py>,
    v: &Bound<'py, PyAny>,
) -> Plain<(Bound<'py, PyList>, usize)> {
    let list = v.cast_exact::<PyList>().map_err(|_| Stop::Generic)?;
    src.count()?;
    Ok((list.clone(), list.len()))
}

/// `list[index]` (a counted read).
#[inline(always)]
fn item<'py>(
    src: &mut PySource<'py>,
    list: &Bound<'py, PyList>,
    index: usize,
) -> Plain<Bound<'py, PyAny>> {
    src.count()?;
    // Only caller code that ran meanwhile can have shortened the list.
    let py = list.py();
    list.get_item(index)
        .map_err(|e| Stop::Failed(unreadable(py, e)))
}

/// `map[key]`, `None` when missing or null: one counted read.
#[inline(always)]
fn present<'py>(
    src: &mut PySource<'py>,
    map: &Bound<'py, PyDict>,
    key: Key,
) -> Plain<Option<Bound<'py, PyAny>>> {
    src.count()?;
    let py = map.py();
    match lookup(map.as_any(), src.key(key).as_any()) {
        Ok(Some(value)) if value.is_none() => Ok(None),
        Ok(value) => Ok(value),
        // A key's own `__eq__` raised: a KeyError is "missing", as `dict.get`
        // reads it; anything else is the caller's object failing.
        Err(e) if e.is_instance_of::<PyKeyError>(py) => Ok(None),
        Err(e) => Err(Stop::Failed(unreadable(py, e))),
    }
}

#[inline(always)]
fn exact_dict<'a, 'py>(v: &'a Bound<'py, PyAny>) -> Plain<&'a Bound<'py, PyDict>> {
    v.cast_exact::<PyDict>().map_err(|_| Stop::Generic)
}

/// An exact str's text (`""` for a lone surrogate, which matches no name).
#[inline(always)]
fn exact_str<'a>(v: &'a Bound<'_, PyAny>) -> Plain<&'a str> {
    if !v.is_exact_instance_of::<PyString>() {
        return Err(Stop::Generic);
    }
    Ok(utf8(v).unwrap_or(""))
}

/// A block's `type`: its text when it is an exact str; `None` when it is a
/// value of another exact type, an unknown block as a missing type is.
#[inline(always)]
fn type_text<'a>(v: &'a Bound<'_, PyAny>) -> Plain<Option<&'a str>> {
    if v.is_exact_instance_of::<PyString>() {
        return Ok(Some(utf8(v).unwrap_or("")));
    }
    if plain_other(v) {
        Ok(None)
    } else {
        Err(Stop::Generic)
    }
}

/// A value of an exact type that is not a string (the generic decoder's
/// shapes other than `Str`, decided without running Python code).
#[inline(always)]
fn plain_other(v: &Bound<'_, PyAny>) -> bool {
    v.is_none()
        || v.is_exact_instance_of::<PyBool>()
        || v.is_exact_instance_of::<PyInt>()
        || v.is_exact_instance_of::<PyFloat>()
        || v.is_exact_instance_of::<PyList>()
        || v.is_exact_instance_of::<PyTuple>()
        || v.is_exact_instance_of::<PyDict>()
}
