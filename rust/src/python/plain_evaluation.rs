//! The evaluator's reading of plain Chat Completions and Anthropic
//! messages. Most messages routers see are `{"role": ..., "content": "..."}`,
//! or an agent loop's user parts, tool calls and tool results: for those,
//! the generic decoder's work around each read (shapes, subclasses, error
//! paths, one `Result` per read) costs more than the reads.
//!
//! Plain means exact dicts (at most 16 entries, every key an exact str),
//! exact lists (at most 16 items) and exact strs, and a role written as one
//! of the format's names. A Chat message's content may be a string or a list
//! of text, image, audio and file parts; an assistant's refusal, reasoning,
//! tool calls and legacy function call are read as LEAN decoding reads them.
//! An Anthropic message's content must be a string (or none). Anything else
//! (a refusal part, a type that is not a string, a subclass, another mapping
//! or sequence, a value of the wrong type) sends the message to the format's
//! `decode_message`, from its first read.
//!
//! The reader decides that, building the message's blocks and counting its
//! reads, before it counts or keeps anything; then it counts the reads LEAN
//! decoding makes and gives the collector the same calls in the same order.
//! It never runs Python code: one pass over each dict (`PyDict_Next`; keys
//! that are exact strs compare without any `__eq__`) finds every value it
//! reads. A message is read plainly only when its reads can cross neither
//! the budget nor a deadline checkpoint (which calls the caller's
//! cancellation token); otherwise the generic decoder reads it, and meets
//! them where it always does.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::Borrowed;

use crate::request::openai::ChatRole;
use crate::request::{
    anthropic, openai, Block, BlockKind, Collector, Key, MessageReader, Read, Role, Sink,
};

use super::source::PySource;
use super::text::utf8;

type T = Py<PyAny>;

/// Content parts or tool calls a plain message holds at most: longer lists
/// (and the block cap they may reach) are the generic decoder's.
const MOST_ITEMS: usize = 16;
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
    /// A Chat message's blocks, built before any is kept.
    blocks: Vec<Block<T>>,
}

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

    /// `message` read by `plain` when it is plain (and worth looking at),
    /// else by `generic`. Nothing is counted or kept before the message is
    /// known plain, with room for its reads.
    /// (`plain` and `generic` are functions, not pointers to them: each
    /// call is compiled for its pair, and the generic decoder inlined.)
    #[inline(always)]
    fn read<'py, P, G>(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Collector<T>,
        message: &Bound<'py, PyAny>,
        misses_per_plain: (u32, u32),
        plain: P,
        generic: G,
    ) -> Read<()>
    where
        P: FnOnce(
            &mut PySource<'py>,
            &mut Collector<T>,
            &Bound<'py, PyAny>,
            &mut Vec<Block<T>>,
        ) -> Option<Read<()>>,
        G: FnOnce(&mut PySource<'py>, &mut Collector<T>, &Bound<'py, PyAny>) -> Read<()>,
    {
        if self.worth_looking(misses_per_plain) {
            self.blocks.clear();
            match plain(src, out, message, &mut self.blocks) {
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
        let misses = CHAT_MISSES_PER_PLAIN;
        self.read(src, out, m, misses, chat_message, openai::decode_message)
    }

    fn anthropic(
        &mut self,
        src: &mut PySource<'py>,
        out: &mut Collector<T>,
        m: &Bound<'py, PyAny>,
    ) -> Read<()> {
        let misses = ANTHROPIC_MISSES_PER_PLAIN;
        self.read(
            src,
            out,
            m,
            misses,
            anthropic_message,
            anthropic::decode_message,
        )
    }
}

/// A plain Anthropic message (a string content, or none) read into `out`
/// (`Some`: what `decode_message` returns for it); `None` when it is not
/// plain (a list of blocks among others).
fn anthropic_message<'py>(
    src: &mut PySource<'py>,
    out: &mut Collector<T>,
    message: &Bound<'py, PyAny>,
    _: &mut Vec<Block<T>>,
) -> Option<Read<()>> {
    let (fields, role) = fields_and_role(src, message, anthropic::ROLES)?;
    let text = str_or_none(fields.present(Key::Content))?;
    if !src.has_room(2) {
        return None;
    }
    src.advance(2); // role, content
    let Some(text) = text else {
        return Some(Ok(())); // no content: no message
    };
    Some(out.message(role, Block::text(BlockKind::Text, Some(keep(text)))))
}

