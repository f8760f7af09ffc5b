//! `format="auto"` (mirrors `python/turnsignal/_reference/request/detect.py`): bounded like
//! the evaluator, it looks at the newest 512 messages and their first 4,096
//! blocks only, and never fails on a malformed request.

use super::model::{MAX_CONTENT_BLOCKS, MAX_SCAN_MESSAGES};
use super::read::which;
use super::source::{Failure, Key, Read, Shape, Source};

/// A concrete wire format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Openai,
    Anthropic,
    Responses,
    Neutral,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Openai => "openai",
            Format::Anthropic => "anthropic",
            Format::Responses => "responses",
            Format::Neutral => "neutral",
        }
    }

    /// `None` for `"auto"` (and anything unknown: the caller checks names).
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "openai" => Some(Format::Openai),
            "anthropic" => Some(Format::Anthropic),
            "responses" => Some(Format::Responses),
            "neutral" => Some(Format::Neutral),
            _ => None,
        }
    }
}

const ANTHROPIC_BLOCKS: &[&str] = &[
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "document",
    "image",
];

fn is_anthropic_block<S: Source>(src: &mut S, block: &S::V) -> Read<bool> {
    if src.shape(block) != Shape::Map {
        return Ok(false);
    }
    let Some(kind) = src.get(block, Key::Type)? else {
        return Ok(false);
    };
    if src.shape(&kind) != Shape::Str {
        return Ok(false);
    }
    match which(src, &kind, ANTHROPIC_BLOCKS) {
        Some(5) => Ok(src.get(block, Key::Source)?.is_some()), // an image with a source
        Some(_) => Ok(true),
        None => Ok(false),
    }
}

/// Whether message `message` (a mapping) holds an Anthropic-only block among
/// the first `room` blocks; `blocks` counts the blocks looked at.
fn message_is_anthropic<S: Source>(src: &mut S, message: &S::V, blocks: &mut usize) -> Read<bool> {
    let Some(content) = src.get(message, Key::Content)? else {
        return Ok(false);
    };
    if src.shape(&content) != Shape::List {
        return Ok(false);
    }
    let count = src.len(&content)?.min(MAX_CONTENT_BLOCKS - *blocks);
    for position in 0..count {
        *blocks += 1;
        let block = src.item(&content, position)?;
        if is_anthropic_block(src, &block)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn has_anthropic_block<S: Source>(src: &mut S, messages: &S::V) -> Read<bool> {
    let mut index = src.len(messages)?;
    let (mut seen, mut blocks) = (0usize, 0usize);
    while index > 0 && seen < MAX_SCAN_MESSAGES && blocks < MAX_CONTENT_BLOCKS {
        index -= 1;
        seen += 1;
        let message = src.item(messages, index)?;
        if src.shape(&message) != Shape::Map {
            continue;
        }
        match message_is_anthropic(src, &message, &mut blocks) {
            Ok(true) => return Ok(true),
            Ok(false) | Err(Failure::Wire(_)) => {} // unreadable: the decoder reports it
            Err(other) => return Err(other),
        }
    }
    Ok(false)
}

fn detect_inner<S: Source>(src: &mut S, request: &S::V) -> Read<Format> {
    if src.shape(request) != Shape::Map {
        return Ok(Format::Openai); // a bare list; anything else is the decoder's to report
    }
    if src.get(request, Key::Input)?.is_some() && src.get(request, Key::Messages)?.is_none() {
        return Ok(Format::Responses);
    }
    if src.get(request, Key::System)?.is_some() {
        return Ok(Format::Anthropic);
    }
    if let Some(messages) = src.get(request, Key::Messages)? {
        if src.shape(&messages) == Shape::List && has_anthropic_block(src, &messages)? {
            return Ok(Format::Anthropic);
        }
    }
    Ok(Format::Openai)
}

/// The concrete format of `request`: never a structural error (what cannot be
/// read is left to the decoder), but the source's own stops pass.
pub fn detect<S: Source>(src: &mut S, request: &S::V) -> Read<Format> {
    match detect_inner(src, request) {
        Err(Failure::Wire(_)) => Ok(Format::Openai),
        other => other,
    }
}
