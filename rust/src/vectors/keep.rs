//! What a visit of a text hands over (`Visitor`), and the `MAX_TOKENS`
//! bound on it (`Keep`): shared by the fused ASCII path (`super::ascii`)
//! and the general one (`super::visit`), which chooses between them.

use super::wordpiece::{Cut, Piece};
use super::wordpiece_tables::MAX_TOKENS;

/// What a visit hands over, in the text's order.
pub(super) trait Visitor {
    /// A word was read that is alphabetic (some character neither an ASCII
    /// digit nor punctuation); `whole` when it is one known token. Called
    /// before the word's tokens, for every word reached while tokens may
    /// still be kept.
    fn word(&mut self, whole: bool);
    /// A kept token.
    fn token(&mut self, piece: Piece);
}

/// A visitor with the count of the tokens it was handed.
pub(super) struct Keep<'v, V: Visitor> {
    visitor: &'v mut V,
    kept: usize,
}

impl<'v, V: Visitor> Keep<'v, V> {
    /// `visitor`, handed no token yet.
    pub(super) fn new(visitor: &'v mut V) -> Self {
        Keep { visitor, kept: 0 }
    }

    #[inline(always)]
    pub(super) fn word(&mut self, whole: bool) {
        self.visitor.word(whole);
    }

    /// Hand one token over; `false` once `MAX_TOKENS` are kept, where the
    /// visit stops (mid-word if so).
    #[inline(always)]
    pub(super) fn token(&mut self, piece: Piece) -> bool {
        self.visitor.token(piece);
        self.kept += 1;
        self.kept < MAX_TOKENS
    }

    /// Hand a word's tokens over; `false` when the visit stops.
    #[inline]
    pub(super) fn cut(&mut self, cut: &Cut) -> bool {
        cut.pieces().all(|piece| self.token(piece))
    }
}
