//! §6.4 phrase tokens, §10 lexicons and §6.8 phrase flags.

use std::cell::RefCell;

use crate::charclass::{self, DIGIT, LETTER};
use crate::masking::{masked_ranges, unmasked_runs};
pub use crate::phrase_lexicon::{lexicons, Lexicon, Lexicons, NO_WORD};
use crate::phrase_lexicon::{IS_MARKER_LEAD, IS_NEGATION, IS_WEAK};
use crate::quotes::single_quote_spans;
use crate::substrings::{substring_matches, substring_occurrences};
pub use crate::tokens::{Token, Tokens};

#[inline]
fn is_token_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '\'';
    }
    c == '\u{2019}' || charclass::class(c) & (LETTER | DIGIT) != 0
}

const fn ascii_token_table() -> [bool; 128] {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'\'';
        b += 1;
    }
    t
}
static ASCII_TOKEN: [bool; 128] = ascii_token_table();

/// Tokenize ASCII `text`: lowercasing keeps every offset, so `out.text` is
/// the whole text lowercased and each token is a range of it, found without
/// copying token by token.
fn tokenize_ascii(text: &str, runs: &[(usize, usize)], out: &mut Tokens, lex: &Lexicons) {
    let Tokens {
        text: lowered,
        toks,
    } = out;
    lowered.clear();
    toks.clear();
    lowered.push_str(text);
    lowered.make_ascii_lowercase();
    let lb = lowered.as_bytes();
    for (run_index, &(a, b)) in runs.iter().enumerate() {
        let mut i = a;
        while i < b {
            if !ASCII_TOKEN[lb[i] as usize] {
                i += 1;
                continue;
            }
            let mut start = i;
            while i < b && ASCII_TOKEN[lb[i] as usize] {
                i += 1;
            }
            // Trim leading and trailing apostrophes.
            let mut end = i;
            while start < end && lb[start] == b'\'' {
                start += 1;
            }
            while end > start && lb[end - 1] == b'\'' {
                end -= 1;
            }
            if start == end {
                continue;
            }
            toks.push(Token {
                start,
                end,
                offset: start,
                run: run_index,
                word: lex.word_id(&lowered[start..end]),
            });
        }
    }
}

/// Tokenize `text` restricted to `runs` into `out` (cleared first), with
/// the word ids of lexical.1's lexicons.
pub fn tokenize(text: &str, runs: &[(usize, usize)], out: &mut Tokens) {
    tokenize_with(text, runs, out, lexicons());
}

/// [`tokenize`] with the word ids of `lex`.
pub fn tokenize_with(text: &str, runs: &[(usize, usize)], out: &mut Tokens, lex: &Lexicons) {
    if text.is_ascii() {
        tokenize_ascii(text, runs, out, lex);
        return;
    }
    out.clear();
    let bytes = text.as_bytes();
    for (run_index, &(a, b)) in runs.iter().enumerate() {
        let mut tok_offset: Option<usize> = None;
        let mut tok_text_start = 0;
        let mut i = a;
        while i < b {
            let c = bytes[i];
            if c < 0x80 {
                if ASCII_TOKEN[c as usize] {
                    if tok_offset.is_none() {
                        tok_offset = Some(i);
                        tok_text_start = out.text.len();
                    }
                    let start = i;
                    while i < b && bytes[i] < 0x80 && ASCII_TOKEN[bytes[i] as usize] {
                        i += 1;
                    }
                    let at = out.text.len();
                    out.text.push_str(&text[start..i]);
                    out.text[at..].make_ascii_lowercase();
                    continue;
                }
                if let Some(off) = tok_offset.take() {
                    finish(out, lex, tok_text_start, off, run_index);
                }
                i += 1;
                continue;
            }
            let ch = match charclass::char_at(text, i) {
                Some(ch) => ch,
                None => break,
            };
            if is_token_char(ch) {
                if tok_offset.is_none() {
                    tok_offset = Some(i);
                    tok_text_start = out.text.len();
                }
                out.text.push(charclass::lower_char(ch));
            } else if let Some(off) = tok_offset.take() {
                finish(out, lex, tok_text_start, off, run_index);
            }
            i += ch.len_utf8();
        }
        if let Some(off) = tok_offset {
            finish(out, lex, tok_text_start, off, run_index);
        }
    }
}

