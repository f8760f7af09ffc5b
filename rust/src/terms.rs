//! §6.1 terms (words, symbols, CJK characters and bigrams) and term sets.

use crate::charclass::{self, CJK, DIGIT, LETTER, SYMBOL};
use crate::lexicon::is_stopword;
use crate::strset::StrSet;

/// ASCII word bytes: letters, digits and `_`.
const fn ascii_word_table() -> [bool; 128] {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    t
}
static ASCII_WORD: [bool; 128] = ascii_word_table();

/// ASCII symbols (category S): `$ + < = > ^ ` | ~`.
#[inline]
fn ascii_symbol(b: u8) -> bool {
    matches!(
        b,
        b'$' | b'+' | b'<' | b'=' | b'>' | b'^' | b'`' | b'|' | b'~'
    )
}

/// Call `emit` with every term of `lowered` (already lowercased per character,
/// §1) in emission order. Terms are slices of `lowered`.
pub fn for_each_term<'a, F: FnMut(&'a str)>(lowered: &'a str, mut emit: F) {
    let bytes = lowered.as_bytes();
    let n = bytes.len();
    // Current word: start byte and character count (0 = no word).
    let mut word_start = 0usize;
    let mut word_chars = 0usize;
    // Byte start of the previous CJK character.
    let mut prev_cjk: Option<usize> = None;
    let mut i = 0usize;
    while i < n {
        let b = bytes[i];
        if b < 0x80 {
            if ASCII_WORD[b as usize] {
                if word_chars == 0 {
                    word_start = i;
                }
                word_chars += 1;
                prev_cjk = None;
            } else {
                if word_chars > 1 {
                    emit(&lowered[word_start..i]);
                }
                word_chars = 0;
                prev_cjk = None;
                if ascii_symbol(b) {
                    emit(&lowered[i..i + 1]);
                }
            }
            i += 1;
            continue;
        }
        let c = match charclass::char_at(lowered, i) {
            Some(c) => c,
            None => break,
        };
        let w = c.len_utf8();
        let cls = charclass::class(c);
        if cls & CJK != 0 {
            if word_chars > 1 {
                emit(&lowered[word_start..i]);
            }
            word_chars = 0;
            emit(&lowered[i..i + w]);
            if let Some(p) = prev_cjk {
                emit(&lowered[p..i + w]);
            }
            prev_cjk = Some(i);
        } else if cls & (LETTER | DIGIT) != 0 {
            if word_chars == 0 {
                word_start = i;
            }
            word_chars += 1;
            prev_cjk = None;
        } else {
            if word_chars > 1 {
                emit(&lowered[word_start..i]);
            }
            word_chars = 0;
            prev_cjk = None;
            if cls & SYMBOL != 0 {
                emit(&lowered[i..i + w]);
            }
        }
        i += w;
    }
    if word_chars > 1 {
        emit(&lowered[word_start..n]);
    }
}

/// terms(text) of §6.1, in emission order, stopwords included.
pub fn terms(text: &str) -> Vec<String> {
    let lowered = charclass::lowercase(text);
    let mut out = Vec::new();
    for_each_term(&lowered, |t| out.push(t.to_owned()));
    out
}

/// Add the stopword-free terms of `text` to `set`; `buf` is scratch space.
pub fn add_terms(text: &str, set: &mut StrSet, buf: &mut String) {
    let lowered = charclass::lowercase_with(text, buf);
    for_each_term(lowered, |t| {
        if !is_stopword(t) {
            set.insert(t);
        }
    });
}

/// The stopword-free union of the terms of `segments`.
pub fn term_set_of<S: AsRef<str>>(segments: &[S]) -> StrSet {
    let mut set = StrSet::new();
    let mut buf = String::new();
    for s in segments {
        add_terms(s.as_ref(), &mut set, &mut buf);
    }
    set
}

