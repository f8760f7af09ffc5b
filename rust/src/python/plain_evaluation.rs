//! The evaluator's reading of plain Chat Completions and Anthropic
//! messages. Most messages routers see are `{"role": ..., "content": "..."}`:
//! for those, the generic decoder's work around each read (shapes,
//! subclasses, error paths, one `Result` per read) costs more than the reads.
//!
//! A message is plain when it is an exact dict of at most 16 entries whose
//! keys are all exact strs, its role one of the format's names as written
//! (no other casing, no spaces), its content an exact str, or missing or
//! null, and (a Chat assistant) its refusal, reasoning and tool calls all
//! missing or null. The reader decides that before it counts or keeps
//! anything, then makes the reads LEAN decoding makes, counted the same way,
//! and gives the collector the same calls in the same order. Any other
//! message goes to the format's `decode_message`, from its first read.
//!
//! It never runs Python code: one pass over the dict (`PyDict_Next`; keys
//! that are exact strs compare without any `__eq__`) finds every value it
//! reads. A message is read plainly only when its reads can cross neither
//! the budget nor a deadline checkpoint (which calls the caller's
//! cancellation token); otherwise the generic decoder reads it, and meets
//! them where it always does.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::Borrowed;

use crate::request::openai::ChatRole;
use crate::request::{
    anthropic, openai, Block, BlockKind, Collector, Key, MessageReader, Read, Role, Sink,
};

use super::source::PySource;
use super::text::utf8;

type T = Py<PyAny>;

/// The most reads the reader makes of one message: an assistant's role,
/// content, refusal, reasoning_content, reasoning, tool_calls and
/// function_call.
const MOST_READS: usize = 7;
/// Messages with more entries than this go to the generic decoder: one pass
/// must cost a constant.
const MOST_ENTRIES: ffi::Py_ssize_t = 16;
/// Looks that miss worth paying for each plain message found, as a fraction
/// (`PlainEvaluationReader::worth_looking`).
const CHAT_MISSES_PER_PLAIN: (u32, u32) = (4, 1);
const ANTHROPIC_MISSES_PER_PLAIN: (u32, u32) = (3, 4);

/// The evaluator's reader (`request::decode_with`, LEAN decoding): plain
/// messages here, everything else by the format decoders.
#[derive(Default)]
pub struct PlainEvaluationReader {
    plain: u32,
    not_plain: u32,
}

/// A format's own `decode_message`, or a plain reader of one message
/// (`None`: not plain).
type Generic<'py> = fn(&mut PySource<'py>, &mut Collector<T>, &Bound<'py, PyAny>) -> Read<()>;
type Plain<'py> = fn(&mut PySource<'py>, &mut Collector<T>, &Bound<'py, PyAny>) -> Option<Read<()>>;

impl PlainEvaluationReader {
    /// Whether to look at the next message at all. Looking at a message
    /// that turns out not to be plain costs a pass over it (~200
    /// instructions, counted by callgrind); reading a plain one instead of
    /// the generic decoder saves ~780 on Chat (an assistant's five absent
    /// extras among them) but only ~150 on Anthropic. So a request stops
    /// being looked at once its looks have missed more than
    /// `misses_per_plain` times per plain message found (after 8 free
    /// misses). Either way every message is read the same.
    #[inline(always)]
    fn worth_looking(&self, misses_per_plain: (u32, u32)) -> bool {
        let (misses, per) = misses_per_plain;
        self.not_plain * per <= self.plain * misses + 8 * per
    }

    /// `message` read by `plain` when it is plain (worth looking at, with
    /// room for its reads), else by `generic`. Nothing is counted or kept
    /// before the message is known plain.
    #[inline(always)]
    fn read<'py>(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Collector<T>,
        message: &Bound<'py, PyAny>,
        misses_per_plain: (u32, u32),
        (plain, generic): (Plain<'py>, Generic<'py>),
    ) -> Read<()> {
        if self.worth_looking(misses_per_plain) && src.has_room(MOST_READS) {
            match plain(src, out, message) {
                Some(done) => {
                    self.plain += 1;
                    return done;
                }
                None => self.not_plain += 1,
            }
        }
        generic(src, out, message)
    }
}