/// Trim the token that starts at `start` of `out.text` and record it.
fn finish(out: &mut Tokens, lex: &Lexicons, start: usize, offset: usize, run: usize) {
    const RSQ: &[u8] = "\u{2019}".as_bytes();
    let raw = &out.text.as_bytes()[start..];
    // Leading and trailing ' and ’ (both lowercase to themselves, so the
    // trimmed widths are the original widths too).
    let mut a = 0;
    let mut b = raw.len();
    loop {
        if raw[a..b].starts_with(b"'") {
            a += 1;
        } else if raw[a..b].starts_with(RSQ) {
            a += 3;
        } else {
            break;
        }
    }
    loop {
        if raw[a..b].ends_with(b"'") {
            b -= 1;
        } else if raw[a..b].ends_with(RSQ) {
            b -= 3;
        } else {
            break;
        }
    }
    if a == b {
        out.text.truncate(start);
        return;
    }
    let len = b - a;
    let word = lex.word_id(&out.text[start + a..start + b]);
    if a > 0 {
        out.text.replace_range(start..start + a, "");
    }
    out.text.truncate(start + len);
    out.toks.push(Token {
        start,
        end: start + len,
        offset: offset + a,
        run,
        word,
    });
}

/// The continuation view (`change_view == false`) or the change view of §6.4.
pub fn tokens_of_view(text: &str, change_view: bool, out: &mut Tokens) {
    tokens_of_view_with(text, change_view, out, lexicons());
}

/// [`tokens_of_view`] with the word ids of `lex`.
pub fn tokens_of_view_with(text: &str, change_view: bool, out: &mut Tokens, lex: &Lexicons) {
    if change_view {
        let runs = unmasked_runs(text.len(), &masked_ranges(text));
        tokenize_with(text, &runs, out, lex);
    } else if text.is_empty() {
        out.clear();
    } else {
        tokenize_with(text, &[(0, text.len())], out, lex);
    }
}

/// The change-view tokens derived from the continuation-view tokens `cont`
/// of the same text: no delimiter of §6.2 is a token character, so every
/// continuation token lies wholly inside or wholly outside the masked ranges,
/// and the change view keeps exactly those outside, numbered by unmasked run.
pub fn change_view_from(text: &str, cont: &[Token], out: &mut Vec<Token>) {
    out.clear();
    let masked = masked_ranges(text);
    if masked.is_empty() {
        out.extend_from_slice(cont);
        return;
    }
    let runs = unmasked_runs(text.len(), &masked);
    let mut r = 0;
    for t in cont {
        while r < runs.len() && runs[r].1 <= t.offset {
            r += 1;
        }
        if r == runs.len() {
            break;
        }
        if runs[r].0 <= t.offset {
            out.push(Token { run: r, ..*t });
        }
    }
}

/// phrase_tokens(text, change_view): (token, byte offset, run index).
pub fn phrase_tokens(text: &str, change_view: bool) -> Vec<(String, usize, usize)> {
    let mut t = Tokens::default();
    tokens_of_view(text, change_view, &mut t);
    (0..t.len())
        .map(|i| (t.token_text(i).to_owned(), t.toks[i].offset, t.toks[i].run))
        .collect()
}

/// The length of the longest phrase of `lex` matching at token `i` (§6.4), 0 if none.
pub fn longest_match(t: &[Token], i: usize, lex: &Lexicon) -> usize {
    let w = t[i].word;
    if w == NO_WORD {
        return 0;
    }
    let run = t[i].run;
    let mut best = 0;
    for phrase in &lex.by_first[w as usize] {
        let l = phrase.len();
        if l > best
            && i + l <= t.len()
            && phrase
                .iter()
                .zip(&t[i..i + l])
                .all(|(&pw, tok)| tok.run == run && tok.word == pw)
        {
            best = l;
        }
    }
    best
}

/// Tokens consumed by leading acknowledgement phrases (§6.4).
pub fn leading_acks(t: &[Token], lex: &Lexicon) -> usize {
    let mut i = 0;
    while i < t.len() {
        let m = longest_match(t, i, lex);
        if m == 0 {
            break;
        }
        i += m;
    }
    i
}

#[inline]
fn has_flag(lex: &Lexicons, t: &Token, flag: u16) -> bool {
    lex.has(t.word, flag)
}

