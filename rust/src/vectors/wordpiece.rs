//! Greedy longest-match-first WordPiece (the model's `WordPiece` model):
//! a word is cut from the left into the longest vocabulary pieces, every
//! piece after the first looked up with the `##` continuation prefix; a word
//! that cannot be cut so, or has more than `MAX_WORD_CHARS` characters, is
//! one unknown token.

use super::wordpiece_tables::MAX_WORD_CHARS;
use crate::strset::{pack_short, ShortIndex, StrSet};

const CONTINUATION: &str = "##";

/// One token of a word: a vocabulary row, or unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Known(u32),
    Unknown,
}

/// The vocabulary: word-initial pieces and continuation pieces (without
/// their `##`), each with its row and the longest piece in bytes; pieces of
/// at most 8 bytes (most English words) are also found by one integer key.
#[derive(Debug, Default)]
pub struct Vocab {
    initial: StrSet,
    initial_short: ShortIndex,
    initial_rows: Vec<u32>,
    longest_initial: usize,
    continuation: StrSet,
    continuation_short: ShortIndex,
    continuation_rows: Vec<u32>,
    longest_continuation: usize,
}

impl Vocab {
    /// The vocabulary of `tokens`, the row of each being its position.
    /// A repeated token keeps its first row.
    pub fn new<'a>(tokens: impl ExactSizeIterator<Item = &'a str>) -> Vocab {
        // Room for every token in either set: no table grows while filling.
        let room = tokens.len();
        let mut vocab = Vocab {
            initial: StrSet::with_capacity(room, 8 * room),
            continuation: StrSet::with_capacity(room, 8 * room),
            ..Vocab::default()
        };
        for (row, token) in tokens.enumerate() {
            let row = row as u32;
            match token
                .strip_prefix(CONTINUATION)
                .filter(|rest| !rest.is_empty())
            {
                Some(rest) => {
                    if vocab.continuation.insert(rest).1 {
                        vocab.continuation_rows.push(row);
                        vocab.longest_continuation = vocab.longest_continuation.max(rest.len());
                    }
                }
                None => {
                    if vocab.initial.insert(token).1 {
                        vocab.initial_rows.push(row);
                        vocab.longest_initial = vocab.longest_initial.max(token.len());
                    }
                }
            }
        }
        vocab.initial_short = ShortIndex::build(&vocab.initial);
        vocab.continuation_short = ShortIndex::build(&vocab.continuation);
        vocab
    }

    fn find(&self, piece: &str, continued: bool) -> Option<u32> {
        let (set, short, rows) = if continued {
            (
                &self.continuation,
                &self.continuation_short,
                &self.continuation_rows,
            )
        } else {
            (&self.initial, &self.initial_short, &self.initial_rows)
        };
        // Every short member is in the short index: a miss there is final.
        let index = match pack_short(piece.as_bytes()) {
            Some(key) => short.get(key),
            None => set.find(piece),
        };
        index.map(|i| rows[i])
    }

    /// The pieces of one word, in order, appended to `out` (`Known` rows,
    /// or a single `Unknown`).
    pub fn pieces(&self, word: &str, out: &mut Vec<Piece>) {
        let first = out.len();
        // A word of at most MAX_WORD_CHARS bytes has at most as many characters.
        if word.len() > MAX_WORD_CHARS && word.chars().nth(MAX_WORD_CHARS).is_some() {
            out.push(Piece::Unknown);
            return;
        }
        let mut start = 0;
        while start < word.len() {
            let continued = start > 0;
            let longest = if continued {
                self.longest_continuation
            } else {
                self.longest_initial
            };
            let mut end = word.len().min(start + longest);
            let mut found = None;
            while end > start {
                if word.is_char_boundary(end) {
                    if let Some(row) = self.find(&word[start..end], continued) {
                        found = Some(row);
                        break;
                    }
                }
                end -= 1;
            }
            match found {
                Some(row) => {
                    out.push(Piece::Known(row));
                    start = end;
                }
                None => {
                    out.truncate(first);
                    out.push(Piece::Unknown);
                    return;
                }
            }
        }
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
