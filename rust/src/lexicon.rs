//! The lexical.1 lexicons and constants (spec §10). Any change bumps
//! `evaluator_version`; the Python reference keeps its own copy
//! (`python/turnsignal/_reference/lexicon.py`).

/// Strong reference phrases.
pub const STRONG: &[&str] = &[
    "above",
    "earlier",
    "previous",
    "previously",
    "as before",
    "like before",
    "same as",
    "as you said",
    "you said",
    "you mentioned",
    "you suggested",
    "your answer",
    "your code",
    "your example",
    "your suggestion",
    "that function",
    "that file",
    "that code",
    "that one",
    "this one",
    "the last one",
    "instead",
    "go back to",
    "as mentioned",
    "mentioned earlier",
];
/// Weak reference tokens.
pub const WEAK: &[&str] = &[
    "also", "now", "then", "and", "but", "next", "so", "it", "its", "this", "that", "these",
    "those", "they", "them",
];
/// Acknowledgement phrases.
pub const ACK: &[&str] = &[
    "thanks",
    "thank you",
    "thx",
    "ok",
    "okay",
    "great",
    "good",
    "done",
    "perfect",
    "got it",
    "nice",
    "cool",
    "sounds good",
    "awesome",
    "yes",
    "yep",
    "sure",
];
/// Change-marker phrases.
pub const CHANGE: &[&str] = &[
    "new question",
    "unrelated",
    "different topic",
    "different question",
    "change of topic",
    "changing topics",
    "switching topics",
    "switch topics",
    "on another note",
    "separate question",
    "completely different",
    "new topic",
    "something else",
];
/// Negation tokens (ASCII apostrophes only).
pub const NEGATION: &[&str] = &[
    "not", "no", "never", "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't",
    "without", "hardly", "nor",
];

/// Weak-reference window (§10).
pub const WEAK_WINDOW: usize = 3;
/// Change leading window (§10).
pub const CHANGE_WINDOW: usize = 8;
/// Negation look-back (§10).
pub const NEGATION_LOOKBACK: usize = 3;
/// Acknowledgement at most this many tokens (§10).
pub const ACK_MAX_TOKENS: usize = 4;

/// Distinct entity values per segment before it is capped.
pub const ENTITY_CAP: usize = 1024;
/// Longest entity value, in bytes.
pub const ENTITY_MAX_BYTES: usize = 128;

/// The stopwords of §10.
#[inline]
pub fn is_stopword(t: &str) -> bool {
    matches!(
        t,
        "a" | "an"
            | "the"
            | "and"
            | "or"
            | "but"
            | "if"
            | "then"
            | "so"
            | "to"
            | "of"
            | "in"
            | "on"
            | "at"
            | "by"
            | "for"
            | "with"
            | "from"
            | "as"
            | "is"
            | "are"
            | "was"
            | "were"
            | "be"
            | "been"
            | "it"
            | "its"
            | "this"
            | "that"
            | "these"
            | "those"
            | "i"
            | "you"
            | "we"
            | "they"
            | "he"
            | "she"
            | "me"
            | "my"
            | "your"
            | "our"
            | "their"
            | "do"
            | "does"
            | "did"
            | "can"
            | "could"
            | "would"
            | "should"
            | "will"
            | "just"
            | "please"
            | "how"
            | "what"
            | "why"
            | "when"
            | "where"
            | "which"
            | "who"
            | "not"
            | "no"
    )
}
