//! One pass over an ASCII segment that yields both its terms (§6.1) and its
//! entity word runs (§6.5 pass 3), the two scans a prior turn needs.
//!
//! For ASCII text the two definitions line up byte by byte: term words are
//! maximal runs of `A–Z a–z 0–9 _`, and every entity word run is a maximal run
//! of those bytes plus `. ~ / -`, so each word lies inside one entity run.
//! Non-ASCII segments take the general path (lowercase, then scan).

use crate::bytemask::{self, any_in, for_each_set, ByteMasks};
use crate::charclass;
use crate::entities::Collector;
use crate::terms::for_each_term;

const WORD: u8 = 1; // A–Z a–z 0–9 _
const EXTRA: u8 = 2; // . ~ / -  (entity run bytes that end a term word)
const SYMBOL: u8 = 4; // $ + < = > ^ ` | ~  (category S: a term of its own)
const UPPER: u8 = 8;

const fn class_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let mut v = 0;
        if c.is_ascii_alphanumeric() || c == b'_' {
            v |= WORD;
        }
        if matches!(c, b'.' | b'~' | b'/' | b'-') {
            v |= EXTRA;
        }
        if matches!(
            c,
            b'$' | b'+' | b'<' | b'=' | b'>' | b'^' | b'`' | b'|' | b'~'
        ) {
            v |= SYMBOL;
        }
        if c.is_ascii_uppercase() {
            v |= UPPER;
        }
        t[b] = v;
        b += 1;
    }
    t
}
static CLASS: [u8; 256] = class_table();

/// Scratch space of [`scan_segment`], reusable across segments.
#[derive(Default, Debug)]
pub struct Scratch {
    buf: String,
    masks: ByteMasks,
}

/// Call `on_term` with every term of `text` (lowercased; stopwords included,
/// order unspecified) and, when `entities` is given, run pass 3 of §6.5 on
/// every word run of `text`. Passes 1 and 2 are the caller's (they come
/// first).
///
/// `wants(first, len)` is a pre-filter for ASCII words of two bytes or more:
/// given the lowercased first byte and the length, it may return false only
/// when the caller has no use for the word, which then skips the lowercasing
/// and the call. Symbols and non-ASCII text always reach `on_term`.
///
/// With a run memo in `entities` (see `Collector::with_run_memo`), a word run
/// seen before in the segment is skipped whole: its terms were emitted
/// already, and callers only collect terms into sets.
pub fn scan_segment<W, F>(
    text: &str,
    scratch: &mut Scratch,
    wants: W,
    mut on_term: F,
    mut entities: Option<&mut Collector<'_>>,
) where
    W: Fn(u8, usize) -> bool,
    F: FnMut(&str),
{
    if !text.is_ascii() {
        let lowered = charclass::lowercase_with(text, &mut scratch.buf);
        for_each_term(lowered, &mut on_term);
        if let Some(c) = entities {
            c.word_runs(text);
        }
        return;
    }
    let b = text.as_bytes();
    let n = b.len();
    let Scratch { buf, masks } = scratch;
    masks.build(b);
    for_each_set(&masks.symbol, |i| on_term(&text[i..i + 1]));
    let mut i = 0;
    while let Some(start) = bytemask::next_set(&masks.run, i) {
        if start % 64 != 63 && masks.run[start / 64] & (2 << (start % 64)) == 0 {
            // A one-byte run: no term of its own; a letter gives pass 3 nothing.
            i = start + 1;
            if b[start].is_ascii_alphabetic() {
                continue;
            }
        }
        let end = bytemask::next_clear(&masks.run, start).min(n);
        i = end;
        if !any_in(&masks.interesting, start, end) {
            // Plain letters only: exactly one word, and nothing for pass 3.
            let len = end - start;
            if len > 1 && wants(b[start].to_ascii_lowercase(), len) {
                emit_word(
                    &text[start..end],
                    any_in(&masks.upper, start, end),
                    buf,
                    &mut on_term,
                );
            }
            continue;
        }
        let run = &text[start..end];
        if let Some(c) = entities.as_deref_mut() {
            if !c.claim_run(run) {
                continue; // a repeat: its terms and entities are in already
            }
            c.word_run_rules(run);
        }
        run_terms(run, buf, &wants, &mut on_term);
    }
}

#[inline]
fn emit_word<F: FnMut(&str)>(word: &str, upper: bool, buf: &mut String, on_term: &mut F) {
    if upper {
        buf.clear();
        buf.push_str(word);
        buf.make_ascii_lowercase();
        on_term(buf);
    } else {
        on_term(word);
    }
}