/// A plain Chat message read into `out` (`Some`: what `decode_message`
/// returns for it); `None` when it is not plain. Its blocks are built into
/// `blocks` first, its reads counted in `reads`; only a message found plain
/// whole, with room for its reads, reaches `out`.
fn chat_message<'py>(
    src: &mut PySource<'py>,
    out: &mut Collector<T>,
    message: &Bound<'py, PyAny>,
    blocks: &mut Vec<Block<T>>,
) -> Option<Read<()>> {
    let (fields, role) = fields_and_role(src, message, openai::ROLES)?;
    let role = match role {
        ChatRole::Instruction(role) => {
            if !src.has_room(1) {
                return None;
            }
            src.advance(1); // the role: LEAN decoding reads no instruction text
            out.instruction(role, Vec::new());
            return Some(Ok(()));
        }
        ChatRole::Tool => return tool_message(src, out, &fields, Key::ToolCallId),
        ChatRole::Function => return tool_message(src, out, &fields, Key::Name),
        ChatRole::Message(role) => role,
    };
    let content = fields.present(Key::Content);
    if role == Role::User || !fields.has_extras() {
        // The common case, kept short: a string content or none, and no
        // refusal, reasoning or tool calls.
        if let Some(text) = str_or_none(content) {
            return text_message(src, out, role, text);
        }
    }
    let mut reads = 2; // role, content
    match content {
        None => {}
        Some(text) if text.is_exact_instance_of::<PyString>() => {
            blocks.push(Block::text(BlockKind::Text, Some(keep(text))));
        }
        Some(parts) => {
            for_each_plain(src, &parts, &mut reads, |src, part, reads| {
                blocks.push(part_block(src, part, reads)?);
                Some(())
            })?;
        }
    }
    if role == Role::Assistant {
        assistant_extras(src, &fields, &mut reads, blocks)?;
    }
    if !src.has_room(reads) {
        return None;
    }
    // The reads of a message are counted at once: none reaches the budget
    // or a checkpoint (room was checked), and what a block cap leaves
    // unread is never observed (decoding stops there).
    src.advance(reads);
    out.begin(role, false);
    for block in blocks.drain(..) {
        if let Err(cap) = out.add(block) {
            return Some(Err(cap));
        }
    }
    Some(out.end())
}

/// A user or assistant message whose content is a string or none, and (an
/// assistant's) whose extras are all missing or null.
#[inline(always)]
fn text_message(
    src: &mut PySource<'_>,
    out: &mut Collector<T>,
    role: Role,
    text: Option<Borrowed<'_, '_, PyAny>>,
) -> Option<Read<()>> {
    // role, content; an assistant's refusal, reasoning_content, reasoning,
    // tool_calls and function_call.
    let reads = if role == Role::Assistant { 7 } else { 2 };
    if !src.has_room(reads) {
        return None;
    }
    src.advance(reads);
    out.begin(role, false);
    if let Some(text) = text {
        if let Err(cap) = out.add(Block::text(BlockKind::Text, Some(keep(text)))) {
            return Some(Err(cap));
        }
    }
    Some(out.end())
}