/// The flags of §6.8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhraseFlags {
    pub strong_reference: bool,
    pub weak_reference: bool,
    pub acknowledgement: bool,
    pub change_marker: bool,
    pub marker_ambiguous: bool,
}

/// phrase flags of the live segments (§6.8).
pub fn phrase_flags<S: AsRef<str>>(segments: &[S]) -> PhraseFlags {
    phrase_flags_with(segments, lexicons())
}

/// The phrase flags of §6.8 with the lexicons of `lex`, substring markers
/// included (lexical.2 §3.2).
pub fn phrase_flags_with<S: AsRef<str>>(segments: &[S], lex: &Lexicons) -> PhraseFlags {
    phrase_flags_visit(segments, lex, |_, _, _, _| {})
}

/// [`phrase_flags_with`], handing `visit` each segment's change view as it
/// goes: `(segment index, segment, tokens, the text their ranges index)`, so
/// a caller reads the same tokens without tokenizing again.
pub fn phrase_flags_visit<S, V>(segments: &[S], lex: &Lexicons, mut visit: V) -> PhraseFlags
where
    S: AsRef<str>,
    V: FnMut(usize, &str, &[Token], &str),
{
    if segments.is_empty() {
        return PhraseFlags::default();
    }
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffers) => {
            let flags = phrase_flags_in(segments, lex, &mut visit, &mut buffers);
            if buffers.cont.text.capacity() > 1 << 16 {
                *buffers = Buffers::default();
            }
            flags
        }
        Err(_) => phrase_flags_in(segments, lex, &mut visit, &mut Buffers::default()),
    })
}

