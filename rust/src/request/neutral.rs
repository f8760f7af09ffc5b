//! The neutral format itself (mirrors `python/turnsignal/_reference/request/neutral.py`).

use super::model::{Block, BlockKind, Role};
use super::openai::{arguments_block, text_part, Top};
use super::read::wrong_type;
use super::read::{
    add_content, block_type, get_present, get_str, keep_str, message_role, nested_blocks,
    request_messages, require_list, require_map, tools_and_choice, walk_back, which,
};
use super::sink::Sink;
use super::source::{Key, Mode, Read, Source};

const ROLES: &[(&str, Role); 5] = &[
    ("system", Role::System),
    ("developer", Role::Developer),
    ("user", Role::User),
    ("assistant", Role::Assistant),
    ("tool", Role::Tool),
];
const ROLE_NAMES: &str = "assistant, developer, system, tool, user";

const BLOCK_TYPES: &[(&str, BlockKind)] = &[
    ("text", BlockKind::Text),
    ("refusal", BlockKind::Refusal),
    ("reasoning", BlockKind::Reasoning),
    ("image", BlockKind::Image),
    ("audio", BlockKind::Audio),
    ("video", BlockKind::Video),
    ("file", BlockKind::File),
    ("tool_call", BlockKind::ToolCall),
    ("tool_result", BlockKind::ToolResult),
];
const BLOCK_NAMES: &[&str] = &[
    "text",
    "refusal",
    "reasoning",
    "image",
    "audio",
    "video",
    "file",
    "tool_call",
    "tool_result",
];

fn nested<S: Source>(src: &mut S, block: &S::V, depth: usize) -> Read<Vec<Block<S::T>>> {
    if src.mode() != Mode::Full {
        return Ok(Vec::new());
    }
    let Some(content) = get_present(src, Some(block), Key::Content)? else {
        return Ok(Vec::new());
    };
    require_list(src, &content).map_err(|e| e.under_key(Key::Content))?;
    nested_blocks(src, content, depth, decode_block)
}

fn decode_block<S: Source>(src: &mut S, block: &S::V, depth: usize) -> Read<Block<S::T>> {
    require_map(src, block)?;
    let Some(kind) = block_type(src, block)? else {
        return Ok(Block::of(BlockKind::Other));
    };
    let Some(index) = which(src, &kind, BLOCK_NAMES) else {
        return Ok(Block::of(BlockKind::Other));
    };
    let kind = BLOCK_TYPES[index].1;
    let count = src.mode() == Mode::Count;
    Ok(match kind {
        BlockKind::Text | BlockKind::Refusal | BlockKind::Reasoning => {
            text_part(src, block, Key::Text, kind)?
        }
        BlockKind::ToolCall if count => Block::tool_call(None, None, None, false),
        BlockKind::ToolCall => {
            let id = keep_str(src, block, Key::Id)?;
            let name = keep_str(src, block, Key::Name)?;
            let arguments = get_str(src, block, Key::Arguments)?;
            arguments_block(src, id, name, arguments)
        }
        BlockKind::ToolResult if count => Block::tool_result(None, Vec::new()),
        BlockKind::ToolResult => {
            let call_id = keep_str(src, block, Key::CallId)?;
            Block::tool_result(call_id, nested(src, block, depth)?)
        }
        media => Block::of(media),
    })
}

fn decode_message<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, message: &S::V) -> Read<()> {
    let role = message_role(src, message, ROLES, ROLE_NAMES)?;
    out.begin(role, false);
    add_content(src, out, message, Key::Content, |src, b| {
        decode_block(src, b, 0)
    })?;
    out.end()
}

/// The conformance vectors carry this flag next to `messages`.
fn history_available<S: Source>(src: &mut S, top: Option<&S::V>) -> Read<bool> {
    let Some(value) = get_present(src, top, Key::HistoryAvailable)? else {
        return Ok(true);
    };
    match src.as_bool(&value) {
        Some(b) => Ok(b),
        None => Err(wrong_type(src, &value, Key::HistoryAvailable, "a bool")),
    }
}

pub fn decode<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, request: &S::V) -> Read<Top> {
    let (top, messages) = request_messages(src, request)?;
    let name = if top.is_some() { "messages" } else { "" };
    let walk = walk_back(src, out, &messages, name, decode_message)?;
    let available = if src.mode() == Mode::Count {
        true
    } else {
        history_available(src, top.as_ref())?
    };
    let (tools, choice) = tools_and_choice(src, top.as_ref(), &[Key::Tools])?;
    Ok(Top {
        walk,
        tools,
        tool_choice: choice,
        history_available: available,
    })
}
