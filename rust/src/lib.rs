//! turnsignal's native core: the decoders of the wire formats (`request`) and
//! the text analysis of the topic_continuity evaluators (`shared/spec/
//! topic-continuity.md` §5.4 and §6 for `lexical.1`; `lexical2` for the opt-in
//! `lexical.2`, docs/lexical2.md). The PyO3 binding is `python`, behind the
//! cargo feature of that name.
//!
//! Everything works on UTF-8 text (`&str`); offsets are byte offsets. Character
//! classes and lowercasing come only from the generated Unicode 17 tables.

pub mod bytemask;
pub mod charclass;
pub mod entities;
pub mod evidence;
pub mod fused;
pub mod hybrid1;
#[rustfmt::skip]
pub mod lexicon;
pub mod lexical2;
pub mod masking;
pub mod phrase_lexicon;
pub mod phrases;
pub mod pool;
pub mod quotes;
pub mod request;
pub mod score;
pub mod strset;
pub mod substrings;
#[rustfmt::skip]
#[allow(clippy::all)]
pub mod tables;
pub mod terms;
pub mod tokens;
pub mod vectors;

#[cfg(feature = "python")]
mod python;

pub use charclass::lowercase;
pub use entities::{entities, entity_set};
pub use masking::{masked_ranges, unmasked_runs};
pub use phrases::{phrase_flags, phrase_tokens, PhraseFlags};
pub use quotes::single_quote_spans;
pub use score::{analyze_live, containment, prose_term_count, score_prior, LiveAnalysis};
pub use terms::{term_set, terms};

/// The Unicode version of the character tables.
pub const UNICODE_VERSION: &str = tables::UNICODE_VERSION;
