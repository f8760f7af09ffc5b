//! The BERT basic tokenizer of the model's `tokenizer.json` (`BertNormalizer`
//! then `BertPreTokenizer`), over the generated Unicode 17 tables:
//!
//! 1. U+0000, U+FFFD and the general categories Cc Cf Cn Co Cs are dropped,
//!    except tab, newline and carriage return, which are white space;
//! 2. white space (the spec's `space` class) ends a word;
//! 3. each CJK character (BERT's blocks) is a word of its own;
//! 4. every other character is folded: canonical decomposition (Hangul
//!    syllables by arithmetic), nonspacing marks dropped, each remaining
//!    character lowercased (one rune to one rune);
//! 5. each punctuation character (ASCII punctuation or category P) of the
//!    folded text is a word of its own.
//!
//! Only the first `MAX_TEXT_BYTES` bytes of a text are read (cut back to a
//! character boundary).

use super::wordpiece_tables::{CJK, FOLD, MARK, MAX_TEXT_BYTES, OTHER};
use crate::charclass::byte_prefix;
use crate::tables::{PUNCT, SPACE};

pub(super) const DROP: u8 = 0;
pub(super) const WHITE: u8 = 1;
pub(super) const PUNCTUATION: u8 = 2;
pub(super) const WORD: u8 = 3;

/// The class of each ASCII character: controls other than tab, newline and
/// carriage return (vertical tab and form feed included) are dropped.
pub(super) const ASCII: [u8; 128] = {
    let mut classes = [WORD; 128];
    let mut c = 0;
    while c < 128 {
        classes[c] = match c as u8 {
            b'\t' | b'\n' | b'\r' | b' ' => WHITE,
            0..=31 | 127 => DROP,
            b'!'..=b'/' | b':'..=b'@' | b'['..=b'`' | b'{'..=b'~' => PUNCTUATION,
            _ => WORD,
        };
        c += 1;
    }
    classes
};

const HANGUL_FIRST: u32 = 0xAC00;
const HANGUL_LAST: u32 = 0xD7A3;
const LEADING_BASE: u32 = 0x1100;
const VOWEL_BASE: u32 = 0x1161;
const TRAILING_BASE: u32 = 0x11A7;
const VOWELS: u32 = 21;
const TRAILINGS: u32 = 28;

/// Whether `cp` lies in one of the sorted, disjoint inclusive `ranges`.
pub fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    let after = ranges.partition_point(|&(lo, _)| lo <= cp);
    after > 0 && ranges[after - 1].1 >= cp
}

/// The folded form of `cp` when it differs from the character itself.
pub fn fold(cp: u32) -> Option<&'static str> {
    FOLD.binary_search_by_key(&cp, |&(c, _)| c)
        .ok()
        .map(|i| FOLD[i].1)
}

/// Whether `c` (already folded) is a word of its own as punctuation.
pub fn is_punctuation(c: char) -> bool {
    let cp = c as u32;
    if cp < 128 {
        ASCII[cp as usize] == PUNCTUATION
    } else {
        in_ranges(PUNCT, cp)
    }
}

/// Builds the words of one text and hands each to a callback, which
/// answers whether to go on.
struct Words<'a, F: FnMut(&str) -> bool> {
    word: &'a mut String,
    emit: F,
    stopped: bool,
}

impl<F: FnMut(&str) -> bool> Words<'_, F> {
    fn flush(&mut self) {
        if !self.word.is_empty() && !self.stopped {
            self.stopped = !(self.emit)(self.word);
        }
        self.word.clear();
    }

    fn alone(&mut self, text: &str) {
        self.flush();
        if !self.stopped {
            self.stopped = !(self.emit)(text);
        }
    }

    fn push(&mut self, c: char) {
        if is_punctuation(c) {
            let mut buf = [0u8; 4];
            self.alone(c.encode_utf8(&mut buf));
        } else {
            self.word.push(c);
        }
    }

    fn other(&mut self, c: char) {
        let cp = c as u32;
        if cp == 0xFFFD || in_ranges(OTHER, cp) {
            return;
        }
        if in_ranges(SPACE, cp) {
            self.flush();
        } else if in_ranges(CJK, cp) {
            let mut buf = [0u8; 4];
            let folded = fold(cp).unwrap_or_else(|| c.encode_utf8(&mut buf));
            self.alone(folded);
        } else if (HANGUL_FIRST..=HANGUL_LAST).contains(&cp) {
            let index = cp - HANGUL_FIRST;
            let jamo = [
                LEADING_BASE + index / (VOWELS * TRAILINGS),
                VOWEL_BASE + (index % (VOWELS * TRAILINGS)) / TRAILINGS,
                TRAILING_BASE + index % TRAILINGS,
            ];
            let count = if jamo[2] == TRAILING_BASE { 2 } else { 3 };
            for &part in &jamo[..count] {
                self.word.extend(char::from_u32(part));
            }
        } else if in_ranges(MARK, cp) {
        } else if let Some(folded) = fold(cp) {
            for d in folded.chars() {
                self.push(d);
            }
        } else {
            self.push(c);
        }
    }
}