/// The terms of one ASCII entity word run: its words (split on `. ~ / -`)
/// and the symbol `~`.
fn run_terms<W, F>(run: &str, buf: &mut String, wants: &W, on_term: &mut F)
where
    W: Fn(u8, usize) -> bool,
    F: FnMut(&str),
{
    let b = run.as_bytes();
    let n = b.len();
    let mut i = 0;
    while i < n {
        let word_start = i;
        let mut acc = 0u8;
        while i < n {
            let c = CLASS[b[i] as usize];
            if c & WORD == 0 {
                break;
            }
            acc |= c;
            i += 1;
        }
        let len = i - word_start;
        if len > 1 && wants(b[word_start].to_ascii_lowercase(), len) {
            emit_word(&run[word_start..i], acc & UPPER != 0, buf, on_term);
        }
        if i < n {
            // An EXTRA byte.
            if b[i] == b'~' {
                on_term("~");
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strset::StrSet;
    use crate::terms::terms;

    /// A small deterministic generator of domain-flavoured text.
    fn texts() -> Vec<String> {
        let pieces = [
            "ab",
            "Cd",
            "x",
            "_",
            "__init__",
            "getValue",
            "HTTPServer",
            "src/main.rs",
            "~/x-y",
            "1.2.3",
            "404",
            "12345",
            "a.b",
            "file.txt.",
            "`",
            "\"",
            "'",
            "$",
            "+=",
            "^|",
            "~",
            "-",
            "/",
            ".",
            " ",
            "\n",
            ",",
            "é",
            "İ",
            "東京",
            "\u{212a}",
            "(",
            ")",
            "os.path.join",
            "snake_case",
            "XmlHttp",
            "end.",
            "v1",
            "A_B",
        ];
        let mut out = Vec::new();
        let mut state: u64 = 0x1234_5678;
        for len in 0..400 {
            let mut s = String::new();
            for _ in 0..(len % 23) {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                s.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            out.push(s);
        }
        out
    }

    #[test]
    fn fused_scan_matches_the_two_scans() {
        for text in texts() {
            let mut expected = terms(&text);
            expected.sort();
            let (want, want_capped) = crate::entities::entities(&text);
            for memo in [false, true] {
                let mut got = Vec::new();
                let (mut set, mut runs) = (StrSet::new(), StrSet::new());
                let mut ebuf = String::new();
                let mut coll = if memo {
                    Collector::with_run_memo(&mut set, &mut ebuf, &mut runs)
                } else {
                    Collector::new(&mut set, &mut ebuf)
                };
                coll.delimited_passes(&text);
                let mut scratch = Scratch::default();
                scan_segment(
                    &text,
                    &mut scratch,
                    |_, _| true,
                    |t| got.push(t.to_owned()),
                    Some(&mut coll),
                );
                let capped = coll.capped();
                got.sort();
                let mut expected = expected.clone();
                if memo {
                    // Repeated runs are skipped: the same terms, as a set.
                    got.dedup();
                    expected.dedup();
                }
                assert_eq!(got, expected, "{text:?}");
                assert_eq!(
                    (set.sorted(), capped),
                    (want.clone(), want_capped),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn the_filter_only_drops_unwanted_words() {
        for text in texts() {
            let wanted = |t: &str| t.len() < 2 || t.as_bytes()[0] >= b'm' || !t.is_ascii();
            let mut expected: Vec<String> =
                terms(&text).into_iter().filter(|t| wanted(t)).collect();
            expected.sort();
            let mut got = Vec::new();
            let mut scratch = Scratch::default();
            scan_segment(
                &text,
                &mut scratch,
                |first, _| first >= b'm',
                |t| got.push(t.to_owned()),
                None,
            );
            got.retain(|t| wanted(t));
            got.sort();
            assert_eq!(got, expected, "{text:?}");
        }
    }

    #[test]
    fn long_runs_and_chunk_edges() {
        // Runs crossing 8-byte chunks, camel steps across a chunk edge.
        for text in [
            "abcdefgHijk",
            "abcdefghIjk",
            "abcdefgh ijklmnopQ",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaB",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAb",
            "x/aaaaaaaaaaaaaaaaaa",
            "abcdefg_",
            "abcdefgh_",
            "abcdefgh~",
            "a~",
            "~",
            "5",
            "a 5 _ ~ / . - b",
        ] {
            let (want, _) = crate::entities::entities(text);
            let mut expected = terms(text);
            expected.sort();
            let mut got = Vec::new();
            let mut set = StrSet::new();
            let mut ebuf = String::new();
            let mut coll = Collector::new(&mut set, &mut ebuf);
            let mut scratch = Scratch::default();
            scan_segment(
                text,
                &mut scratch,
                |_, _| true,
                |t| got.push(t.to_owned()),
                Some(&mut coll),
            );
            got.sort();
            assert_eq!(got, expected, "{text:?}");
            assert_eq!(set.sorted(), want, "{text:?}");
        }
    }
}
