//! The vocabulary's lookup table: a piece's bytes to its row, touching as
//! few cache lines as a lookup can.
//!
//! Pooling is bound by memory, not by instructions: between two requests
//! the rest of an evaluation pushes the vocabulary out of the second-level
//! cache, and a text's tokens are looked up in random places of it. So a
//! slot holds the key and the row together (one line read per probe, where
//! a key array, an index array and a row array were three), and a small
//! filter of one bit per hash answers most lookups of pieces the
//! vocabulary lacks without reading the slots at all: greedy
//! longest-match-first tries many such pieces for each word it cuts.
//!
//! A piece of 1 to 8 bytes without NUL is its bytes packed into a `u64`
//! (`pack_short`), compared whole; a longer piece is found by hash and its
//! bytes compared, exactly, with the piece kept beside the slots.

use crate::strset::{eq_bytes, hash_bytes, pack_short};

/// One slot: the key, the row and what the key is (0 empty, 1 a packed
/// short piece, 2 + i the hash of the long piece `i`). Four to a line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Slot {
    key: u64,
    row: u32,
    tag: u32,
}

const EMPTY: u32 = 0;
const SHORT: u32 = 1;
const LONG: u32 = 2;

/// Fibonacci hashing: the high bits of the product pick the slot, those of
/// a second product the filter's bit, so the two are independent.
const SLOT_MIX: u64 = 0x9e37_79b9_7f4a_7c15;
const FILTER_MIX: u64 = 0xc2b2_ae3d_27d4_eb4f;
/// Bits of filter per piece: about one lookup of an absent piece in nine
/// still reads the slots.
const FILTER_BITS_PER_PIECE: usize = 8;

/// Pieces of one side of the vocabulary (word-initial or continuation).
#[derive(Clone, Debug, Default)]
pub struct PieceIndex {
    slots: Vec<Slot>,
    slot_shift: u32,
    filter: Vec<u64>,
    filter_shift: u32,
    long_bytes: String,
    long_spans: Vec<(u32, u32)>,
}

impl PieceIndex {
    /// The index of `pieces` (non-empty strings, each with its row); a
    /// repeated piece keeps its first row.
    pub fn new(pieces: &[(&str, u32)]) -> PieceIndex {
        // A load of at most 3/4: most probes end in their first line.
        let slots = (pieces.len() * 4 / 3 + 1).next_power_of_two().max(8);
        let bits = (pieces.len() * FILTER_BITS_PER_PIECE)
            .next_power_of_two()
            .max(64);
        let mut index = PieceIndex {
            slots: vec![Slot::default(); slots],
            slot_shift: 64 - slots.trailing_zeros(),
            filter: vec![0; bits / 64],
            filter_shift: 64 - bits.trailing_zeros(),
            ..PieceIndex::default()
        };
        for &(piece, row) in pieces {
            index.insert(piece, row);
        }
        index
    }

    fn insert(&mut self, piece: &str, row: u32) {
        let bytes = piece.as_bytes();
        if bytes.is_empty() || self.find(bytes).is_some() {
            return;
        }
        let (key, tag) = match pack_short(bytes) {
            Some(key) => (key, SHORT),
            None => {
                let start = self.long_bytes.len() as u32;
                self.long_bytes.push_str(piece);
                self.long_spans.push((start, self.long_bytes.len() as u32));
                (hash_bytes(bytes), LONG + self.long_spans.len() as u32 - 1)
            }
        };
        let bit = self.filter_bit(key);
        self.filter[bit / 64] |= 1 << (bit % 64);
        let mask = self.slots.len() - 1;
        let mut at = self.slot_of(key);
        while self.slots[at].tag != EMPTY {
            at = (at + 1) & mask;
        }
        self.slots[at] = Slot { key, row, tag };
    }

    #[inline(always)]
    fn slot_of(&self, key: u64) -> usize {
        (key.wrapping_mul(SLOT_MIX) >> self.slot_shift) as usize
    }