impl<'py> MessageReader<PySource<'py>, Collector<T>> for PlainEvaluationReader {
    fn chat(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Collector<T>,
        m: &Bound<'py, PyAny>,
    ) -> Read<()> {
        let readers: (Plain<'py>, Generic<'py>) = (chat_message, openai::decode_message);
        self.read(src, out, m, CHAT_MISSES_PER_PLAIN, readers)
    }

    fn anthropic(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Collector<T>,
        m: &Bound<'py, PyAny>,
    ) -> Read<()> {
        let readers: (Plain<'py>, Generic<'py>) = (anthropic_message, anthropic::decode_message);
        self.read(src, out, m, ANTHROPIC_MISSES_PER_PLAIN, readers)
    }
}

/// A plain Anthropic message (a string content, or none) read into `out`
/// (`Some`: what `decode_message` returns for it); `None` when it is not
/// plain (a list of blocks among others).
fn anthropic_message<'py>(
    src: &mut PySource<'py>,
    out: &mut Collector<T>,
    message: &Bound<'py, PyAny>,
) -> Option<Read<()>> {
    let (fields, role) = fields_and_role(src, message, anthropic::ROLES)?;
    let text = fields.text()?;
    src.advance(2); // role, content
    let Some(text) = text else {
        return Some(Ok(())); // no content: no message
    };
    Some(out.message(role, Block::text(BlockKind::Text, Some(text))))
}

/// A plain Chat message read into `out` (`Some`: what `decode_message`
/// returns for it); `None` when it is not plain.
fn chat_message<'py>(
    src: &mut PySource<'py>,
    out: &mut Collector<T>,
    message: &Bound<'py, PyAny>,
) -> Option<Read<()>> {
    let (fields, role) = fields_and_role(src, message, openai::ROLES)?;
    let role = match role {
        ChatRole::Instruction(role) => {
            src.advance(1); // the role: LEAN decoding reads no instruction text
            out.instruction(role, Vec::new());
            return Some(Ok(()));
        }
        ChatRole::Tool => return tool_message(src, out, &fields, Key::ToolCallId),
        ChatRole::Function => return tool_message(src, out, &fields, Key::Name),
        ChatRole::Message(role) => role,
    };
    let text = fields.text()?;
    if role == Role::Assistant && fields.extras {
        return None;
    }
    src.advance(2); // role, content
    out.begin(role, false);
    if let Some(text) = text {
        if let Err(cap) = out.add(Block::text(BlockKind::Text, Some(text))) {
            return Some(Err(cap)); // the extras are not read then
        }
    }
    if role == Role::Assistant {
        // refusal, reasoning_content, reasoning (the first is null),
        // tool_calls, function_call: all missing or null.
        src.advance(5);
    }
    Some(out.end())
}

/// A message's values, from one pass over it, and its role: what `table`
/// names the role written exactly as one of its names (the generic decoder
/// also reads other casings and spaces around them).
#[inline(always)]
fn fields_and_role<'a, 'py, R: Copy>(
    src: &mut PySource<'py>,
    message: &'a Bound<'py, PyAny>,
    table: &[(&str, R)],
) -> Option<(Fields<'a, 'py>, R)> {
    let fields = Fields::of(src, message.cast_exact::<PyDict>().ok()?)?;
    let role = fields.present(Key::Role)?;
    if !role.is_exact_instance_of::<PyString>() {
        return None;
    }
    let role = utf8(&role)?;
    let named = table.iter().find(|(name, _)| *name == role)?.1;
    Some((fields, named))
}

