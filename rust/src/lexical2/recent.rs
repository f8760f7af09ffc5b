//! The newest prior turn (§3.5): the act of the assistant's last segment and
//! the overlap of the live content terms with the turn's stemmed terms.

use super::lexicon::CLOSURE_WINDOW;
use super::lexicons;
use crate::charclass::{self, SPACE};
use crate::phrases::{longest_match, tokens_of_view_with, Tokens};

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

/// The last `CLOSURE_WINDOW` characters of the final sentence of `text`
/// (already without trailing white space): only the end is read.
fn final_sentence(text: &str) -> &str {
    let body = text.trim_end_matches(|c: char| is_terminator(c) || is_space(c));
    let first = body
        .char_indices()
        .rev()
        .nth(CLOSURE_WINDOW - 1)
        .map_or(0, |(i, _)| i);
    let mut start = first;
    let mut chars = body[first..].char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let Some(&(next_at, next)) = chars.peek() else {
            break;
        };
        let ascii_end = matches!(c, '.' | '!' | '?') && is_space(next);
        if ascii_end || matches!(c, '\u{3002}' | '\u{ff01}' | '\u{ff1f}') {
            start = first + next_at;
        }
    }
    &body[start..]
}

/// The act of one assistant segment (§3.5).
pub fn recent_act(text: &str) -> Act {
    let trimmed = text.trim_end_matches(is_space);
    let question = trimmed.ends_with(['?', '\u{ff1f}']);
    let lex = lexicons();
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
