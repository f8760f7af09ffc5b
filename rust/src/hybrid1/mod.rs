//! Evaluator hybrid.1 (`docs/hybrid1.md`): lexical.2's analysis read with
//! hybrid.1's lexicons (its change markers, the additive phrases and the
//! lead-dependency words), and the pooled static vectors of each turn's
//! windowed text.

#[rustfmt::skip]
pub mod lexicon;

use std::sync::OnceLock;

use crate::phrase_lexicon::{Lexicons, IS_LEAD_DEPENDENCY};
use crate::vectors::pool::pool;
use crate::vectors::{Pooled, Table};

static HYBRID1: OnceLock<Lexicons> = OnceLock::new();

/// The lexicons of hybrid.1 (§2): lexical.2's, with its own change markers,
/// the additive phrases and the lead-dependency words.
#[inline]
pub fn lexicons() -> &'static Lexicons {
    HYBRID1.get_or_init(|| {
        let mut source = crate::lexical2::source();
        source.change = lexicon::CHANGE_MARKER;
        source.additive = lexicon::ADDITIVE;
        source
            .flagged
            .push((lexicon::LEAD_DEPENDENCY, IS_LEAD_DEPENDENCY));
        source.lead_window = lexicon::TASK_LEAD_WINDOW;
        Lexicons::build(&source)
    })
}

/// The live turn of hybrid.1 (§3.1–§3.3): lexical.2's analysis with the
/// hybrid.1 lexicons.
pub fn analyze_live<S: AsRef<str>>(segments: &[S]) -> crate::lexical2::LiveAnalysis {
    crate::lexical2::analyze_live_with(segments, lexicons())
}

/// The phrase flags of §3.1 with the hybrid.1 lexicons.
pub fn phrase_flags<S: AsRef<str>>(segments: &[S]) -> crate::phrases::PhraseFlags {
    crate::phrases::phrase_flags_with(segments, lexicons())
}

/// The pooled value of a turn's segments joined by "\n" (§3.5).
pub fn pool_segments<S: AsRef<str>>(table: &Table, segments: &[S]) -> Pooled {
    match segments {
        [one] => pool(table, one.as_ref()),
        _ => {
            let texts: Vec<&str> = segments.iter().map(AsRef::as_ref).collect();
            pool(table, &texts.join("\n"))
        }
    }
}
