//! Anthropic Messages → the neutral model (mirrors
//! `python/turnsignal/_reference/request/anthropic.py`): messages are cut at every
//! `tool_result` block, and a message's blocks are read from its end.

use super::model::{Block, BlockKind, Role};
use super::openai::{text_part, Top};
use super::read::{
    block_type, collect_blocks, get_present, keep_str, message_role, nested_blocks,
    request_messages, require_map, text_block, tools_and_choice, walk_back, which,
};
use super::read::{kind_in, wrong_type, CONTENT};
use super::sink::Sink;
use super::source::{Key, Mode, Read, Seg, Shape, Source};

pub const ROLES: &[(&str, Role); 3] = &[
    ("user", Role::User),
    ("assistant", Role::Assistant),
    ("system", Role::System),
];
const ROLE_NAMES: &str = "assistant, system, user";

pub const BLOCK_TYPES: &[&str] = &[
    "text",
    "thinking",
    "redacted_thinking",
    "image",
    "document",
    "tool_use",
    "tool_result",
];
/// The kind each of `BLOCK_TYPES` decodes to (a cargo test holds
/// `decode_block` to it): what the facts' plain reader counts by.
pub const BLOCK_KINDS: [BlockKind; 7] = [
    BlockKind::Text,
    BlockKind::Reasoning,
    BlockKind::Reasoning,
    BlockKind::Image,
    BlockKind::File,
    BlockKind::ToolCall,
    BlockKind::ToolResult,
];

/// The kind a block of type `name` decodes to.
#[inline(always)]
pub fn block_kind(name: &str) -> BlockKind {
    kind_in(BLOCK_TYPES, &BLOCK_KINDS, name)
}

/// The JSON text of `input` (FULL only); `"{}"` when it is missing, null or
/// an empty mapping, so a decoded tool call always has arguments.
fn tool_input<S: Source>(src: &mut S, block: &S::V) -> Read<Option<S::T>> {
    if src.mode() != Mode::Full {
        return Ok(None);
    }
    let Some(value) = get_present(src, Some(block), Key::Input)? else {
        return Ok(Some(src.keep_literal("{}")));
    };
    let read = |src: &mut S| -> Read<S::T> {
        if src.shape(&value) == Shape::Map && src.len(&value)? == 0 {
            return Ok(src.keep_literal("{}"));
        }
        src.tool_input_json(&value)
    };
    read(src).map(Some).map_err(|e| e.under_key(Key::Input))
}

fn result_content<S: Source>(src: &mut S, block: &S::V, depth: usize) -> Read<Vec<Block<S::T>>> {
    if src.mode() != Mode::Full {
        return Ok(Vec::new());
    }
    let Some(content) = get_present(src, Some(block), Key::Content)? else {
        return Ok(Vec::new());
    };
    match src.shape(&content) {
        Shape::Str => Ok(vec![text_block(src, &content)]),
        Shape::List => nested_blocks(src, content, depth, decode_block),
        _ => Err(wrong_type(src, &content, Key::Content, CONTENT)),
    }
}

fn decode_block<S: Source>(src: &mut S, block: &S::V, depth: usize) -> Read<Block<S::T>> {
    require_map(src, block)?;
    let Some(kind) = block_type(src, block)? else {
        return Ok(Block::of(BlockKind::Other));
    };
    let count = src.mode() == Mode::Count;
    Ok(match which(src, &kind, BLOCK_TYPES) {
        Some(0) => text_part(src, block, Key::Text, BlockKind::Text)?,
        Some(1) => text_part(src, block, Key::Thinking, BlockKind::Reasoning)?,
        // The redacted payload is encrypted: there is no text to keep.
        Some(2) => Block::of(BlockKind::Reasoning),
        Some(3) => Block::of(BlockKind::Image),
        Some(4) => Block::of(BlockKind::File),
        Some(5) if count => Block::tool_call(None, None, None, true),
        Some(5) => {
            let id = keep_str(src, block, Key::Id)?;
            let name = keep_str(src, block, Key::Name)?;
            // A tool_use always has arguments ("{}" at least).
            Block::tool_call(id, name, tool_input(src, block)?, true)
        }
        Some(6) if count => Block::tool_result(None, Vec::new()),
        Some(6) => {
            let call_id = keep_str(src, block, Key::ToolUseId)?;
            Block::tool_result(call_id, result_content(src, block, depth)?)
        }
        _ => Block::of(BlockKind::Other),
    })
}

/// Blocks from the last: each tool result is its own `tool` message, the
/// pieces between keep `role`; empty pieces produce no message.
fn split_backwards<S: Source, K: Sink<S::T>>(
    src: &mut S,
    out: &mut K,
    role: Role,
    content: &S::V,
) -> Read<()> {
    let mut index = src.len(content).map_err(|e| e.under_key(Key::Content))?;
    let mut piece_open = false;
    while index > 0 {
        index -= 1;
        let item = src
            .item(content, index)
            .map_err(|e| e.under_key(Key::Content))?;
        let block = decode_block(src, &item, 0)
            .map_err(|e| e.under(Seg::Index(index)).under_key(Key::Content))?;
        if block.kind == BlockKind::ToolResult {
            if piece_open {
                piece_open = false;
                out.end()?;
            }
            out.begin(Role::Tool, false);
            out.add(block)?;
            out.end()?;
        } else {
            if !piece_open {
                piece_open = true;
                out.begin(role, true);
            }
            out.add(block)?;
        }
    }
    if piece_open {
        out.end()?;
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
    let Some(content) = get_present(src, Some(message), Key::Content)? else {
        return Ok(());
    };
    match src.shape(&content) {
        Shape::Str => {
            let block = text_block(src, &content);
            out.message(role, block)
        }
        Shape::List => split_backwards(src, out, role, &content),
        _ => Err(wrong_type(src, &content, Key::Content, CONTENT)),
    }
}

/// The top-level `system` (read before the messages): `None` when missing
/// or null; its blocks in FULL decoding, else only its presence.
fn system<S: Source>(src: &mut S, top: Option<&S::V>) -> Read<Option<Vec<Block<S::T>>>> {
    let Some(value) = get_present(src, top, Key::System)? else {
        return Ok(None);
    };
    if src.mode() == Mode::Full {
        let blocks = collect_blocks(src, Some(value), Key::System, |src, b| {
            decode_block(src, b, 0)
        })?;
        return Ok(Some(blocks));
    }
    match src.shape(&value) {
        Shape::Str | Shape::List => Ok(Some(Vec::new())),
        _ => Err(wrong_type(src, &value, Key::System, CONTENT)),
    }
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
    let name = if top.is_some() { "messages" } else { "" };
    let system = if src.mode() == Mode::Lean {
        None
    } else {
        system(src, top.as_ref())?
    };
    let walk = walk_back(src, out, &messages, name, message)?;
    if let Some(blocks) = system {
        // The walk's instructions are newest first: the system comes first.
        out.instruction(Role::System, blocks);
    }
    let (tools, choice) = tools_and_choice(src, top.as_ref(), &[Key::Tools])?;
    Ok(Top {
        walk,
        tools,
        tool_choice: choice,
        history_available: true,
    })
}
