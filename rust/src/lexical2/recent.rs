//! The newest prior turn (§3.5): the act of the assistant's last segment and
//! the overlap of the live content terms with the turn's stemmed terms.

use super::lexicons2;
use super::live::LiveAnalysis2;
use super::stem::stem_with;
use crate::charclass::{self, SPACE};
use crate::fused::{scan_segment, Scratch};
use crate::phrases::{longest_match, tokens_of_view_with, Tokens};
use crate::score::containment;

/// The act of the assistant's last segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Act {
    /// No kept prior turn, or it has no assistant segment.
    None = 0,
    Statement = 1,
    Question = 2,
    Closure = 3,
}

fn is_space(c: char) -> bool {
    charclass::class(c) & SPACE != 0
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}')
}

/// The final sentence of `text` (already without trailing white space).
fn final_sentence(text: &str) -> &str {
    let body = text.trim_end_matches(|c: char| is_terminator(c) || is_space(c));
    let mut start = 0;
    let mut chars = body.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let Some(&(next_at, next)) = chars.peek() else {
            break;
        };
        let ascii_end = matches!(c, '.' | '!' | '?') && is_space(next);
        if ascii_end || matches!(c, '\u{3002}' | '\u{ff01}' | '\u{ff1f}') {
            start = next_at;
        }
    }
    &body[start..]
}

/// The act of one assistant segment (§3.5).
pub fn recent_act(text: &str) -> Act {
    let trimmed = text.trim_end_matches(is_space);
    let question = trimmed.ends_with(['?', '\u{ff1f}']);
    let lex = lexicons2();
    let mut toks = Tokens::default();
    tokens_of_view_with(final_sentence(trimmed), false, &mut toks, lex);
    let t = &toks.toks[..];
    if (0..t.len()).any(|i| longest_match(t, i, &lex.closure) > 0) {
        Act::Closure
    } else if question {
        Act::Question
    } else {
        Act::Statement
    }
}

/// (act, overlap) of the newest prior turn: `segments` are all its segments,
/// `last_assistant` its last assistant segment (`None`: act `None`).
pub fn recent_cues<S: AsRef<str>>(
    live: &LiveAnalysis2,
    segments: &[S],
    last_assistant: Option<&str>,
) -> (Act, f64) {
    let act = last_assistant.map_or(Act::None, recent_act);
    if live.content.is_empty() {
        return (act, 0.0);
    }
    let mut seen = vec![false; live.content.len()];
    let mut found = 0usize;
    let (mut scratch, mut buf) = (Scratch::default(), String::new());
    for segment in segments {
        scan_segment(
            segment.as_ref(),
            &mut scratch,
            // A stem starts with its word's first byte.
            |first, _| live.content_first[first as usize],
            |term| {
                if let Some(i) = live.content.find(stem_with(term, &mut buf)) {
                    if !seen[i] {
                        seen[i] = true;
                        found += 1;
                    }
                }
            },
            None,
        );
    }
    (act, containment(found, live.content.len()))
}
