//! A text's pooled value and the similarity of two.
//!
//! The pooled value is exact integers: the sum, over the text's known
//! tokens, of each row's int8 vector times its multiplier, with the counts
//! of known and unknown tokens and of the known tokens that are a single
//! character other than punctuation ("spelled": what the vocabulary only
//! knows letter by letter, as Korean jamo or most Japanese kana). Its direction is the model2vec mean (the
//! mean divides by a count, which a cosine ignores). The cosine of two
//! values is computed from 128-bit integer sums, converted to f64 once:
//! `dot / sqrt(|a|² × |b|²)`, clamped to [-1, 1]; the Python twin does the
//! same operations, so both give the same bits.

use super::keep::Visitor;
use super::table::{Table, NARROW_ROWS};
use super::visit::visit;
use super::wordpiece::Piece;

/// What is kept of a text: numbers only, never its tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pooled {
    pub sums: Vec<i64>,
    pub known: u32,
    pub unknown: u32,
    pub spelled: u32,
    /// Words read that are not punctuation nor ASCII digits only ("alphabetic").
    pub words: u32,
    /// Of those, the words the vocabulary knows as one token.
    pub whole: u32,
}

impl Pooled {
    /// Tokens kept, known and unknown.
    pub fn total(&self) -> u32 {
        self.known + self.unknown
    }

    /// The share of kept tokens that the vocabulary knows (0 when none was kept).
    pub fn known_share(&self) -> f64 {
        if self.total() == 0 {
            0.0
        } else {
            f64::from(self.known) / f64::from(self.total())
        }
    }

    /// The share of kept tokens known as more than one character (0 when
    /// none was kept): what the evidence rests on.
    pub fn word_share(&self) -> f64 {
        if self.total() == 0 {
            0.0
        } else {
            f64::from(self.known - self.spelled) / f64::from(self.total())
        }
    }

    /// The share of the words read that the vocabulary knows whole (0 when
    /// no word was read): low for languages it cuts into pieces.
    pub fn whole_share(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            f64::from(self.whole) / f64::from(self.words)
        }
    }

    /// The cosine of the two sums; `None` when either is the zero vector
    /// (no known token) or their dimensions differ.
    pub fn similarity(&self, other: &Pooled) -> Option<f64> {
        if self.sums.len() != other.sums.len() {
            return None;
        }
        // Each exact integer is converted to f64 once (round to nearest,
        // ties to even, as Python's float() of an int).
        let (dot, left, right) = if small(&self.sums) && small(&other.sums) {
            let (dot, left, right) = products_i64(&self.sums, &other.sums);
            if left == 0 || right == 0 {
                return None;
            }
            (dot as f64, left as f64, right as f64)
        } else {
            let (dot, left, right) = products_i128(&self.sums, &other.sums);
            if left == 0 || right == 0 {
                return None;
            }
            (dot as f64, left as f64, right as f64)
        };
        let cosine = dot / (left * right).sqrt();
        Some(cosine.clamp(-1.0, 1.0))
    }

    /// The pooled value of both texts together (sums and counts added);
    /// `None` when their dimensions differ.
    pub fn merged(&self, other: &Pooled) -> Option<Pooled> {
        let mut both = self.clone();
        both.absorb(other).then_some(both)
    }

    /// Add `other` into this value, as `merged` does, without a new
    /// allocation; false (and nothing added) when their dimensions differ.
    pub fn absorb(&mut self, other: &Pooled) -> bool {
        if self.sums.len() != other.sums.len() {
            return false;
        }
        for (sum, add) in self.sums.iter_mut().zip(&other.sums) {
            *sum = sum.saturating_add(*add);
        }
        self.known = self.known.saturating_add(other.known);
        self.unknown = self.unknown.saturating_add(other.unknown);
        self.spelled = self.spelled.saturating_add(other.spelled);
        self.words = self.words.saturating_add(other.words);
        self.whole = self.whole.saturating_add(other.whole);
        true
    }
}

/// Below this magnitude every product and sum of products fits in an i64
/// (2^26 × 2^26 × `MAX_DIMS` = 2^62): the sums of any one text are, and of
/// thousands of texts merged.
const SMALL: i64 = 1 << 26;
const _: () = assert!(super::table::MAX_DIMS <= 1 << 10);

