//! OpenAI Chat Completions → the neutral model (mirrors
//! `python/turnsignal/_reference/request/openai.py`).

use super::model::{Block, BlockKind, Role};
use super::read::wrong_type;
use super::read::{
    add_content, collect_blocks, for_each_item, get_present, get_str, keep_str, kind_in,
    message_role, non_empty, optional_list, request_messages, require_map, tools_and_choice,
    walk_back, which, ToolChoice, WalkEnd,
};
use super::sink::Sink;
use super::source::{Failure, Key, Mode, Read, Shape, Source};

/// What a Chat role names: an instruction, a message, or a tool's result.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ChatRole {
    Instruction(Role),
    Message(Role),
    Tool,
    Function,
}

pub const ROLES: &[(&str, ChatRole); 6] = &[
    ("system", ChatRole::Instruction(Role::System)),
    ("developer", ChatRole::Instruction(Role::Developer)),
    ("user", ChatRole::Message(Role::User)),
    ("assistant", ChatRole::Message(Role::Assistant)),
    ("tool", ChatRole::Tool),
    ("function", ChatRole::Function),
];
const ROLE_NAMES: &str = "assistant, developer, function, system, tool, user";

pub const PART_TYPES: &[&str] = &[
    "text",
    "input_text",
    "output_text",
    "image_url",
    "input_audio",
    "file",
    "refusal",
];
/// The kind each of `PART_TYPES` decodes to (a cargo test holds
/// `decode_part` to it): what the facts' plain reader counts by.
pub const PART_KINDS: [BlockKind; 7] = [
    BlockKind::Text,
    BlockKind::Text,
    BlockKind::Text,
    BlockKind::Image,
    BlockKind::Audio,
    BlockKind::File,
    BlockKind::Refusal,
];

/// The kind a content part of type `name` decodes to.
#[inline(always)]
pub fn part_kind(name: &str) -> BlockKind {
    kind_in(PART_TYPES, &PART_KINDS, name)
}

/// The tool-call types read as tool calls (a missing type too).
pub const CALL_TYPES: [&str; 2] = ["function", "custom"];

/// Whether to keep a text of `kind` (LEAN keeps only what the evaluator reads).
pub fn keeps<S: Source>(src: &S, kind: BlockKind) -> bool {
    match src.mode() {
        Mode::Full => true,
        Mode::Lean => kind == BlockKind::Text,
        Mode::Count => false,
    }
}

/// A text part's string (`key`), validated; kept when the mode keeps it.
pub fn text_part<S: Source>(
    src: &mut S,
    part: &S::V,
    key: Key,
    kind: BlockKind,
) -> Read<Block<S::T>> {
    if src.mode() == Mode::Count {
        return Ok(Block::of(kind));
    }
    let value = get_str(src, part, key)?;
    let text = match value {
        Some(v) if keeps(src, kind) => Some(src.keep(&v)),
        _ => None,
    };
    Ok(Block::text(kind, text))
}

/// A refusal part: its `refusal` string, or its `text` when that is empty.
pub fn refusal_part<S: Source>(src: &mut S, part: &S::V) -> Read<Block<S::T>> {
    if src.mode() == Mode::Count {
        return Ok(Block::of(BlockKind::Refusal));
    }
    let mut value = get_str(src, part, Key::Refusal)?;
    if !non_empty(src, &value) {
        value = get_str(src, part, Key::Text)?;
    }
    let text = match value {
        Some(v) if keeps(src, BlockKind::Refusal) => Some(src.keep(&v)),
        _ => None,
    };
    Ok(Block::text(BlockKind::Refusal, text))
}

fn decode_part<S: Source>(src: &mut S, part: &S::V) -> Read<Block<S::T>> {
    require_map(src, part)?;
    let Some(kind) = super::read::block_type(src, part)? else {
        return Ok(Block::of(BlockKind::Other));
    };
    Ok(match which(src, &kind, PART_TYPES) {
        Some(0..=2) => text_part(src, part, Key::Text, BlockKind::Text)?,
        Some(3) => Block::of(BlockKind::Image),
        Some(4) => Block::of(BlockKind::Audio),
        Some(5) => Block::of(BlockKind::File),
        Some(6) => refusal_part(src, part)?,
        _ => Block::of(BlockKind::Other),
    })
}