/// Token buffers reused by every phrase-flags call on one thread: the
/// tokens of a short live turn cost less than the allocations they would
/// otherwise make.
#[derive(Default)]
struct Buffers {
    cont: Tokens,
    change: Vec<Token>,
    occurrences: Vec<(usize, bool, bool)>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

fn phrase_flags_in<S, V>(
    segments: &[S],
    lex: &Lexicons,
    visit: &mut V,
    buffers: &mut Buffers,
) -> PhraseFlags
where
    S: AsRef<str>,
    V: FnMut(usize, &str, &[Token], &str),
{
    let Buffers {
        cont,
        change,
        occurrences,
    } = buffers;
    let mut f = PhraseFlags::default();
    let mut all_acks = true;
    let mut total = 0usize;
    let mut any_clean = false;
    for (j, seg) in segments.iter().enumerate() {
        let seg = seg.as_ref();
        // Continuation view.
        tokens_of_view_with(seg, false, cont, lex);
        let t = &cont.toks[..];
        if !f.strong_reference {
            f.strong_reference = (0..t.len()).any(|i| longest_match(t, i, &lex.strong) > 0)
                || (!seg.is_ascii()
                    && !substring_matches(t, &cont.text, lex.reference_substring, &[], 0)
                        .is_empty());
        }
        let a = leading_acks(t, &lex.ack);
        if j == 0 {
            f.weak_reference = t[a..t.len().min(a + lex.weak_window)]
                .iter()
                .any(|tok| has_flag(lex, tok, IS_WEAK));
        }
        all_acks &= a == t.len();
        total += t.len();
        // Change view.
        change_view_from(seg, t, change);
        let t = &change[..];
        visit(j, seg, t, &cont.text);
        let a = leading_acks(t, &lex.ack);
        occurrences.clear();
        occurrences.extend(
            (0..t.len())
                .filter(|&i| longest_match(t, i, &lex.change) > 0)
                .map(|i| (i, false, true)),
        );
        if !seg.is_ascii() {
            occurrences.extend(substring_occurrences(
                t,
                &cont.text,
                lex.change_substring,
                lex.negation_substring,
                lex.negation_substring_lookback,
                |before| lex.has(lex.word_id(before), IS_MARKER_LEAD),
            ));
        }
        let mut spans: Option<Vec<(usize, usize)>> = None;
        let mut quoted: Option<Vec<(usize, usize)>> = None;
        for &(i, substring_negated, led) in occurrences.iter() {
            let negated = substring_negated
                || t[i.saturating_sub(lex.negation_lookback)..i]
                    .iter()
                    .any(|tok| has_flag(lex, tok, IS_NEGATION));
            let clean = j == 0
                && i >= a
                && i - a < lex.change_window
                && !negated
                && {
                    let sq = spans.get_or_insert_with(|| single_quote_spans(seg));
                    !in_spans(sq, t[i].offset)
                }
                && (!lex.marker_leads || led && marker_leads(seg, t, a, i, lex, &mut quoted));
            if clean {
                any_clean = true;
            } else {
                f.marker_ambiguous = true;
            }
        }
    }
    f.acknowledgement = all_acks && (1..=lex.max_ack_tokens).contains(&total);
    f.change_marker = any_clean && !f.marker_ambiguous;
    f
}

/// Characters that end a sentence (or a heading's clause) for
/// [`leads_its_sentence`].
fn ends_sentence(c: char) -> bool {
    matches!(
        c,
        '.' | '!' | '?' | ':' | ';' | '\n' | '。' | '！' | '？' | '：' | '；'
    )
}

/// hybrid.1 §3 item 1 for the marker at token `i`: it leads its sentence
/// and stands in no quotation of `marker_quotes` (`quoted` caches their
/// spans for the segment).
fn marker_leads(
    seg: &str,
    t: &[Token],
    a: usize,
    i: usize,
    lex: &Lexicons,
    quoted: &mut Option<Vec<(usize, usize)>>,
) -> bool {
    leads_its_sentence(seg, t, a, i, lex) && {
        let spans = quoted.get_or_insert_with(|| quotation_spans(seg, lex.marker_quotes));
        !in_spans(spans, t[i].offset)
    }
}

/// Every token between the start of the marker's
/// sentence and the marker (token `i`), after the leading acknowledgements
/// (`a`), is a marker-lead word. A sentence starts after a character of
/// [`ends_sentence`] between two tokens.
fn leads_its_sentence(seg: &str, t: &[Token], a: usize, i: usize, lex: &Lexicons) -> bool {
    let mut k = i;
    while k > a {
        if seg[t[k - 1].offset..t[k].offset].contains(ends_sentence) {
            return true;
        }
        if !has_flag(lex, &t[k - 1], IS_MARKER_LEAD) {
            return false;
        }
        k -= 1;
    }
    true
}

/// The spans of `seg` (byte offsets, sorted, half-open) from an opening
/// character of `pairs` (each its opening and closing character) to the
/// next closing character of its pair on the same line, the closer
/// included; an opener with no closer on its line opens nothing, and
/// quotations do not nest. Linear: a search stops at its closer or its
/// line's end, and when it reaches the line's end, the later openers of its
/// kind on that line are not searched again.
pub fn quotation_spans(seg: &str, pairs: &[&str]) -> Vec<(usize, usize)> {
    let kinds: Vec<(char, char)> = pairs
        .iter()
        .filter_map(|p| {
            let mut cs = p.chars();
            Some((cs.next()?, cs.next()?))
        })
        .collect();
    let mut failed_until = vec![0usize; kinds.len()];
    let mut spans = Vec::new();
    let mut at = 0;
    while let Some(c) = seg[at..].chars().next() {
        let open = at;
        let next = at + c.len_utf8();
        at = next;
        let kind = kinds.iter().position(|&(opener, _)| opener == c);
        let Some(kind) = kind.filter(|&k| open >= failed_until[k]) else {
            continue;
        };
        let close = kinds[kind].1;
        match seg[next..].find([close, '\n']) {
            Some(n) if seg[next + n..].starts_with(close) => {
                at = next + n + close.len_utf8();
                spans.push((open, at));
            }
            Some(n) => failed_until[kind] = next + n,
            None => failed_until[kind] = seg.len(),
        }
    }
    spans
}

/// Whether `off` lies in one of the sorted half-open `spans`.
fn in_spans(spans: &[(usize, usize)], off: usize) -> bool {
    let i = spans.partition_point(|&(a, _)| a <= off);
    i > 0 && off < spans[i - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str, change: bool) -> Vec<(String, usize, usize)> {
        phrase_tokens(s, change)
    }

    fn tt(v: &[(&str, usize, usize)]) -> Vec<(String, usize, usize)> {
        v.iter().map(|&(a, b, c)| (a.to_owned(), b, c)).collect()
    }

    #[test]
    fn tokens_and_apostrophes() {
        assert_eq!(
            toks("Isn't it", false),
            tt(&[("isn't", 0, 0), ("it", 6, 0)])
        );
        assert_eq!(
            toks("'quoted' x", false),
            tt(&[("quoted", 1, 0), ("x", 9, 0)])
        );
        assert_eq!(toks("’’ab’", false), tt(&[("ab", 6, 0)]));
        assert_eq!(toks("' ''", false), tt(&[]));
        assert_eq!(toks("don’t", false), tt(&[("don’t", 0, 0)]));
        assert_eq!(
            toks("a_b c-d", false),
            tt(&[("a", 0, 0), ("b", 2, 0), ("c", 4, 0), ("d", 6, 0)])
        );
        assert_eq!(toks("", false), tt(&[]));
        assert_eq!(toks("", true), tt(&[]));
    }

    #[test]
    fn tokens_lowercase_and_offsets() {
        // İ (2 bytes) lowercases to i (1 byte); offsets stay in the original.
        assert_eq!(toks("İx İy", false), tt(&[("ix", 0, 0), ("iy", 4, 0)]));
        assert_eq!(toks("'\u{212a}' k", false), tt(&[("k", 1, 0), ("k", 6, 0)]));
        // Combining marks are not letters: they split tokens.
        assert_eq!(
            toks("cafe\u{301}s", false),
            tt(&[("cafe", 0, 0), ("s", 6, 0)])
        );
        assert_eq!(toks("東京 ok", false), tt(&[("東京", 0, 0), ("ok", 7, 0)]));
        assert_eq!(toks("٣٤x", false), tt(&[("٣٤x", 0, 0)]));
    }

    #[test]
    fn change_view_runs() {
        assert_eq!(
            toks("new `code` topic \"q\" end", true),
            tt(&[("new", 0, 0), ("topic", 11, 1), ("end", 21, 2)])
        );
        assert_eq!(toks("\"all\"", true), tt(&[]));
        assert_eq!(toks("x ```y", true), tt(&[("x", 0, 0)]));
        assert_eq!(toks("`a`b", true), tt(&[("b", 3, 0)]));
    }

    #[test]
    fn derived_change_view_matches_direct() {
        let cases = [
            "new `code` topic \"q\" end",
            "x ```y\nz``` w “a” b “c",
            "ab\"cd\"ef 'x' `unclosed tail",
            "İx`\u{212a}`y ’’a’ “”b",
            "\"\"\"",
            "plain text only",
            "",
            "``````a",
        ];
        for text in cases {
            let mut cont = Tokens::default();
            tokens_of_view(text, false, &mut cont);
            let mut derived = Vec::new();
            change_view_from(text, &cont.toks, &mut derived);
            let mut direct = Tokens::default();
            tokens_of_view(text, true, &mut direct);
            let d: Vec<_> = derived
                .iter()
                .map(|t| (&cont.text[t.start..t.end], t.offset, t.run))
                .collect();
            let e: Vec<_> = direct
                .toks
                .iter()
                .map(|t| (&direct.text[t.start..t.end], t.offset, t.run))
                .collect();
            assert_eq!(d, e, "{text:?}");
        }
    }

    fn flags(segs: &[&str]) -> PhraseFlags {
        phrase_flags(segs)
    }

    #[test]
    fn strong_and_weak() {
        assert!(flags(&["like you said before"]).strong_reference);
        assert!(flags(&["fix", "your code"]).strong_reference);
        assert!(!flags(&["your", "code"]).strong_reference);
        assert!(flags(&["ok thanks, and then"]).weak_reference);
        assert!(flags(&["ok so what"]).weak_reference);
        assert!(!flags(&["ok what about the rest of this"]).weak_reference);
        assert!(!flags(&["x", "it"]).weak_reference);
        assert!(flags(&["Thank you also"]).weak_reference);
    }

    #[test]
    fn acknowledgement() {
        assert!(flags(&["Thanks!"]).acknowledgement);
        assert!(flags(&["ok, sounds good"]).acknowledgement);
        assert!(!flags(&["ok ok ok ok ok"]).acknowledgement);
        assert!(!flags(&["thanks for that"]).acknowledgement);
        assert!(!flags(&[""]).acknowledgement);
        assert!(flags(&["", "thx"]).acknowledgement);
        assert!(!flags(&["thank", "you"]).acknowledgement);
        assert_eq!(flags(&[]), PhraseFlags::default());
    }

    #[test]
    fn quotation_spans_pair_on_one_line_and_do_not_nest() {
        let pairs = &["„“", "«»", "»«", "‹›", "「」", "『』", "‚‘"];
        // „ (3 bytes) … “ (3 bytes): the closer included.
        assert_eq!(quotation_spans("a „b“ c", pairs), vec![(2, 9)]);
        assert_eq!(quotation_spans("«x» »y«", pairs), vec![(0, 5), (6, 11)]);
        // No closer on the line: nothing opens, and the next line is read.
        assert_eq!(quotation_spans("「a\n」 「b」", pairs), vec![(9, 16)]);
        // Inside a quotation another opener is text.
        assert_eq!(quotation_spans("«a „b» c“", pairs), vec![(0, 10)]);
        assert!(quotation_spans("no quotes “here”", pairs).is_empty());
        // Many unclosed openers on one line stay linear and open nothing.
        assert!(quotation_spans(&"«".repeat(10_000), pairs).is_empty());
    }

    #[test]
    fn change_markers() {
        let f = flags(&["New question: how do I sort a list?"]);
        assert!(f.change_marker && !f.marker_ambiguous);
        let f = flags(&["ok thanks. unrelated, but how?"]);
        assert!(f.change_marker);
        // Negated.
        let f = flags(&["this is not unrelated"]);
        assert!(!f.change_marker && f.marker_ambiguous);
        let f = flags(&["don’t unrelated"]); // U+2019: not a negation
        assert!(f.change_marker);
        // Beyond the leading window of 8.
        let f = flags(&["one two three four five six seven eight unrelated"]);
        assert!(f.marker_ambiguous);
        let f = flags(&["one two three four five six seven unrelated"]);
        assert!(f.change_marker);
        // Second segment.
        let f = flags(&["hello", "new topic"]);
        assert!(f.marker_ambiguous && !f.change_marker);
        // Inside a single-quote span.
        let f = flags(&["what does 'new topic' mean"]);
        assert!(f.marker_ambiguous);
        // Inside code or double quotes: hidden in the change view.
        let f = flags(&["what does \"new topic\" mean"]);
        assert!(!f.marker_ambiguous && !f.change_marker);
        // A barrier splits a phrase.
        let f = flags(&["new `x` topic"]);
        assert!(!f.marker_ambiguous && !f.change_marker);
        // Clean and ambiguous together: ambiguous wins.
        let f = flags(&["unrelated, not unrelated"]);
        assert!(f.marker_ambiguous && !f.change_marker);
        // Negation look-back counts tokens of any run.
        let f = flags(&["not `x` \"y\" unrelated"]);
        assert!(f.marker_ambiguous);
        let f = flags(&["not a b c unrelated"]);
        assert!(f.change_marker);
    }
}

#[cfg(test)]
mod substring_tests {
    //! Substring markers found in the tokens of a view (`crate::substrings`).
    use super::*;

