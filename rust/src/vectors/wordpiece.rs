//! Greedy longest-match-first WordPiece (the model's `WordPiece` model):
//! a word is cut from the left into the longest vocabulary pieces, every
//! piece after the first looked up with the `##` continuation prefix; a word
//! that cannot be cut so, or has more than `MAX_WORD_CHARS` characters, is
//! one unknown token.

use super::index::PieceIndex;
use super::wordpiece_tables::MAX_WORD_CHARS;

const CONTINUATION: &str = "##";

/// One token of a word: a vocabulary row, or unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Known(u32),
    Unknown,
}

/// The vocabulary: word-initial pieces and continuation pieces (without
/// their `##`), each with its row (`PieceIndex`), and the longest piece of
/// each side in bytes.
#[derive(Debug, Default)]
pub struct Vocab {
    initial: PieceIndex,
    longest_initial: usize,
    continuation: PieceIndex,
    longest_continuation: usize,
}

impl Vocab {
    /// The vocabulary of `tokens`, the row of each being its position.
    /// A repeated token keeps its first row.
    pub fn new<'a>(tokens: impl ExactSizeIterator<Item = &'a str>) -> Vocab {
        let mut initial = Vec::with_capacity(tokens.len());
        let mut continuation = Vec::new();
        for (row, token) in tokens.enumerate() {
            let row = row as u32;
            match token
                .strip_prefix(CONTINUATION)
                .filter(|rest| !rest.is_empty())
            {
                Some(rest) => continuation.push((rest, row)),
                None => initial.push((token, row)),
            }
        }
        let longest = |pieces: &[(&str, u32)]| pieces.iter().map(|(p, _)| p.len()).max();
        Vocab {
            longest_initial: longest(&initial).unwrap_or(0),
            longest_continuation: longest(&continuation).unwrap_or(0),
            initial: PieceIndex::new(&initial),
            continuation: PieceIndex::new(&continuation),
        }
    }

    /// The word-initial or the continuation pieces.
    #[inline(always)]
    fn side(&self, continued: bool) -> &PieceIndex {
        if continued {
            &self.continuation
        } else {
            &self.initial
        }
    }

    fn find(&self, piece: &str, continued: bool) -> Option<u32> {
        self.side(continued).find(piece.as_bytes())
    }

    /// The pieces of one word, in order, appended to `out` (`Known` rows,
    /// or a single `Unknown`).
    pub fn pieces(&self, word: &str, out: &mut Vec<Piece>) {
        let mut cut = Cut::new();
        self.cut(word, &mut cut);
        out.extend(cut.pieces());
    }

    /// Cut one word into `out`.
    pub fn cut(&self, word: &str, out: &mut Cut) {
        // A word of at most MAX_WORD_CHARS bytes has at most as many characters.
        if word.len() > MAX_WORD_CHARS && word.chars().nth(MAX_WORD_CHARS).is_some() {
            out.len = 0;
            return;
        }
        self.greedy(
            word.len(),
            |end| word.is_char_boundary(end),
            |start, end, continued| self.find(&word[start..end], continued),
            out,
        );
    }

    /// Greedy longest-match-first over a word of `len` bytes (at most
    /// `MAX_WORD_CHARS` characters): `boundary(end)` says whether a piece
    /// may end at byte `end`, `find` looks the bytes `start..end` up.
    #[inline(always)]
    fn greedy(
        &self,
        len: usize,
        boundary: impl Fn(usize) -> bool,
        find: impl Fn(usize, usize, bool) -> Option<u32>,
        out: &mut Cut,
    ) {
        out.len = 0;
        let mut start = 0;
        while start < len {
            let continued = start > 0;
            let longest = if continued {
                self.longest_continuation
            } else {
                self.longest_initial
            };
            let mut end = len.min(start + longest);
            let row = loop {
                if end == start {
                    out.len = 0;
                    return;
                }
                if boundary(end) {
                    if let Some(row) = find(start, end, continued) {
                        break row;
                    }
                }
                end -= 1;
            };
            // Each piece holds at least one of the word's at most
            // MAX_WORD_CHARS characters: `out.rows` has room.
            out.rows[out.len] = row;
            out.len += 1;
            start = end;
        }
    }

    /// `start..end` of an ASCII word looked up: a piece of at most 8 bytes
    /// by one load masked to its length (the key `pack_short` would build:
    /// an ASCII word holds no NUL), a longer one by hash.
    #[inline(always)]
    fn find_ascii(
        &self,
        word: &AsciiWord,
        start: usize,
        end: usize,
        continued: bool,
    ) -> Option<u32> {
        let side = self.side(continued);
        let n = end - start;
        if n <= 8 {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&word[start..start + 8]);
            side.get_short(u64::from_le_bytes(bytes) & (u64::MAX >> (64 - 8 * n)))
        } else {
            side.find(&word[start..end])
        }
    }

    /// The row of the first `len` bytes of `word` (lowercase ASCII, 1 to
    /// `MAX_WORD_CHARS` bytes) when they are one word-initial piece: the
    /// first probe of the greedy cut, and the answer for most words.
    #[inline]
    pub fn whole_ascii(&self, word: &AsciiWord, len: usize) -> Option<u32> {
        if len > self.longest_initial {
            return None;
        }
        self.find_ascii(word, 0, len, false)
    }

    /// Cut the first `len` bytes of `word` (lowercase ASCII, 1 to
    /// `MAX_WORD_CHARS` bytes) into `out`: every byte ends a character.
    pub fn cut_ascii(&self, word: &AsciiWord, len: usize, out: &mut Cut) {
        self.greedy(
            len,
            |_| true,
            |start, end, continued| self.find_ascii(word, start, end, continued),
            out,
        );
    }

    /// The token of an ASCII character that is a word of its own
    /// (punctuation): its word-initial row, or unknown.
    #[inline]
    pub fn ascii_char(&self, c: u8) -> Piece {
        if c == 0 {
            return Piece::Unknown;
        }
        match self.initial.get_short(u64::from(c)) {
            Some(row) => Piece::Known(row),
            None => Piece::Unknown,
        }
    }
}