    #[inline(always)]
    fn filter_bit(&self, key: u64) -> usize {
        (key.wrapping_mul(FILTER_MIX) >> self.filter_shift) as usize
    }

    /// Whether the filter admits `key` (false: certainly absent).
    #[inline(always)]
    fn admits(&self, key: u64) -> bool {
        let bit = self.filter_bit(key);
        self.filter[bit / 64] >> (bit % 64) & 1 != 0
    }

    /// The row of the first slot from `key`'s that `matches`, before an
    /// empty one; None at once when the filter turns `key` away.
    #[inline(always)]
    fn probe(&self, key: u64, matches: impl Fn(&Slot) -> bool) -> Option<u32> {
        if !self.admits(key) {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = self.slot_of(key);
        loop {
            let slot = &self.slots[at];
            if slot.tag == EMPTY {
                return None;
            }
            if slot.key == key && matches(slot) {
                return Some(slot.row);
            }
            at = (at + 1) & mask;
        }
    }

    /// The row of the piece packed as `key` (`pack_short`'s key of 1 to 8
    /// bytes without NUL).
    #[inline(always)]
    pub fn get_short(&self, key: u64) -> Option<u32> {
        self.probe(key, |slot| slot.tag == SHORT)
    }

    /// The row of the piece of more than 8 bytes, or with a NUL.
    fn get_long(&self, bytes: &[u8]) -> Option<u32> {
        self.probe(hash_bytes(bytes), |slot| {
            let Some(&(start, end)) = slot
                .tag
                .checked_sub(LONG)
                .and_then(|i| self.long_spans.get(i as usize))
            else {
                return false;
            };
            eq_bytes(
                &self.long_bytes.as_bytes()[start as usize..end as usize],
                bytes,
            )
        })
    }

    /// The row of the piece whose bytes are `bytes`.
    #[inline]
    pub fn find(&self, bytes: &[u8]) -> Option<u32> {
        match pack_short(bytes) {
            Some(key) => self.get_short(key),
            None => self.get_long(bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_piece_and_nothing_else() {
        let words: Vec<String> = (0..3000)
            .map(|i| match i % 3 {
                0 => format!("w{i}"),
                1 => format!("a longer piece {i}"),
                _ => format!("x\u{0}{i}"),
            })
            .collect();
        let pieces: Vec<(&str, u32)> = words
            .iter()
            .enumerate()
            .map(|(row, w)| (w.as_str(), row as u32 + 7))
            .collect();
        let index = PieceIndex::new(&pieces);
        for (piece, row) in &pieces {
            assert_eq!(index.find(piece.as_bytes()), Some(*row), "{piece:?}");
        }
        for absent in [
            "w1",
            "w",
            "a longer piece 0",
            "a longer piece",
            "x\u{0}0",
            "",
        ] {
            assert_eq!(index.find(absent.as_bytes()), None, "{absent:?}");
        }
        let key = pack_short(b"w0").unwrap();
        assert_eq!(index.get_short(key), Some(7));
    }

    #[test]
    fn a_repeated_piece_keeps_its_first_row() {
        let index = PieceIndex::new(&[("ab", 1), ("ab", 2), ("abcdefghij", 3), ("abcdefghij", 4)]);
        assert_eq!(index.find(b"ab"), Some(1));
        assert_eq!(index.find(b"abcdefghij"), Some(3));
    }

    #[test]
    fn a_short_key_equal_to_a_long_hash_is_not_a_match() {
        // The tags keep the two kinds apart whatever their keys.
        let long = "a piece of more than eight bytes";
        let index = PieceIndex::new(&[(long, 5)]);
        assert_eq!(index.get_short(hash_bytes(long.as_bytes())), None);
        let empty = PieceIndex::new(&[]);
        assert_eq!(empty.find(b"a"), None);
        assert_eq!(empty.find(long.as_bytes()), None);
    }
}
