//! Character classes and the simple lowercase mapping (spec §1), built only
//! from the generated Unicode 17 tables in `tables.rs`.
//!
//! The Basic Multilingual Plane is served by two dense tables built once
//! (class bits and lowercase mapping); code points above it use binary search
//! over the generated ranges.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::tables;

/// General category L.
pub const LETTER: u8 = 1;
/// General category Nd.
pub const DIGIT: u8 = 2;
/// General category S.
pub const SYMBOL: u8 = 4;
/// General category P.
pub const PUNCT: u8 = 8;
/// The reference's white space.
pub const SPACE: u8 = 16;
/// Scripts Han, Hiragana, Katakana, Hangul.
pub const CJK: u8 = 32;

const BMP: usize = 0x1_0000;

struct Tables {
    class: Box<[u8]>,
    lower: Box<[u16]>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

const CLASS_TABLES: [(&[(u32, u32)], u8); 6] = [
    (tables::LETTER, LETTER),
    (tables::DIGIT, DIGIT),
    (tables::SYMBOL, SYMBOL),
    (tables::PUNCT, PUNCT),
    (tables::SPACE, SPACE),
    (tables::CJK, CJK),
];

fn build() -> Tables {
    let mut class = vec![0u8; BMP].into_boxed_slice();
    for (ranges, bit) in CLASS_TABLES {
        for &(lo, hi) in ranges {
            let lo = lo as usize;
            if lo >= BMP {
                continue;
            }
            let hi = (hi as usize).min(BMP - 1);
            for slot in &mut class[lo..=hi] {
                *slot |= bit;
            }
        }
    }
    let mut lower: Box<[u16]> = (0..BMP).map(|c| c as u16).collect();
    for &(from, to) in tables::LOWER {
        // The generated table maps the BMP into the BMP (checked by a test);
        // anything else is served by the binary search in `lower_char`.
        if (from as usize) < BMP && (to as usize) < BMP {
            lower[from as usize] = to as u16;
        }
    }
    Tables { class, lower }
}

#[inline]
fn get() -> &'static Tables {
    TABLES.get_or_init(build)
}

#[inline]
fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    match ranges.binary_search_by(|&(lo, _)| lo.cmp(&cp)) {
        Ok(_) => true,
        Err(0) => false,
        Err(i) => ranges[i - 1].1 >= cp,
    }
}

#[cold]
fn class_astral(cp: u32) -> u8 {
    let mut bits = 0;
    for (ranges, bit) in CLASS_TABLES {
        if in_ranges(ranges, cp) {
            bits |= bit;
        }
    }
    bits
}

#[cold]
fn lower_astral(c: char) -> char {
    let cp = c as u32;
    match tables::LOWER.binary_search_by(|&(from, _)| from.cmp(&cp)) {
        Ok(i) => char::from_u32(tables::LOWER[i].1).unwrap_or(c),
        Err(_) => c,
    }
}

/// The class bits of `c` (a combination of `LETTER`, `DIGIT`, …).
#[inline]
pub fn class(c: char) -> u8 {
    let cp = c as u32;
    if (cp as usize) < BMP {
        get().class[cp as usize]
    } else {
        class_astral(cp)
    }
}

/// The simple (one-to-one) lowercase mapping of §1.
#[inline]
pub fn lower_char(c: char) -> char {
    let cp = c as u32;
    if cp < 0x80 {
        return (cp as u8).to_ascii_lowercase() as char;
    }
    if (cp as usize) < BMP {
        let l = get().lower[cp as usize] as u32;
        // Every BMP entry is a valid scalar (the identity or a table target).
        char::from_u32(l).unwrap_or(c)
    } else {
        lower_astral(c)
    }
}

/// Whether lowercasing `text` could change it (ASCII uppercase or non-ASCII).
#[inline]
fn may_change(text: &str) -> bool {
    // Branch-free per byte so the loop vectorizes.
    text.bytes().fold(false, |acc, b| {
        acc | (b.wrapping_sub(b'A') < 26) | (b >= 0x80)
    })
}

/// Lowercase `text` character by character into `out` (cleared first).
pub fn lower_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
        return;
    }
    out.reserve(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // ASCII stretch.
        let start = i;
        while i < bytes.len() && bytes[i] < 0x80 {
            i += 1;
        }
        if i > start {
            let at = out.len();
            out.push_str(&text[start..i]);
            out[at..].make_ascii_lowercase();
        }
        if i >= bytes.len() {
            break;
        }
        // Non-ASCII stretch.
        let start = i;
        while i < bytes.len() && bytes[i] >= 0x80 {
            i += 1;
        }
        for c in text[start..i].chars() {
            out.push(lower_char(c));
        }
    }
}