fn is<S: Source>(src: &mut S, v: &S::V, literal: &str) -> bool {
    src.shape(v) == Shape::Str && src.which(v, &[literal]).is_some()
}

fn tool_call<S: Source>(src: &mut S, call: &S::V) -> Read<Block<S::T>> {
    require_map(src, call)?;
    let kind = get_present(src, Some(call), Key::Type)?;
    let (key, arguments_key) = match &kind {
        None => (Key::Function, Key::Arguments),
        Some(k) if is(src, k, CALL_TYPES[0]) => (Key::Function, Key::Arguments),
        Some(k) if is(src, k, CALL_TYPES[1]) => (Key::Custom, Key::Input),
        Some(_) => return Ok(Block::of(BlockKind::Other)), // a kind this decoder does not know
    };
    if src.mode() == Mode::Count {
        return Ok(Block::tool_call(None, None, None, false));
    }
    let id = keep_str(src, call, Key::Id)?;
    let Some(body) = get_present(src, Some(call), key)? else {
        return Ok(Block::tool_call(id, None, None, false));
    };
    require_map(src, &body).map_err(|e| e.under_key(key))?;
    let name = keep_str(src, &body, Key::Name).map_err(|e| e.under_key(key))?;
    let arguments = get_str(src, &body, arguments_key).map_err(|e| e.under_key(key))?;
    Ok(arguments_block(src, id, name, arguments))
}

/// A tool call whose arguments are kept in FULL decoding only.
pub fn arguments_block<S: Source>(
    src: &mut S,
    id: Option<S::T>,
    name: Option<S::T>,
    arguments: Option<S::V>,
) -> Block<S::T> {
    let has = non_empty(src, &arguments);
    let kept = match arguments {
        Some(v) if src.mode() == Mode::Full => Some(src.keep(&v)),
        _ => None,
    };
    Block::tool_call(id, name, kept, has)
}

fn legacy_function_call<S: Source>(src: &mut S, message: &S::V) -> Read<Option<Block<S::T>>> {
    let Some(call) = get_present(src, Some(message), Key::FunctionCall)? else {
        return Ok(None);
    };
    require_map(src, &call).map_err(|e| e.under_key(Key::FunctionCall))?;
    if src.mode() == Mode::Count {
        return Ok(Some(Block::tool_call(None, None, None, false)));
    }
    let read = |src: &mut S| -> Read<Block<S::T>> {
        let name = get_str(src, &call, Key::Name)?;
        let arguments = get_str(src, &call, Key::Arguments)?;
        let id = name.as_ref().map(|v| src.keep(v));
        let name = name.as_ref().map(|v| src.keep(v));
        Ok(arguments_block(src, id, name, arguments))
    };
    read(src)
        .map(Some)
        .map_err(|e| e.under_key(Key::FunctionCall))
}

/// An assistant's `refusal` / `reasoning_content` / `reasoning`: a block
/// when present and not null (even `""`).
fn text_extra<S: Source>(
    src: &mut S,
    message: &S::V,
    key: Key,
    kind: BlockKind,
) -> Read<Option<Block<S::T>>> {
    let Some(value) = get_present(src, Some(message), key)? else {
        return Ok(None);
    };
    if src.shape(&value) != Shape::Str {
        return Err(wrong_type(src, &value, key, "a string"));
    }
    let text = if keeps(src, kind) {
        Some(src.keep(&value))
    } else {
        None
    };
    Ok(Some(Block::text(kind, text)))
}