/// An assistant's refusal, reasoning (`reasoning_content`, else
/// `reasoning`), tool calls and legacy function call, as LEAN decoding
/// reads them: a refusal or reasoning is a block without its text.
fn assistant_extras<'py>(
    src: &mut PySource<'py>,
    fields: &Fields<'_, 'py>,
    reads: &mut usize,
    blocks: &mut Vec<Block<T>>,
) -> Option<()> {
    *reads += 2; // refusal, reasoning_content
    if str_or_none(fields.present(Key::Refusal))?.is_some() {
        blocks.push(Block::text(BlockKind::Refusal, None));
    }
    let mut reasoning = str_or_none(fields.present(Key::ReasoningContent))?;
    if reasoning.is_none() {
        *reads += 1;
        reasoning = str_or_none(fields.present(Key::Reasoning))?;
    }
    if reasoning.is_some() {
        blocks.push(Block::text(BlockKind::Reasoning, None));
    }
    *reads += 1; // tool_calls
    if let Some(calls) = fields.present(Key::ToolCalls) {
        for_each_plain(src, &calls, reads, |src, call, reads| {
            blocks.push(tool_call(src, call, reads)?);
            Some(())
        })?;
    }
    *reads += 1; // function_call
    if let Some(call) = fields.present(Key::FunctionCall) {
        let call = call.cast_exact::<PyDict>().ok()?;
        let call = Fields::of(src, &call)?;
        *reads += 2; // name, arguments
        let name = str_or_none(call.present(Key::Name))?;
        let arguments = str_or_none(call.present(Key::Arguments))?;
        // A legacy call's id is its name.
        let id = name.map(keep);
        blocks.push(Block::tool_call(
            id,
            name.map(keep),
            None,
            non_empty(&arguments),
        ));
    }
    Some(())
}

/// `each` item of an exact list of at most `MOST_ITEMS` (its length and
/// every item a counted read).
#[inline(always)]
fn for_each_plain<'py, F>(
    src: &mut PySource<'py>,
    list: &Bound<'py, PyAny>,
    reads: &mut usize,
    mut each: F,
) -> Option<()>
where
    F: FnMut(&mut PySource<'py>, &Bound<'py, PyAny>, &mut usize) -> Option<()>,
{
    let list = list.cast_exact::<PyList>().ok()?;
    if list.len() > MOST_ITEMS {
        return None;
    }
    *reads += 1 + list.len();
    for item in list.iter() {
        each(src, &item, reads)?;
    }
    Some(())
}

/// A content part (`openai::decode_part` in LEAN decoding): a text part
/// keeps its text; an image, audio or file part is its kind; an unknown or
/// missing type is `Other`. A refusal part is left to the generic decoder.
fn part_block<'py>(
    src: &mut PySource<'py>,
    part: &Bound<'py, PyAny>,
    reads: &mut usize,
) -> Option<Block<T>> {
    let part = Fields::of(src, part.cast_exact::<PyDict>().ok()?)?;
    *reads += 1; // type
    let Some(kind) = part.present(Key::Type) else {
        return Some(Block::of(BlockKind::Other));
    };
    if !kind.is_exact_instance_of::<PyString>() {
        return None;
    }
    // The decoder's own table (`Other` for a type it does not list).
    Some(
        match utf8(&kind).map_or(BlockKind::Other, openai::part_kind) {
            BlockKind::Text => {
                *reads += 1; // text
                let text = str_or_none(part.present(Key::Text))?;
                Block::text(BlockKind::Text, text.map(keep))
            }
            BlockKind::Refusal => return None,
            kind => Block::of(kind),
        },
    )
}

/// A tool call (`openai::tool_call` in LEAN decoding): its id, and its
/// name and whether it has arguments, from its `function` (or `custom`)
/// body; a call of another type is `Other`.
fn tool_call<'py>(
    src: &mut PySource<'py>,
    call: &Bound<'py, PyAny>,
    reads: &mut usize,
) -> Option<Block<T>> {
    let call = Fields::of(src, call.cast_exact::<PyDict>().ok()?)?;
    *reads += 1; // type
    let (body_key, arguments_key) = match call.present(Key::Type) {
        None => (Key::Function, Key::Arguments),
        Some(kind) if kind.is_exact_instance_of::<PyString>() => match utf8(&kind).unwrap_or("") {
            k if k == openai::CALL_TYPES[0] => (Key::Function, Key::Arguments),
            k if k == openai::CALL_TYPES[1] => (Key::Custom, Key::Input),
            _ => return Some(Block::of(BlockKind::Other)),
        },
        Some(_) => return None,
    };
    *reads += 2; // id, body
    let id = str_or_none(call.present(Key::Id))?.map(keep);
    let Some(body) = call.present(body_key) else {
        return Some(Block::tool_call(id, None, None, false));
    };
    let body = body.cast_exact::<PyDict>().ok()?;
    let body = Fields::of(src, &body)?;
    *reads += 2; // name, arguments
    let name = str_or_none(body.present(Key::Name))?.map(keep);
    let arguments = str_or_none(body.present(arguments_key))?;
    Some(Block::tool_call(id, name, None, non_empty(&arguments)))
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
    let id = str_or_none(fields.present(id_key))?;
    if !src.has_room(2) {
        return None;
    }
    src.advance(2); // role, call id
    Some(out.message(Role::Tool, Block::tool_result(id.map(keep), Vec::new())))
}