/// term_set(segments) sorted by code point.
pub fn term_set<S: AsRef<str>>(segments: &[S]) -> Vec<String> {
    term_set_of(segments).sorted()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<String> {
        terms(s)
    }

    #[test]
    fn ascii_words_and_symbols() {
        assert_eq!(t("Hello, World!"), vec!["hello", "world"]);
        assert_eq!(t("a b cd"), vec!["cd"]); // one-character words are not terms
        assert_eq!(t("x+y=z"), vec!["+", "="]);
        assert_eq!(t("snake_case and __"), vec!["snake_case", "and", "__"]);
        assert_eq!(t("isn't"), vec!["isn"]);
        assert_eq!(t("$5 costs"), vec!["$", "costs"]);
        assert_eq!(t(""), Vec::<String>::new());
        assert_eq!(t("ab`cd"), vec!["ab", "`", "cd"]);
        assert_eq!(t("ab1 2c"), vec!["ab1", "2c"]);
    }

    #[test]
    fn case_changing_characters() {
        // İ (2 bytes) lowercases to i (1 byte).
        assert_eq!(t("İstanbul"), vec!["istanbul"]);
        assert_eq!(t("\u{212a}ELVIN"), vec!["kelvin"]);
        assert_eq!(t("ΟΔΟΣ"), vec!["οδοσ"]);
        assert_eq!(t("İ"), Vec::<String>::new());
    }

    #[test]
    fn combining_marks_end_words() {
        // U+0301 is Mn: not a letter, so it ends the word.
        assert_eq!(t("cafe\u{301}s"), vec!["cafe"]);
        assert_eq!(t("cafe\u{301}ss"), vec!["cafe", "ss"]);
    }

    #[test]
    fn cjk_characters_and_bigrams() {
        assert_eq!(t("東京"), vec!["東", "京", "東京"]);
        assert_eq!(t("東京都"), vec!["東", "京", "東京", "都", "京都"]);
        assert_eq!(t("ab東cd"), vec!["ab", "東", "cd"]);
        assert_eq!(t("東a京"), vec!["東", "京"]);
        assert_eq!(
            t("ひらがな"),
            vec!["ひ", "ら", "ひら", "が", "らが", "な", "がな"]
        );
        assert_eq!(t("한국어"), vec!["한", "국", "한국", "어", "국어"]);
        // CJK punctuation (U+3002) is not CJK: it breaks the bigram chain.
        assert_eq!(t("東。京"), vec!["東", "京"]);
        // A CJK symbol in the CJK table (U+1F200, So) is CJK first.
        assert_eq!(t("\u{1f200}東"), vec!["\u{1f200}", "東", "\u{1f200}東"]);
    }

    #[test]
    fn other_characters() {
        assert_eq!(t("ab\u{0}cd"), vec!["ab", "cd"]);
        assert_eq!(t("ab\u{fffd}cd"), vec!["ab", "\u{fffd}", "cd"]);
        assert_eq!(t("go 😀 now"), vec!["go", "😀", "now"]);
        assert_eq!(
            t("ab\u{a0}cd\u{3000}ef\u{85}gh"),
            vec!["ab", "cd", "ef", "gh"]
        );
        assert_eq!(t("٣٤ xy"), vec!["٣٤", "xy"]);
    }

    #[test]
    fn ascii_tables_agree_with_generated_tables() {
        for b in 0u8..128 {
            let cls = charclass::class(b as char);
            assert_eq!(ascii_symbol(b), cls & SYMBOL != 0, "{b}");
            assert_eq!(
                ASCII_WORD[b as usize],
                cls & (LETTER | DIGIT) != 0 || b == b'_',
                "{b}"
            );
            assert_eq!(cls & CJK, 0);
        }
    }

    #[test]
    fn term_sets() {
        let segs = ["The cache is warm", "and THE cache is cold"];
        assert_eq!(term_set(&segs), vec!["cache", "cold", "warm"]);
        // No term across segments.
        assert_eq!(term_set(&["ab", "cd"]), vec!["ab", "cd"]);
        assert_eq!(term_set(&["東", "京"]), vec!["京", "東"]);
        assert!(term_set::<&str>(&[]).is_empty());
    }
}
