//! Evaluator lexical.2 (`docs/lexical2.md`): the live cues, the stemmer, the
//! newest turn's act and overlap, and the definite reference, on top of
//! lexical.1's scores.

#[rustfmt::skip]
pub mod lexicon;
pub mod live;
pub mod recent;
pub mod stem;

use std::sync::OnceLock;

use crate::phrase_lexicon::{
    LexiconSource, Lexicons, IS_ADDITION, IS_DEFINITE_DETERMINER, IS_DEFINITE_OBJECT,
    IS_DEPENDENCY, IS_FILLER, IS_NEGATION, IS_POLAR, IS_PRONOUN, IS_WEAK,
};

pub use live::{analyze_live, analyze_live_with, live_cues, score_prior, LiveAnalysis, LiveCues};
pub use recent::{recent_act, Act};
pub use stem::stem;

static LEXICAL2: OnceLock<Lexicons> = OnceLock::new();

/// The lexicons of lexical.2 (§2).
#[inline]
pub fn lexicons() -> &'static Lexicons {
    LEXICAL2.get_or_init(|| Lexicons::build(&source()))
}

/// The lists lexical.2's lexicons are built from (hybrid.1 starts from them).
pub fn source() -> LexiconSource {
    LexiconSource {
        strong: lexicon::STRONG_REFERENCE,
        acknowledgement: lexicon::ACKNOWLEDGEMENT,
        change: lexicon::CHANGE_MARKER,
        closure: lexicon::CLOSURE,
        request: lexicon::REQUEST,
        flagged: vec![
            (lexicon::WEAK_REFERENCE, IS_WEAK),
            (lexicon::NEGATION, IS_NEGATION),
            (lexicon::REQUEST_FILLER, IS_FILLER),
            (lexicon::DEFINITE_OBJECT, IS_DEFINITE_OBJECT),
            (lexicon::ADDITION, IS_ADDITION),
            (lexicon::POLAR, IS_POLAR),
            (lexicon::PRONOUN, IS_PRONOUN),
            (lexicon::DEFINITE_DETERMINER, IS_DEFINITE_DETERMINER),
            (lexicon::DEPENDENCY, IS_DEPENDENCY),
        ],
        weak_window: lexicon::WEAK_REFERENCE_WINDOW,
        change_window: lexicon::CHANGE_LEADING_WINDOW,
        negation_lookback: lexicon::NEGATION_LOOKBACK,
        max_ack_tokens: lexicon::MAX_ACK_TOKENS,
        change_substring: lexicon::CHANGE_SUBSTRING,
        reference_substring: lexicon::REFERENCE_SUBSTRING,
        negation_substring: lexicon::NEGATION_SUBSTRING,
        negation_substring_lookback: lexicon::NEGATION_SUBSTRING_LOOKBACK,
        ..LexiconSource::default()
    }
}

/// The phrase flags of §3.2 (lexical.2 lexicons, substring markers).
pub fn phrase_flags<S: AsRef<str>>(segments: &[S]) -> crate::phrases::PhraseFlags {
    crate::phrases::phrase_flags_with(segments, lexicons())
}