/// Room for one word of the ASCII path: at most `MAX_WORD_CHARS` bytes,
/// then 8 more so that 8 bytes load from any position within the word.
pub const ASCII_WORD_ROOM: usize = MAX_WORD_CHARS + 8;

/// One word's bytes on the ASCII path (see `ASCII_WORD_ROOM`).
pub type AsciiWord = [u8; ASCII_WORD_ROOM];

/// The pieces of one word: the rows of its known pieces, or none when the
/// word is one unknown token. Fixed room, so cutting never allocates.
pub struct Cut {
    rows: [u32; MAX_WORD_CHARS],
    len: usize,
}

impl Default for Cut {
    fn default() -> Self {
        Cut::new()
    }
}

impl Cut {
    pub fn new() -> Cut {
        Cut {
            rows: [0; MAX_WORD_CHARS],
            len: 0,
        }
    }

    /// The rows of the known pieces (empty when the word is unknown).
    pub fn rows(&self) -> &[u32] {
        &self.rows[..self.len]
    }

    /// Whether the word is one known token.
    pub fn whole(&self) -> bool {
        self.len == 1
    }

    /// The tokens of the word, in order.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        let unknown = (self.len == 0).then_some(Piece::Unknown);
        self.rows()
            .iter()
            .map(|&row| Piece::Known(row))
            .chain(unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocab {
        Vocab::new(
            [
                "[UNK]", "un", "##aff", "##able", "aff", "##a", "a", "é", "##é",
            ]
            .into_iter(),
        )
    }

    fn cut(word: &str) -> Vec<Piece> {
        let mut out = Vec::new();
        vocab().pieces(word, &mut out);
        out
    }

    #[test]
    fn longest_match_first_with_continuations() {
        use Piece::*;
        assert_eq!(cut("unaffable"), [Known(1), Known(2), Known(3)]);
        assert_eq!(cut("aff"), [Known(4)]);
        assert_eq!(cut("affa"), [Known(4), Known(5)]);
        assert_eq!(cut("éé"), [Known(7), Known(8)]);
    }

    #[test]
    fn a_word_that_cannot_be_cut_is_one_unknown() {
        assert_eq!(cut("unx"), [Piece::Unknown]);
        assert_eq!(cut("xa"), [Piece::Unknown]);
    }

    #[test]
    fn a_word_longer_than_the_bound_is_unknown() {
        let long = "a".repeat(MAX_WORD_CHARS);
        assert_eq!(cut(&long).len(), MAX_WORD_CHARS);
        assert_eq!(cut(&format!("{long}a")), [Piece::Unknown]);
    }

    #[test]
    fn keeps_what_came_before_in_the_buffer() {
        let mut out = vec![Piece::Known(9)];
        vocab().pieces("unx", &mut out);
        assert_eq!(out, [Piece::Known(9), Piece::Unknown]);
    }
}
