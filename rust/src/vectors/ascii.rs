//! The fast path for ASCII text (almost every text): the basic tokenizer and
//! WordPiece fused into one pass over the bytes, building no string and
//! allocating nothing. In ASCII the tokenizer is simple: a word is a run of
//! letters, digits and dropped controls, lowercased, the controls removed;
//! white space ends it; each punctuation byte is a word of its own.
//!
//! The bytes are read 8 at a time (one `u64`): a few integer operations
//! find how many of them are letters or digits and lowercase them, so a
//! word of up to 8 bytes is one step. Each word's bytes go into a fixed
//! buffer from which a piece of at most 8 bytes is one masked load, and the
//! whole word is probed first: most words are one piece, and greedy
//! longest-match-first tries the whole word first anyway, so the answer is
//! the same.

use super::keep::{Keep, Visitor};
use super::normalize::{ASCII, DROP, PUNCTUATION, WORD};
use super::wordpiece::{AsciiWord, Cut, Piece, Vocab, ASCII_WORD_ROOM};
use super::wordpiece_tables::MAX_WORD_CHARS;

const ONES: u64 = u64::MAX / 255;
const HIGH: u64 = 0x80 * ONES;

// The bytes of a word are exactly letters and digits (what `in_range`
// finds below), and every other byte is dropped, white or punctuation.
const _: () = {
    let mut c = 0;
    while c < 128 {
        assert!((ASCII[c] == WORD) == (c as u8).is_ascii_alphanumeric());
        c += 1;
    }
};

/// The high bit of each byte of `x` (all below 0x80) that lies in
/// `lo..=hi` (with `lo` at least b'0'): no sum below crosses into the next
/// byte, since each byte stays below 0x100.
#[inline(always)]
const fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    let at_least_lo = x + (0x80 - lo as u64) * ONES;
    let above_hi = x + (0x7f - hi as u64) * ONES;
    at_least_lo & !above_hi & HIGH
}

/// The 8 bytes of `text` from `at` (`at < text.len()`), zero past its end
/// (zero is not a byte of a word).
#[inline(always)]
fn chunk(text: &[u8], at: usize) -> u64 {
    let rest = &text[at..];
    match rest.first_chunk::<8>() {
        Some(bytes) => u64::from_le_bytes(*bytes),
        None => rest
            .iter()
            .rev()
            .fold(0, |chunk, &b| chunk << 8 | u64::from(b)),
    }
}

/// Hand the words and tokens of `text` (ASCII, already cut to
/// `MAX_TEXT_BYTES`) to `keep`, until it stops.
pub(super) fn visit<V: Visitor>(vocab: &Vocab, text: &[u8], keep: &mut Keep<V>) {
    let mut word: AsciiWord = [0; ASCII_WORD_ROOM];
    // One cut for the text's words (its room is zeroed once, not per word).
    let mut cut = Cut::new();
    let mut len = 0; // bytes of the word so far (those past MAX_WORD_CHARS are not all kept)
    let mut seen = 0u64; // the OR of the word's lowercased bytes
    let mut at = 0;
    while at < text.len() {
        let x = chunk(text, at);
        // OR 0x20 maps each uppercase letter to its lowercase (and no other
        // byte into a..z); digits are tested on the bytes as they are.
        let letters = in_range(x | (0x20 * ONES), b'a', b'z');
        let alphanumeric = letters | in_range(x, b'0', b'9');
        let run = (!alphanumeric & HIGH).trailing_zeros() / 8;
        if run > 0 {
            // A letter's lowercase has the bit 0x20: the high bit shifted down.
            let lowered = (x | (letters >> 2)) & (u64::MAX >> (64 - 8 * run));
            if let Some(slot) = word.get_mut(len..len + 8) {
                slot.copy_from_slice(&lowered.to_le_bytes());
            }
            seen |= lowered;
            len += run as usize;
            at += run as usize;
            if run == 8 {
                continue;
            }
        }
        // The byte that ended the run; zero (dropped) past the text's end,
        // where the loop then ends.
        let b = (x >> (8 * run)) as u8;
        at += 1;
        let class = ASCII[usize::from(b & 0x7f)];
        if class == DROP {
            continue;
        }
        if len > 0 {
            if !hand_word(vocab, &word, len, seen, &mut cut, keep) {
                return;
            }
            len = 0;
            seen = 0;
        }
        if class == PUNCTUATION && !keep.token(vocab.ascii_char(b)) {
            return;
        }
    }
    if len > 0 {
        hand_word(vocab, &word, len, seen, &mut cut, keep);
    }
}

/// Hand over one word of `len` bytes (the first `MAX_WORD_CHARS` in
/// `word`) and its tokens; `false` when the visit stops. It is alphabetic
/// exactly when it holds a letter: a lowercase letter has the bit 0x40, a
/// digit not.
#[inline(always)]
fn hand_word<V: Visitor>(
    vocab: &Vocab,
    word: &AsciiWord,
    len: usize,
    seen: u64,
    cut: &mut Cut,
    keep: &mut Keep<V>,
) -> bool {
    let letters = seen & (0x40 * ONES) != 0;
    if len > MAX_WORD_CHARS {
        if letters {
            keep.word(false);
        }
        return keep.token(Piece::Unknown);
    }
    if let Some(row) = vocab.whole_ascii(word, len) {
        if letters {
            keep.word(true);
        }
        return keep.token(Piece::Known(row));
    }
    cut_word(vocab, word, len, letters, cut, keep)
}

/// The rare word that is not one piece: cut greedily.
#[inline(never)]
fn cut_word<V: Visitor>(
    vocab: &Vocab,
    word: &AsciiWord,
    len: usize,
    letters: bool,
    cut: &mut Cut,
    keep: &mut Keep<V>,
) -> bool {
    vocab.cut_ascii(word, len, cut);
    if letters {
        keep.word(cut.whole());
    }
    keep.cut(cut)
}