fn small(sums: &[i64]) -> bool {
    // The OR of the magnitudes is below a power of two exactly when each is
    // (and it is one branch-free pass).
    sums.iter().fold(0u64, |bits, &x| bits | x.unsigned_abs()) < SMALL as u64
}

/// (a·b, a·a, b·b) exactly, in 64-bit integers (`small` sums only).
fn products_i64(a: &[i64], b: &[i64]) -> (i64, i64, i64) {
    let (mut dot, mut left, mut right) = (0i64, 0i64, 0i64);
    for (&x, &y) in a.iter().zip(b) {
        dot += x * y;
        left += x * x;
        right += y * y;
    }
    (dot, left, right)
}

/// (a·b, a·a, b·b) exactly, in 128-bit integers (any sums of the table's).
fn products_i128(a: &[i64], b: &[i64]) -> (i128, i128, i128) {
    let (mut dot, mut left, mut right) = (0i128, 0i128, 0i128);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (i128::from(x), i128::from(y));
        dot += x * y;
        left += x * x;
        right += y * y;
    }
    (dot, left, right)
}

/// The tokens kept of `text`, in order: at most `MAX_TOKENS`, from at most
/// `MAX_TEXT_BYTES` bytes.
pub fn tokens(table: &Table, text: &str) -> Vec<Piece> {
    struct Tokens(Vec<Piece>);
    impl Visitor for Tokens {
        fn word(&mut self, _whole: bool) {}
        fn token(&mut self, piece: Piece) {
            self.0.push(piece);
        }
    }
    let mut out = Tokens(Vec::new());
    visit(table, text, &mut out);
    out.0
}

/// Known rows gathered before they are summed (`Table::add_rows`, which
/// sums up to `NARROW_ROWS` at a time in 16-bit lanes): a stack array, so
/// pooling allocates only the sums it returns.
const BATCH: usize = 64;
const _: () = assert!(BATCH <= NARROW_ROWS);

/// The pooled value of one text, as its tokens arrive.
struct Pooling<'t> {
    table: &'t Table,
    pooled: Pooled,
    batch: [u32; BATCH],
    in_batch: usize,
}

impl Pooling<'_> {
    fn flush(&mut self) {
        let rows = &self.batch[..self.in_batch];
        self.table.add_rows(rows, &mut self.pooled.sums);
        self.in_batch = 0;
    }
}

impl Visitor for Pooling<'_> {
    #[inline(always)]
    fn word(&mut self, whole: bool) {
        self.pooled.words += 1;
        self.pooled.whole += u32::from(whole);
    }

    #[inline(always)]
    fn token(&mut self, piece: Piece) {
        match piece {
            Piece::Known(row) => {
                self.pooled.known += 1;
                self.pooled.spelled += u32::from(self.table.spelled(row as usize));
                self.batch[self.in_batch] = row;
                self.in_batch += 1;
                if self.in_batch == BATCH {
                    self.flush();
                }
            }
            Piece::Unknown => self.pooled.unknown += 1,
        }
    }
}

/// The pooled value of `text`.
pub fn pool(table: &Table, text: &str) -> Pooled {
    let mut pooling = Pooling {
        table,
        pooled: Pooled::default(),
        batch: [0; BATCH],
        in_batch: 0,
    };
    visit(table, text, &mut pooling);
    // Sizes the sums to the table's dimensions even when no row came.
    pooling.flush();
    pooling.pooled
}

#[cfg(test)]
mod tests {
    use super::super::table::tests::encode;
    use super::super::wordpiece_tables::MAX_TOKENS;
    use super::*;

    fn table() -> Table {
        let data = encode(
            &["pasta", "grams", "cook", "##ing", "car", "[UNK]"],
            &[
                vec![10, 2, 0],
                vec![8, 3, 1],
                vec![9, 0, 2],
                vec![1, 1, 1],
                vec![-5, 9, 0],
                vec![0, 0, 0],
            ],
            Some(&[1, 2, 1, 3, 1, 1]),
        );
        Table::parse(&data).unwrap()
    }

