//! Request bodies → the neutral model, read straight from the caller's
//! values (spec wire-formats.md), and what the evaluators need of them.
//!
//! The decoders mirror the reference ones in `python/turnsignal/_reference/request/` read
//! for read: the same lookups in the same order, counted against the same
//! budget, with the same errors and paths. They are generic over a `Source`
//! (the Python objects, through the binding; a JSON value in the tests) and
//! a `Sink` (a `Collector` that keeps messages, or a `Counter` of the
//! conversation facts). Three modes choose what is read (`Mode`): FULL for
//! `turnsignal.decode()`, LEAN for the topic-continuity evaluator (no tool
//! input, no tool result content, no instruction content), COUNT for the
//! facts (roles and block types, no text).

pub mod anthropic;
pub mod detect;
pub mod model;
pub mod neutral;
pub mod openai;
pub mod read;
pub mod responses;
pub mod sink;
pub mod source;
#[cfg(test)]
mod tests;

pub use detect::Format;
pub use model::{Block, BlockKind, Role};
pub use read::{ToolChoice, WalkEnd};
pub use sink::{Collector, Counter, MessageSpan, Sink};
pub use source::{Failure, Key, Mode, Read, Seg, Shape, Source, WireError};

/// What a decode call found, beside what went to its sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub format: Format,
    pub walk: WalkEnd,
    /// Tool definitions (FULL and COUNT).
    pub tools: usize,
    /// The kind of `tool_choice` (FULL and COUNT).
    pub tool_choice: Option<ToolChoice>,
    /// False when the history lives on the server (Responses) or the neutral
    /// request says so.
    pub history_available: bool,
}

/// The tail caps of a decode call (`None`: no cap).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    pub messages: Option<usize>,
    pub blocks: Option<usize>,
}

/// The evaluator's caps (spec §5.1).
pub const EVALUATOR_CAPS: Caps = Caps {
    messages: Some(model::MAX_SCAN_MESSAGES),
    blocks: Some(model::MAX_CONTENT_BLOCKS),
};

/// Decode `request` written in `format` (`None`: detect it) into `out`.
/// `Failure::Budget` here means the budget ran out outside the walk (which
/// names the item it was reading otherwise).
pub fn decode<S: Source, K: Sink<S::T>>(
    src: &mut S,
    out: &mut K,
    request: &S::V,
    format: Option<Format>,
) -> Read<Decoded> {
    decode_with(src, out, request, format, &mut Generic)
}

/// How the messages of a Chat Completions or an Anthropic request are read.
/// A reader must read what the format's `decode_message` reads, in the same
/// order, counted the same way, and give the sink the same calls: the
/// binding's facts use one that reads plain messages faster and falls back
/// on `decode_message` for the others.
pub trait MessageReader<S: Source, K: Sink<S::T>> {
    fn chat(&mut self, src: &mut S, out: &mut K, message: &S::V) -> Read<()> {
        openai::decode_message(src, out, message)
    }

    fn anthropic(&mut self, src: &mut S, out: &mut K, message: &S::V) -> Read<()> {
        anthropic::decode_message(src, out, message)
    }
}

/// The format decoders' own reading of every message.
pub struct Generic;

impl<S: Source, K: Sink<S::T>> MessageReader<S, K> for Generic {}

/// `decode`, with messages read by `reader`.
pub fn decode_with<S, K, R>(
    src: &mut S,
    out: &mut K,
    request: &S::V,
    format: Option<Format>,
    reader: &mut R,
) -> Read<Decoded>
where
    S: Source,
    K: Sink<S::T>,
    R: MessageReader<S, K>,
{
    let format = match format {
        Some(f) => f,
        None => detect::detect(src, request)?,
    };
    let top = match format {
        Format::Openai => {
            let chat = |src: &mut S, out: &mut K, m: &S::V| reader.chat(src, out, m);
            openai::decode(src, out, request, chat)?
        }
        Format::Anthropic => {
            let message = |src: &mut S, out: &mut K, m: &S::V| reader.anthropic(src, out, m);
            anthropic::decode(src, out, request, message)?
        }
        Format::Responses => responses::decode(src, out, request)?,
        Format::Neutral => neutral::decode(src, out, request)?,
    };
    Ok(Decoded {
        format,
        walk: top.walk,
        tools: top.tools,
        tool_choice: top.tool_choice,
        history_available: top.history_available && !out.saw_item_reference(),
    })
}