/// A `tool` (call id at `tool_call_id`) or `function` (at `name`) message:
/// one tool result, its content not read.
fn tool_message<'py>(
    src: &mut PySource<'py>,
    out: &mut Collector<T>,
    fields: &Fields<'_, 'py>,
    id_key: Key,
) -> Option<Read<()>> {
    let id = match fields.present(id_key) {
        None => None,
        Some(id) if id.is_exact_instance_of::<PyString>() => Some(id.to_owned().unbind()),
        Some(_) => return None,
    };
    src.advance(2); // role, call id
    Some(out.message(Role::Tool, Block::tool_result(id, Vec::new())))
}

/// What the reader needs of one message, from one pass over it: borrowed
/// from `message` (null: missing).
struct Fields<'a, 'py> {
    message: &'a Bound<'py, PyDict>,
    role: *mut ffi::PyObject,
    content: *mut ffi::PyObject,
    tool_call_id: *mut ffi::PyObject,
    name: *mut ffi::PyObject,
    /// An assistant's refusal, reasoning or tool calls, not null: the
    /// generic decoder reads those.
    extras: bool,
}

impl<'a, 'py> Fields<'a, 'py> {
    /// `None` when the dict is too large or a key is not an exact str.
    #[inline(always)]
    fn of(src: &mut PySource<'py>, message: &'a Bound<'py, PyDict>) -> Option<Self> {
        let null = std::ptr::null_mut();
        let mut fields = Fields {
            message,
            role: null,
            content: null,
            tool_call_id: null,
            name: null,
            extras: false,
        };
        let py = message.py();
        // SAFETY: `message` is an exact dict; PyDict_Next hands out borrowed
        // references it owns, and no Python code runs during the pass
        // (identifying an exact str runs none).
        unsafe {
            if ffi::PyDict_Size(message.as_ptr()) > MOST_ENTRIES {
                return None;
            }
            let mut pos: ffi::Py_ssize_t = 0;
            let mut key: *mut ffi::PyObject = null;
            let mut value: *mut ffi::PyObject = null;
            while ffi::PyDict_Next(message.as_ptr(), &mut pos, &mut key, &mut value) != 0 {
                if ffi::Py_TYPE(key) != std::ptr::addr_of_mut!(ffi::PyUnicode_Type) {
                    return None; // equal to a name by its own rules: not plain
                }
                match src.identify(Borrowed::from_ptr(py, key)) {
                    Some(Key::Role) => fields.role = value,
                    Some(Key::Content) => fields.content = value,
                    Some(Key::ToolCallId) => fields.tool_call_id = value,
                    Some(Key::Name) => fields.name = value,
                    Some(
                        Key::Refusal
                        | Key::ReasoningContent
                        | Key::Reasoning
                        | Key::ToolCalls
                        | Key::FunctionCall,
                    ) => fields.extras |= value != ffi::Py_None(),
                    _ => {}
                }
            }
        }
        Some(fields)
    }

    /// The content kept as a block's text: `Some(None)` when it is missing
    /// or null; `None` when it is not an exact str (not plain).
    #[inline(always)]
    fn text(&self) -> Option<Option<T>> {
        match self.present(Key::Content) {
            None => Some(None),
            Some(text) if text.is_exact_instance_of::<PyString>() => {
                Some(Some(text.to_owned().unbind()))
            }
            Some(_) => None,
        }
    }

    /// The value at `key` (one of the four kept), `None` when missing or null.
    #[inline(always)]
    fn present(&self, key: Key) -> Option<Borrowed<'_, 'py, PyAny>> {
        let value = match key {
            Key::Role => self.role,
            Key::Content => self.content,
            Key::ToolCallId => self.tool_call_id,
            _ => self.name,
        };
        // SAFETY: a borrowed reference held by `message`, which is alive and
        // unchanged: no Python code ran since the pass.
        let value = unsafe { Borrowed::from_ptr_or_opt(self.message.py(), value) }?;
        (!value.is_none()).then_some(value)
    }
}
