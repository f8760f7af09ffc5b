//! One pass over an ASCII segment that yields both its terms (§6.1) and its
//! entity word runs (§6.5 pass 3), the two scans a prior turn needs.
//!
//! For ASCII text the two definitions line up byte by byte: term words are
//! maximal runs of `A–Z a–z 0–9 _`, and every entity word run is a maximal run
//! of those bytes plus `. ~ / -`, so each word lies inside one entity run.
//! Non-ASCII segments take the general path (lowercase, then scan).

use crate::charclass;
use crate::entities::Collector;
use crate::terms::for_each_term;

const WORD: u8 = 1; // A–Z a–z 0–9 _
const EXTRA: u8 = 2; // . ~ / -  (entity run bytes that end a term word)
const SYMBOL: u8 = 4; // $ + < = > ^ ` | ~  (category S: a term of its own)
const UPPER: u8 = 8;
const LOWER: u8 = 16;

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
        if c.is_ascii_lowercase() {
            v |= LOWER;
        }
        t[b] = v;
        b += 1;
    }
    t
}
static CLASS: [u8; 256] = class_table();

/// Call `on_term` with every term of `text` (lowercased; stopwords included,
/// order unspecified) and, when `entities` is given, run pass 3 of §6.5 on
/// every word run of `text`. Passes 1 and 2 are the caller's (they come
/// first). `buf` is scratch space.
pub fn scan_segment<F: FnMut(&str)>(
    text: &str,
    buf: &mut String,
    mut on_term: F,
    mut entities: Option<&mut Collector<'_>>,
) {
    if !text.is_ascii() {
        let lowered = charclass::lowercase_with(text, buf);
        for_each_term(lowered, &mut on_term);
        if let Some(c) = entities {
            c.word_runs(text);
        }
        return;
    }
    let b = text.as_bytes();
    let n = b.len();
    let mut emit_word = |s: usize, e: usize, upper: bool, on_term: &mut F| {
        if e - s > 1 {
            if upper {
                buf.clear();
                buf.push_str(&text[s..e]);
                buf.make_ascii_lowercase();
                on_term(buf);
            } else {
                on_term(&text[s..e]);
            }
        }
    };
    let mut i = 0;
    while i < n {
        let c = CLASS[b[i] as usize];
        if c & (WORD | EXTRA) == 0 {
            if c & SYMBOL != 0 {
                on_term(&text[i..i + 1]);
            }
            i += 1;
            continue;
        }
        // A maximal entity word run starts at i.
        let run_start = i;
        let mut interesting = false; // anything but plain letters without a lower→upper step
        let mut prev_lower = false;
        let mut word_start = i;
        let mut word_upper = false;
        let mut in_word = false;
        while i < n {
            let c = CLASS[b[i] as usize];
            if c & WORD != 0 {
                if !in_word {
                    in_word = true;
                    word_start = i;
                    word_upper = false;
                }
                word_upper |= c & UPPER != 0;
                interesting |= c & (UPPER | LOWER) == 0 || (prev_lower && c & UPPER != 0);
                prev_lower = c & LOWER != 0;
            } else if c & EXTRA != 0 {
                if in_word {
                    emit_word(word_start, i, word_upper, &mut on_term);
                    in_word = false;
                }
                if c & SYMBOL != 0 {
                    on_term(&text[i..i + 1]);
                }
                interesting = true;
                prev_lower = false;
            } else {
                break;
            }
            i += 1;
        }
        if in_word {
            emit_word(word_start, i, word_upper, &mut on_term);
        }
        if interesting {
            if let Some(c) = entities.as_deref_mut() {
                if !c.capped() {
                    c.word_run(&text[run_start..i]);
                }
            }
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
            let mut got = Vec::new();
            let mut set = StrSet::new();
            let mut ebuf = String::new();
            let mut coll = Collector::new(&mut set, &mut ebuf);
            coll.delimited_passes(&text);
            let mut buf = String::new();
            scan_segment(&text, &mut buf, |t| got.push(t.to_owned()), Some(&mut coll));
            got.sort();
            assert_eq!(got, expected, "{text:?}");
            let capped = coll.capped();
            let (want, want_capped) = crate::entities::entities(&text);
            assert_eq!((set.sorted(), capped), (want, want_capped), "{text:?}");
        }
    }
}
