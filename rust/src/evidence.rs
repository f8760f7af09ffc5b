//! One turn's evidence under its byte budget (spec §5.4): the windowing of
//! its texts into segments, its tool names, and the upper bound of what it
//! could retain (mirrors `python/turnsignal/_reference/doc.py`).

use std::borrow::Cow;

use crate::charclass::{self, byte_prefix, SPACE};

pub const MAX_TOOL_NAMES_PER_TURN: usize = 16;
pub const MAX_TOOL_NAME_BYTES: usize = 64;

/// byte-suffix(text, n): the longest suffix of at most `n` bytes that starts
/// on a character boundary.
pub fn byte_suffix(text: &str, n: usize) -> &str {
    if text.len() <= n {
        return text;
    }
    let mut start = text.len() - n;
    while start < text.len() && !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Only white space (the spec's `space` class), or nothing.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(|c| charclass::class(c) & SPACE != 0)
}

/// A turn's retained text: whole texts while they fit, else head and tail.
#[derive(Debug, Default)]
pub struct Window<'a> {
    pub segments: Vec<&'a str>,
    pub budget: usize,
    pub truncated: bool,
}

impl<'a> Window<'a> {
    pub fn new(budget: usize) -> Self {
        Window {
            segments: Vec::new(),
            budget,
            truncated: false,
        }
    }

    /// Add `text` whole when it fits, else its head and tail (half the
    /// remaining budget each, cut on character boundaries) as two segments.
    pub fn add(&mut self, text: &'a str) {
        if text.is_empty() {
            return;
        }
        if text.len() <= self.budget {
            self.segments.push(text);
            self.budget -= text.len();
            return;
        }
        self.truncated = true;
        let half = self.budget / 2;
        if half == 0 {
            return;
        }
        let (head, tail) = (byte_prefix(text, half), byte_suffix(text, half));
        for piece in [head, tail] {
            if !piece.is_empty() {
                self.segments.push(piece);
            }
        }
        self.budget -= head.len() + tail.len();
    }

    /// The tool names of a turn (`names`: the first 16 tool calls' names;
    /// `calls`: how many tool calls the turn holds): each cut to 64 bytes,
    /// kept while it fits. Returns the names kept and whether the cap of 16
    /// was reached (exactly reaching it counts).
    pub fn tool_names<S: AsRef<str>>(
        &mut self,
        names: &'a [S],
        calls: usize,
    ) -> (Vec<&'a str>, bool) {
        let mut kept = Vec::new();
        for name in names.iter().take(MAX_TOOL_NAMES_PER_TURN) {
            let name = byte_prefix(name.as_ref(), MAX_TOOL_NAME_BYTES);
            if name.is_empty() {
                continue;
            }
            if name.len() > self.budget {
                self.truncated = true;
                continue;
            }
            kept.push(name);
            self.budget -= name.len();
        }
        (kept, calls >= MAX_TOOL_NAMES_PER_TURN)
    }
}

/// Bytes a prior turn could retain, from lengths alone (no text scan):
/// the user texts, the first 16 tool names (64 bytes each at most) and, when
/// assistant text is included, the assistant texts.
pub fn upper_bound<S: AsRef<str>, T: AsRef<str>, N: AsRef<str>>(
    user: &[S],
    assistant: &[T],
    names: &[N],
    max_turn_bytes: usize,
) -> usize {
    let mut total: usize = user.iter().map(|t| t.as_ref().len()).sum();
    total += names
        .iter()
        .take(MAX_TOOL_NAMES_PER_TURN)
        .map(|n| n.as_ref().len().min(MAX_TOOL_NAME_BYTES))
        .sum::<usize>();
    total += assistant.iter().map(|t| t.as_ref().len()).sum::<usize>();
    total.min(max_turn_bytes)
}

/// The live turn windowed: its segments, byte count, truncation and whether
/// it is media with no readable text.
pub struct LiveWindow<'a> {
    pub segments: Vec<&'a str>,
    pub byte_count: usize,
    pub truncated: bool,
    pub opaque_only: bool,
}

/// The live turn's texts (its first message's) under `max_turn_bytes`;
/// `has_opaque`: that message holds media.
pub fn live_window<'a>(
    texts: &[&'a str],
    has_opaque: bool,
    max_turn_bytes: usize,
) -> LiveWindow<'a> {
    let mut window = Window::new(max_turn_bytes);
    for t in texts {
        window.add(t);
    }
    let opaque_only =
        !window.truncated && has_opaque && window.segments.iter().all(|s| is_blank(s));
    LiveWindow {
        byte_count: max_turn_bytes - window.budget,
        truncated: window.truncated,
        segments: window.segments,
        opaque_only,
    }
}

