//! Static word vectors: the semantic evidence of a text at lexical speed.
//!
//! A table distilled from the sentence model all-MiniLM-L6-v2
//! (`scripts/build_static_vectors.py`, `docs/static-vectors.md`) maps each
//! WordPiece token of the model's vocabulary to an int8 vector. A text's
//! pooled value is the integer sum of its known tokens' vectors with the
//! counts of known and unknown tokens; two pooled values compare by cosine.
//! Every float is computed from integers in one order, so the pure-Python
//! twin (`turnsignal._reference.vectors`) gives the same bits.
//!
//! * `normalize` — the BERT basic tokenizer: dropped controls, white space,
//!   CJK characters and punctuation as words, accents stripped, lowercased;
//! * `wordpiece` — greedy longest-match-first WordPiece over the vocabulary,
//!   looked up in `index` (one cache line per probe);
//! * `table` — the one binary format of the table, parsed once;
//! * `visit` — a text's words and kept tokens, through `ascii` (the
//!   tokenizer and WordPiece fused into one pass, for ASCII texts) or
//!   `normalize` then `wordpiece` (any text);
//! * `pool` — pooled values, their similarity and their sum.
//!
//! Bounded by count: at most `MAX_TEXT_BYTES` bytes of a text are read and
//! at most `MAX_TOKENS` tokens kept (`data/wordpiece.toml`).

mod ascii;
mod index;
mod keep;
pub mod normalize;
pub mod pool;
pub mod table;
mod visit;
pub mod wordpiece;
#[rustfmt::skip]
#[allow(clippy::all)]
pub mod wordpiece_tables;

pub use pool::{pool, Pooled};
pub use table::{Table, TableError};
pub use wordpiece_tables::{MAX_TEXT_BYTES, MAX_TOKENS, MAX_WORD_CHARS};