fn assistant_extras<S: Source, K: Sink<S::T>>(
    src: &mut S,
    out: &mut K,
    message: &S::V,
) -> Read<()> {
    if src.mode() != Mode::Count {
        if let Some(b) = text_extra(src, message, Key::Refusal, BlockKind::Refusal)? {
            out.add(b)?;
        }
        let mut reasoning = text_extra(src, message, Key::ReasoningContent, BlockKind::Reasoning)?;
        if reasoning.is_none() {
            reasoning = text_extra(src, message, Key::Reasoning, BlockKind::Reasoning)?;
        }
        if let Some(b) = reasoning {
            out.add(b)?;
        }
    }
    if let Some(calls) = optional_list(src, message, Key::ToolCalls)? {
        for_each_item(src, &calls, Key::ToolCalls, tool_call, |b| out.add(b))?;
    }
    if let Some(b) = legacy_function_call(src, message)? {
        out.add(b)?;
    }
    Ok(())
}

/// One message of `messages`, read into `out`.
pub fn decode_message<S: Source, K: Sink<S::T>>(
    src: &mut S,
    out: &mut K,
    message: &S::V,
) -> Read<()> {
    let role = message_role(src, message, ROLES, ROLE_NAMES)?;
    let full = src.mode() == Mode::Full;
    match role {
        ChatRole::Instruction(r) => {
            let blocks = if full {
                let content = get_present(src, Some(message), Key::Content)?;
                collect_blocks(src, content, Key::Content, decode_part)?
            } else {
                Vec::new()
            };
            out.instruction(r, blocks);
            Ok(())
        }
        ChatRole::Tool | ChatRole::Function => {
            // One tool_result holding the message's content: only FULL reads it.
            let nested = if full {
                let content = get_present(src, Some(message), Key::Content)?;
                collect_blocks(src, content, Key::Content, decode_part)?
            } else {
                Vec::new()
            };
            let call_id = if src.mode() == Mode::Count {
                None
            } else {
                let key = if role == ChatRole::Function {
                    Key::Name
                } else {
                    Key::ToolCallId
                };
                keep_str(src, message, key)?
            };
            out.message(Role::Tool, Block::tool_result(call_id, nested))
        }
        ChatRole::Message(r) => {
            out.begin(r, false);
            if r == Role::User || src.mode() != Mode::Count {
                add_content(src, out, message, Key::Content, decode_part)?;
            }
            if r == Role::Assistant {
                assistant_extras(src, out, message)?;
            }
            out.end()
        }
    }
}

/// What a format decoder found at the top level.
pub struct Top {
    pub walk: WalkEnd,
    pub tools: usize,
    pub tool_choice: Option<ToolChoice>,
    pub history_available: bool,
}

/// A top-level `system` is Anthropic's, never Chat's (`auto` reads it so
/// too): decoding such a body as Chat would quietly misread its blocks.
fn not_anthropic<S: Source>(src: &mut S, top: Option<&S::V>) -> Read<()> {
    let Some(top) = top else { return Ok(()) };
    if src.get(top, Key::System)?.is_some() {
        return Err(Failure::at_key(
            Key::System,
            "not a Chat Completions field: this looks like an Anthropic Messages request; \
             use format \"anthropic\" or \"auto\"",
        ));
    }
    Ok(())
}

/// The request, its messages read by `message` (`decode_message` or a
/// reader that gives the same result).
pub fn decode<S, K, D>(src: &mut S, out: &mut K, request: &S::V, message: D) -> Read<Top>
where
    S: Source,
    K: Sink<S::T>,
    D: FnMut(&mut S, &mut K, &S::V) -> Read<()>,
{
    let (top, messages) = request_messages(src, request)?;
    not_anthropic(src, top.as_ref())?;
    let name = if top.is_some() { "messages" } else { "" };
    let walk = walk_back(src, out, &messages, name, message)?;
    let (tools, choice) = tools_and_choice(src, top.as_ref(), &[Key::Tools, Key::Functions])?;
    Ok(Top {
        walk,
        tools,
        tool_choice: choice,
        history_available: true,
    })
}