/// A prior turn windowed: `(segments, how many are the user's, tool names
/// kept, byte count, truncated, tool cap reached)`.
pub struct PriorWindow<'a> {
    pub segments: Vec<&'a str>,
    pub user_segments: usize,
    pub names: Vec<&'a str>,
    pub byte_count: usize,
    pub truncated: bool,
    pub tool_cap: bool,
}

/// A prior turn's texts (the user's, then the assistant's) and tool names
/// (`names`: the first 16 calls' names; `calls`: how many calls the turn
/// holds) under `max_turn_bytes`.
pub fn prior_window<'a, N: AsRef<str>>(
    user: &[&'a str],
    assistant: &[&'a str],
    names: &'a [N],
    calls: usize,
    max_turn_bytes: usize,
) -> PriorWindow<'a> {
    let mut window = Window::new(max_turn_bytes);
    for t in user {
        window.add(t);
    }
    let user_segments = window.segments.len();
    for t in assistant {
        window.add(t);
    }
    let (kept, tool_cap) = window.tool_names(names, calls);
    PriorWindow {
        user_segments,
        names: kept,
        byte_count: max_turn_bytes - window.budget,
        truncated: window.truncated,
        tool_cap,
        segments: window.segments,
    }
}

/// Segments as `&str`, whatever holds them.
pub fn strs<'a>(texts: &'a [Cow<'a, str>]) -> Vec<&'a str> {
    texts.iter().map(|t| t.as_ref()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_texts_then_head_and_tail() {
        let mut w = Window::new(10);
        w.add("abcd");
        w.add("");
        w.add("0123456789");
        assert_eq!(w.segments, ["abcd", "012", "789"]);
        assert!(w.truncated);
        assert_eq!(w.budget, 0);
        let mut w = Window::new(1);
        w.add("xy");
        assert!(w.truncated && w.segments.is_empty() && w.budget == 1);
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        let mut w = Window::new(7);
        w.add("ééééé"); // 10 bytes: head 3 bytes → "é", tail 3 → "é"
        assert_eq!(w.segments, ["é", "é"]);
        assert_eq!(w.budget, 3);
        assert_eq!(byte_suffix("aé", 1), "");
    }

    #[test]
    fn tool_names_and_their_cap() {
        let names: Vec<String> = (0..16).map(|i| format!("tool{i}")).collect();
        let mut w = Window::new(1000);
        let (kept, capped) = w.tool_names(&names, 16);
        assert_eq!(kept.len(), 16);
        assert!(capped);
        let long = ["x".repeat(100)];
        let mut w = Window::new(10);
        let (kept, capped) = w.tool_names(&long, 1);
        assert!(kept.is_empty() && !capped && w.truncated);
    }

    #[test]
    fn upper_bounds() {
        assert_eq!(upper_bound(&["abc"], &["de"], &["x".repeat(100)], 1000), 69);
        assert_eq!(upper_bound::<&str, &str, &str>(&[], &[], &[], 1000), 0);
        assert_eq!(upper_bound(&["a".repeat(50)], &[""], &[""], 20), 20);
    }

    #[test]
    fn blank() {
        assert!(is_blank(""));
        assert!(is_blank(" \n\u{3000}"));
        assert!(!is_blank(" x "));
    }

    #[test]
    fn live_windows() {
        let w = live_window(&["abc", "  "], true, 100);
        assert_eq!(
            (w.byte_count, w.truncated, w.opaque_only),
            (5, false, false)
        );
        let w = live_window(&[" ", "\n"], true, 100);
        assert!(w.opaque_only, "media with only blank text");
        let w = live_window(&["          "], true, 4);
        assert!(
            w.truncated && !w.opaque_only,
            "truncated text is not known to be blank"
        );
    }

    #[test]
    fn prior_windows_keep_user_then_assistant_then_names() {
        let names = ["search", "read_file"];
        let w = prior_window(
            &["question"],
            &["answer one", "answer two"],
            &names,
            2,
            1000,
        );
        assert_eq!(w.segments, ["question", "answer one", "answer two"]);
        assert_eq!(w.user_segments, 1);
        assert_eq!(w.names, ["search", "read_file"]);
        assert_eq!(w.byte_count, 8 + 10 + 10 + 6 + 9);
        assert!(!w.truncated && !w.tool_cap);
        // The assistant's text is cut to what the user's left; a name that
        // no longer fits is dropped (and marks the turn truncated).
        let w = prior_window(&["0123456789"], &["abcdefghij"], &names, 17, 16);
        assert_eq!(w.segments, ["0123456789", "abc", "hij"]);
        assert_eq!(w.user_segments, 1);
        assert!(w.names.is_empty() && w.truncated && w.tool_cap);
    }
}