/// A value read as a string: `Some(None)` when missing or null, `None` when
/// it is not an exact str (not plain).
#[inline(always)]
fn str_or_none<'a, 'py>(
    value: Option<Borrowed<'a, 'py, PyAny>>,
) -> Option<Option<Borrowed<'a, 'py, PyAny>>> {
    match value {
        None => Some(None),
        Some(v) if v.is_exact_instance_of::<PyString>() => Some(Some(v)),
        Some(_) => None,
    }
}

#[inline(always)]
fn keep(value: Borrowed<'_, '_, PyAny>) -> T {
    value.to_owned().unbind()
}

/// Whether a string is present and not empty.
#[inline(always)]
fn non_empty(value: &Option<Borrowed<'_, '_, PyAny>>) -> bool {
    // SAFETY: an exact str, alive (held by its dict).
    value
        .as_ref()
        .is_some_and(|v| unsafe { ffi::PyUnicode_GetLength(v.as_ptr()) } > 0)
}

/// The keys the reader reads, in any of the dicts it reads.
const READ_KEYS: [Key; 16] = [
    Key::Role,
    Key::Content,
    Key::ToolCallId,
    Key::Name,
    Key::Refusal,
    Key::ReasoningContent,
    Key::Reasoning,
    Key::ToolCalls,
    Key::FunctionCall,
    Key::Type,
    Key::Text,
    Key::Id,
    Key::Function,
    Key::Custom,
    Key::Arguments,
    Key::Input,
];
/// Each key's slot in `Fields::values` (`NOT_READ`: none).
const NOT_READ: u8 = u8::MAX;
const SLOTS: [u8; Key::ALL.len()] = {
    let mut slots = [NOT_READ; Key::ALL.len()];
    let mut i = 0;
    while i < READ_KEYS.len() {
        slots[READ_KEYS[i] as usize] = i as u8;
        i += 1;
    }
    slots
};

/// A dict's values at `READ_KEYS`, from one pass over it: borrowed from
/// `dict` (null: missing).
struct Fields<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    values: [*mut ffi::PyObject; READ_KEYS.len()],
}

impl<'a, 'py> Fields<'a, 'py> {
    /// `None` when the dict is too large (more than 16 entries, as for the
    /// decoders' scans) or a key is not an exact str.
    #[inline(always)]
    fn of(src: &mut PySource<'py>, dict: &'a Bound<'py, PyDict>) -> Option<Self> {
        let mut fields = Fields {
            dict,
            values: [std::ptr::null_mut(); READ_KEYS.len()],
        };
        let complete = src.named_entries(dict.as_any(), |k, value| {
            let slot = SLOTS[k as usize];
            if slot != NOT_READ {
                fields.values[slot as usize] = value;
            }
        });
        // Too large, or a key equal to a name by its own rules: not plain.
        if !complete {
            return None;
        }
        Some(fields)
    }

    /// Whether any of an assistant's refusal, reasoning or tool calls is
    /// there (not missing, not null).
    #[inline(always)]
    fn has_extras(&self) -> bool {
        [
            Key::Refusal,
            Key::ReasoningContent,
            Key::Reasoning,
            Key::ToolCalls,
            Key::FunctionCall,
        ]
        .iter()
        .any(|&key| self.present(key).is_some())
    }

    /// The value at `key` (one of `READ_KEYS`), `None` when missing or null.
    #[inline(always)]
    fn present(&self, key: Key) -> Option<Borrowed<'_, 'py, PyAny>> {
        let value = self.values[SLOTS[key as usize] as usize];
        // SAFETY: a borrowed reference held by `dict`, which is alive and
        // unchanged: no Python code ran since the pass.
        let value = unsafe { Borrowed::from_ptr_or_opt(self.dict.py(), value) }?;
        (!value.is_none()).then_some(value)
    }
}