/// Hand each word of `text` (normalized as above) to `emit`, in order, until
/// it answers `false`; `word` is scratch space. (Pooling reads ASCII texts
/// through the fused path of `super::ascii` instead.)
pub fn words<F: FnMut(&str) -> bool>(text: &str, word: &mut String, emit: F) {
    let text = byte_prefix(text, MAX_TEXT_BYTES);
    word.clear();
    let mut words = Words {
        word,
        emit,
        stopped: false,
    };
    for c in text.chars() {
        if words.stopped {
            return;
        }
        if c.is_ascii() {
            match ASCII[c as usize] {
                DROP => {}
                WHITE => words.flush(),
                PUNCTUATION => {
                    let mut buf = [0u8; 4];
                    words.alone(c.encode_utf8(&mut buf));
                }
                _ => words.word.push(c.to_ascii_lowercase()),
            }
        } else {
            words.other(c);
        }
    }
    words.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut buf = String::new();
        words(text, &mut buf, |w| {
            out.push(w.to_owned());
            true
        });
        out
    }

    #[test]
    fn splits_on_space_and_punctuation_and_lowercases() {
        assert_eq!(all("Hello, World!"), ["hello", ",", "world", "!"]);
        assert_eq!(all("  a\tb\nc\r\n"), ["a", "b", "c"]);
        assert_eq!(all("don't"), ["don", "'", "t"]);
    }

    #[test]
    fn drops_controls_and_replacement_characters() {
        // Vertical tab and form feed are controls here, not white space.
        assert_eq!(all("a\u{b}b\u{c}c"), ["abc"]);
        assert_eq!(all("a\u{200d}b\u{fffd}c\u{0}d"), ["abcd"]);
        assert_eq!(all("a\u{85}b"), ["ab"]);
    }

    #[test]
    fn strips_accents_and_folds_case() {
        assert_eq!(all("Café CRÈME brûlée"), ["cafe", "creme", "brulee"]);
        assert_eq!(all("e\u{301}t\u{e9}"), ["ete"]);
        assert_eq!(all("İstanbul ÅNGSTRÖM"), ["istanbul", "angstrom"]);
    }

    #[test]
    fn cjk_characters_stand_alone_but_kana_and_hangul_do_not() {
        assert_eq!(all("我爱北京"), ["我", "爱", "北", "京"]);
        assert_eq!(all("ab中cd"), ["ab", "中", "cd"]);
        // The voiced sound mark of が decomposes away, as in BERT.
        assert_eq!(all("ひらがな"), ["ひらかな"]);
        // 한 = U+1112 U+1161 U+11AB, 가 = U+1100 U+1161.
        assert_eq!(all("한가"), ["\u{1112}\u{1161}\u{11ab}\u{1100}\u{1161}"]);
        // A compatibility ideograph becomes its unified ideograph.
        assert_eq!(all("\u{f900}"), ["\u{8c48}"]);
    }

    #[test]
    fn unicode_punctuation_and_space() {
        assert_eq!(all("a\u{3000}b\u{2014}c"), ["a", "b", "\u{2014}", "c"]);
        assert_eq!(all("«oui»"), ["«", "oui", "»"]);
        // Greek question mark decomposes to a semicolon.
        assert_eq!(all("a\u{37e}"), ["a", ";"]);
    }

    #[test]
    fn reads_at_most_max_text_bytes() {
        let text = "a ".repeat(MAX_TEXT_BYTES);
        assert_eq!(all(&text).len(), MAX_TEXT_BYTES / 2);
        let mut long = "b".repeat(MAX_TEXT_BYTES - 1);
        long.push('é');
        assert_eq!(all(&long), ["b".repeat(MAX_TEXT_BYTES - 1)]);
    }

    #[test]
    fn stops_when_told() {
        let mut seen = 0;
        let mut buf = String::new();
        words("one two three", &mut buf, |_| {
            seen += 1;
            seen < 2
        });
        assert_eq!(seen, 2);
    }
}