    #[test]
    fn pools_known_tokens_and_counts_unknown_ones() {
        let t = table();
        let p = pool(&t, "Cooking pasta, zebra!");
        // cook + ##ing×3 + pasta; "," "zebra" "!" unknown.
        assert_eq!(p.sums, [9 + 3 + 10, 3 + 2, 2 + 3]);
        assert_eq!((p.known, p.unknown, p.total()), (3, 3, 6));
        assert_eq!(p.known_share(), 0.5);
    }

    #[test]
    fn counts_tokens_known_only_letter_by_letter() {
        let data = encode(
            &["x", "##y", "xylophone", "!"],
            &[vec![1], vec![2], vec![3], vec![4]],
            None,
        );
        let t = Table::parse(&data).unwrap();
        let p = pool(&t, "xy xylophone! zz");
        assert_eq!((p.known, p.unknown, p.spelled), (4, 1, 2));
        assert_eq!(p.word_share(), 2.0 / 5.0);
        assert_eq!(p.merged(&p).map(|m| m.spelled), Some(4));
        assert_eq!(pool(&t, "").word_share(), 0.0);
    }

    #[test]
    fn similarity_is_the_integer_cosine() {
        let t = table();
        let a = pool(&t, "pasta");
        let b = pool(&t, "grams");
        let expected = (10.0 * 16.0 + 2.0 * 6.0) / ((104.0f64) * (16.0 * 16.0 + 36.0 + 4.0)).sqrt();
        assert_eq!(a.similarity(&b), Some(expected));
        assert_eq!(a.similarity(&a), Some(1.0));
        assert_eq!(a.similarity(&pool(&t, "zebra")), None);
        assert_eq!(pool(&t, "").known_share(), 0.0);
    }

    #[test]
    fn large_sums_take_the_wide_path_with_the_same_result() {
        let a = Pooled {
            sums: vec![3, -4, 12],
            known: 1,
            unknown: 0,
            spelled: 0,
            words: 0,
            whole: 0,
        };
        let scale = |p: &Pooled, k: i64| Pooled {
            sums: p.sums.iter().map(|x| x * k).collect(),
            ..p.clone()
        };
        let b = Pooled {
            sums: vec![5, 1, -2],
            known: 1,
            unknown: 0,
            spelled: 0,
            words: 0,
            whole: 0,
        };
        let narrow = a.similarity(&b);
        // Scaled by a power of two the cosine is the same real number, and
        // both paths compute it exactly before the one conversion to f64.
        let wide = scale(&a, 1 << 40).similarity(&scale(&b, 1 << 40));
        assert!(!small(&scale(&a, 1 << 40).sums));
        assert_eq!(narrow, wide);
        let huge = scale(&a, i64::MAX / 16);
        assert_eq!(huge.similarity(&huge), Some(1.0));
        let floor = Pooled {
            sums: vec![i64::MIN, 0, 1],
            ..a.clone()
        };
        assert_eq!(floor.similarity(&floor), Some(1.0));
    }

    #[test]
    fn merged_adds_sums_and_counts() {
        let t = table();
        let both = pool(&t, "pasta").merged(&pool(&t, "car zebra")).unwrap();
        assert_eq!(both, pool(&t, "pasta car zebra"));
        assert!(both.merged(&Pooled::default()).is_none());
    }

    #[test]
    fn counts_alphabetic_words_and_those_known_whole() {
        let t = table();
        // "cooking" is cut into two pieces; "42" and "." are not words.
        let p = pool(&t, "pasta, cooking 42 zzzz.");
        assert_eq!((p.words, p.whole), (3, 1));
        assert_eq!(p.whole_share(), 1.0 / 3.0);
        assert_eq!(pool(&t, "42 ...").whole_share(), 0.0);
    }

    #[test]
    fn keeps_at_most_max_tokens() {
        let t = table();
        let p = pool(&t, &"car ".repeat(MAX_TOKENS + 10));
        assert_eq!(p.total() as usize, MAX_TOKENS);
        assert_eq!(p.sums[0], -5 * MAX_TOKENS as i64);
        let cut = tokens(&t, &"cooking ".repeat(MAX_TOKENS));
        assert_eq!(cut.len(), MAX_TOKENS);
    }
}
