//! OpenAI Responses → the neutral model (mirrors
//! `python/turnsignal/_reference/request/responses.py`).

use super::model::{Block, BlockKind, Role};
use super::openai::{arguments_block, keeps, refusal_part, text_part, Top};
use super::read::{
    add_content, block_type, collect_blocks, for_each_item, get_present, get_str, keep_str,
    non_empty, optional_list, require_map, role_of, text_block, tools_and_choice, walk_back, which,
    WalkEnd, COMPLETE,
};
use super::read::{wrong_type, CONTENT};
use super::sink::Sink;
use super::source::{Failure, Key, Mode, Read, Shape, Source};

#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemRole {
    Instruction(Role),
    Message(Role),
}

const ROLES: &[(&str, ItemRole); 4] = &[
    ("system", ItemRole::Instruction(Role::System)),
    ("developer", ItemRole::Instruction(Role::Developer)),
    ("user", ItemRole::Message(Role::User)),
    ("assistant", ItemRole::Message(Role::Assistant)),
];
const ROLE_NAMES: &str = "assistant, developer, system, user";

const PART_TYPES: &[&str] = &[
    "input_text",
    "output_text",
    "input_image",
    "input_file",
    "input_audio",
    "refusal",
];

const ITEM_TYPES: &[&str] = &[
    "message",
    "function_call",
    "custom_tool_call",
    "function_call_output",
    "custom_tool_call_output",
    "reasoning",
    "item_reference",
];

fn decode_part<S: Source>(src: &mut S, part: &S::V) -> Read<Block<S::T>> {
    require_map(src, part)?;
    let Some(kind) = block_type(src, part)? else {
        return Ok(Block::of(BlockKind::Other));
    };
    Ok(match which(src, &kind, PART_TYPES) {
        Some(0 | 1) => text_part(src, part, Key::Text, BlockKind::Text)?,
        Some(2) => Block::of(BlockKind::Image),
        Some(3) => Block::of(BlockKind::File),
        Some(4) => Block::of(BlockKind::Audio),
        Some(5) => refusal_part(src, part)?,
        _ => Block::of(BlockKind::Other),
    })
}

fn message<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, item: &S::V) -> Read<()> {
    match role_of(src, item, ROLES, ROLE_NAMES)? {
        ItemRole::Instruction(role) => {
            let blocks = if src.mode() == Mode::Full {
                let content = get_present(src, Some(item), Key::Content)?;
                collect_blocks(src, content, Key::Content, decode_part)?
            } else {
                Vec::new()
            };
            out.instruction(role, blocks);
            Ok(())
        }
        ItemRole::Message(role) => {
            out.begin(role, false);
            if role == Role::User || src.mode() != Mode::Count {
                add_content(src, out, item, Key::Content, decode_part)?;
            }
            out.end()
        }
    }
}

fn call<S: Source, K: Sink<S::T>>(
    src: &mut S,
    out: &mut K,
    item: &S::V,
    arguments: Key,
) -> Read<()> {
    if src.mode() == Mode::Count {
        return out.message(Role::Assistant, Block::tool_call(None, None, None, false));
    }
    let mut call_id = get_str(src, item, Key::CallId)?;
    if !non_empty(src, &call_id) {
        call_id = get_str(src, item, Key::Id)?;
    }
    let id = call_id.as_ref().map(|v| src.keep(v));
    let name = keep_str(src, item, Key::Name)?;
    let args = get_str(src, item, arguments)?;
    let block = arguments_block(src, id, name, args);
    out.message(Role::Assistant, block)
}

fn call_output<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, item: &S::V) -> Read<()> {
    // A string output is one text block, a list of input parts decodes part
    // by part: exactly the rules of message content. Only FULL reads it.
    let content = if src.mode() == Mode::Full {
        let output = get_present(src, Some(item), Key::Output)?;
        collect_blocks(src, output, Key::Output, decode_part)?
    } else {
        Vec::new()
    };
    let call_id = if src.mode() == Mode::Count {
        None
    } else {
        keep_str(src, item, Key::CallId)?
    };
    out.message(Role::Tool, Block::tool_result(call_id, content))
}

fn reasoning_part<S: Source>(src: &mut S, part: &S::V) -> Read<Block<S::T>> {
    if src.mode() == Mode::Count {
        return Ok(Block::of(BlockKind::Reasoning)); // each part is read, none looked into
    }
    require_map(src, part)?;
    let text = get_str(src, part, Key::Text)?;
    let kept = match text {
        Some(v) if keeps(src, BlockKind::Reasoning) => Some(src.keep(&v)),
        _ => None,
    };
    Ok(Block::text(BlockKind::Reasoning, kept))
}