/// `text` lowercased per character; borrowed when nothing changes.
pub fn lowercase(text: &str) -> Cow<'_, str> {
    if !may_change(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    lower_into(text, &mut out);
    if out == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

/// Lowercase into `buf` when needed and return the lowercased text, borrowing
/// `text` itself when it cannot change.
#[inline]
pub fn lowercase_with<'a>(text: &'a str, buf: &'a mut String) -> &'a str {
    if may_change(text) {
        lower_into(text, buf);
        buf.as_str()
    } else {
        text
    }
}

/// The character that ends at byte `end` of `text` (`end` on a boundary).
#[inline]
pub fn char_before(text: &str, end: usize) -> Option<char> {
    text.get(..end).and_then(|s| s.chars().next_back())
}

/// The character that starts at byte `start` of `text` (`start` on a boundary).
#[inline]
pub fn char_at(text: &str, start: usize) -> Option<char> {
    text.get(start..).and_then(|s| s.chars().next())
}

/// byte-prefix(text, n) of §5.4: the longest prefix of at most `n` bytes that
/// ends on a character boundary.
#[inline]
pub fn byte_prefix(text: &str, n: usize) -> &str {
    if text.len() <= n {
        return text;
    }
    let mut cut = n;
    while cut > 0 && !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_table_stays_in_plane_and_keeps_class() {
        for &(from, to) in tables::LOWER {
            assert_eq!(from < 0x1_0000, to < 0x1_0000, "{from:x} -> {to:x}");
            let (f, t) = (char::from_u32(from).unwrap(), char::from_u32(to).unwrap());
            assert_eq!(lower_char(f), t);
            assert_eq!(class(f), class(t), "{from:x} -> {to:x}");
        }
    }

    #[test]
    fn basic_classes() {
        assert_eq!(class('a'), LETTER);
        assert_eq!(class('Z'), LETTER);
        assert_eq!(class('7'), DIGIT);
        assert_eq!(class('_'), PUNCT);
        assert_eq!(class('\''), PUNCT);
        assert_eq!(class('$'), SYMBOL);
        assert_eq!(class('+'), SYMBOL);
        assert_eq!(class(' '), SPACE);
        assert_eq!(class('\u{85}'), SPACE);
        assert_eq!(class('\u{a0}'), SPACE);
        assert_eq!(class('\u{3000}'), SPACE);
        assert_eq!(class('\u{200b}'), 0);
        assert_eq!(class('\u{301}'), 0); // combining acute: Mn, no class
        assert_eq!(class('\u{0}'), 0);
        assert_eq!(class('\u{fffd}'), SYMBOL);
        assert_eq!(class('漢'), LETTER | CJK);
        assert_eq!(class('か'), LETTER | CJK);
        assert_eq!(class('한'), LETTER | CJK);
        assert_eq!(class('😀'), SYMBOL);
        assert_eq!(class('\u{20000}'), LETTER | CJK);
        assert_eq!(class('\u{1d7ce}'), DIGIT); // MATHEMATICAL BOLD DIGIT ZERO
        assert_eq!(class('٣'), DIGIT);
        assert_eq!(class('²'), 0); // No, not Nd
        assert_eq!(class('‘'), PUNCT);
        assert_eq!(class('’'), PUNCT);
    }

    #[test]
    fn simple_lowercase() {
        assert_eq!(lower_char('İ'), 'i');
        assert_eq!(lower_char('\u{212a}'), 'k');
        assert_eq!(lower_char('Σ'), 'σ');
        assert_eq!(lower_char('ß'), 'ß');
        assert_eq!(lower_char('\u{10400}'), '\u{10428}');
        assert_eq!(lowercase("İSTANBUL"), "istanbul");
        assert_eq!(lowercase("ΟΔΟΣ"), "οδοσ");
        assert_eq!(lowercase("\u{212a}elvin"), "kelvin");
        assert!(matches!(lowercase("plain text"), Cow::Borrowed(_)));
        assert!(matches!(lowercase("déjà"), Cow::Borrowed(_)));
    }

    #[test]
    fn prefix_on_boundary() {
        assert_eq!(byte_prefix("héllo", 2), "h");
        assert_eq!(byte_prefix("héllo", 3), "hé");
        assert_eq!(byte_prefix("abc", 5), "abc");
        assert_eq!(byte_prefix("😀", 3), "");
    }
}