    fn matches(text: &str, markers: &[&str], negations: &[&str]) -> Vec<(usize, bool)> {
        let mut toks = Tokens::default();
        tokens_of_view(text, false, &mut toks);
        substring_matches(&toks.toks, &toks.text, markers, negations, 4)
    }

    #[test]
    fn finds_markers_inside_and_across_tokens() {
        assert_eq!(
            matches("我有一个新问题", &["新问题"], &[]),
            vec![(0, false)]
        );
        assert_eq!(
            matches("ok 我有新问题 新问题", &["新问题"], &[]),
            vec![(1, false), (2, false)]
        );
        assert_eq!(
            matches("저는 다른 질문이 있어요", &["다른 질문"], &[]),
            vec![(1, false)]
        );
        assert_eq!(matches("plain ascii", &["新问题"], &[]), vec![]);
        assert_eq!(
            matches("新新新", &["新新"], &[]),
            vec![(0, false), (0, false)]
        );
    }

    #[test]
    fn negation_within_the_lookback() {
        assert_eq!(
            matches("这不是新问题", &["新问题"], &["不"]),
            vec![(0, true)]
        );
        assert_eq!(
            matches("不太清楚我的新问题", &["新问题"], &["不"]),
            vec![(0, false)]
        );
        assert_eq!(
            matches("不一二三新问题", &["新问题"], &["不"]),
            vec![(0, true)]
        );
        assert_eq!(
            matches("不一二三四新问题", &["新问题"], &["不"]),
            vec![(0, false)]
        );
    }
}