fn reasoning<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, item: &S::V) -> Read<()> {
    let mut opened = false;
    for key in [Key::Summary, Key::Content] {
        let Some(parts) = optional_list(src, item, key)? else {
            continue;
        };
        for_each_item(src, &parts, key, reasoning_part, |b| {
            if !opened {
                opened = true;
                out.begin(Role::Assistant, false);
            }
            out.add(b)
        })?;
    }
    if opened {
        out.end()?; // no part: the item is dropped
    }
    Ok(())
}

fn decode_item<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, item: &S::V) -> Read<()> {
    require_map(src, item)?;
    let Some(kind) = get_present(src, Some(item), Key::Type)? else {
        return message(src, out, item);
    };
    let found = if src.shape(&kind) == Shape::Str {
        which(src, &kind, ITEM_TYPES)
    } else {
        None
    };
    match found {
        Some(0) => message(src, out, item),
        Some(1) => call(src, out, item, Key::Arguments),
        Some(2) => call(src, out, item, Key::Input),
        Some(3 | 4) => call_output(src, out, item),
        Some(5) => reasoning(src, out, item),
        Some(_) => {
            out.history_unavailable(); // item_reference: no message
            Ok(())
        }
        None => out.message(Role::Assistant, Block::of(BlockKind::Other)),
    }
}

fn instructions<S: Source, K: Sink<S::T>>(
    src: &mut S,
    out: &mut K,
    top: Option<&S::V>,
) -> Read<()> {
    let Some(value) = get_present(src, top, Key::Instructions)? else {
        return Ok(());
    };
    if src.shape(&value) != Shape::Str {
        return Err(wrong_type(src, &value, Key::Instructions, "a string"));
    }
    let blocks = if src.mode() == Mode::Full {
        vec![text_block(src, &value)]
    } else {
        Vec::new()
    };
    out.instruction(Role::Developer, blocks);
    Ok(())
}

/// `previous_response_id` or `conversation` is set.
/// Without `input` a Responses request must keep its history on the
/// server; a body with `messages` instead is another format, named in the
/// error (top-level keys only).
fn no_input<S: Source>(src: &mut S, top: &S::V) -> Read<()> {
    if server_history(src, Some(top))? {
        return Ok(());
    }
    if src.get(top, Key::Messages)?.is_none() {
        return Err(Failure::at_key(
            Key::Input,
            "missing (a Responses request has input, previous_response_id or conversation)",
        ));
    }
    let looks = if src.get(top, Key::System)?.is_some() {
        "an Anthropic Messages request (it has messages and system); use format \"anthropic\""
    } else {
        "an OpenAI Chat Completions request (it has messages); use format \"openai\""
    };
    Err(Failure::at_key(
        Key::Input,
        format!("missing: this looks like {looks} or \"auto\""),
    ))
}

fn server_history<S: Source>(src: &mut S, top: Option<&S::V>) -> Read<bool> {
    for key in [Key::PreviousResponseId, Key::Conversation] {
        if get_present(src, top, key)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

pub fn decode<S: Source, K: Sink<S::T>>(src: &mut S, out: &mut K, request: &S::V) -> Read<Top> {
    let (top, items) = if src.shape(request) == Shape::List {
        (None, Some(request.clone())) // lenient: a bare list is the `input` list
    } else {
        require_map(src, request)?;
        let raw = src.get(request, Key::Input)?;
        if raw.is_none() {
            no_input(src, request)?;
        }
        let input = raw.filter(|v| !src.is_null(v));
        if let Some(v) = &input {
            if !matches!(src.shape(v), Shape::Str | Shape::List) {
                return Err(wrong_type(src, v, Key::Input, CONTENT));
            }
        }
        (Some(request.clone()), input)
    };
    let name = if top.is_some() { "input" } else { "" };
    let server = src.mode() != Mode::Count && server_history(src, top.as_ref())?;
    let walk: WalkEnd = match items {
        None => COMPLETE,
        Some(v) if src.shape(&v) == Shape::Str => {
            // A string input is one user message.
            let block = text_block(src, &v);
            match out.message(Role::User, block) {
                Ok(()) | Err(Failure::Cap) => COMPLETE,
                Err(e) => return Err(e),
            }
        }
        Some(v) => walk_back(src, out, &v, name, decode_item)?,
    };
    if src.mode() != Mode::Lean {
        instructions(src, out, top.as_ref())?;
    }
    let (tools, choice) = tools_and_choice(src, top.as_ref(), &[Key::Tools])?;
    Ok(Top {
        walk,
        tools,
        tool_choice: choice,
        history_available: !server,
    })
}
