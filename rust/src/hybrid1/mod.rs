//! Evaluator hybrid.1 (`docs/hybrid1.md`): lexical.2's analysis read with
//! hybrid.1's lexicons (its change markers, the additive phrases and the
//! lead-dependency words), and the pooled static vectors of each turn's
//! windowed text.

#[rustfmt::skip]
pub mod lexicon;

use std::sync::OnceLock;

use crate::phrase_lexicon::{Lexicons, IS_LEAD_DEPENDENCY, IS_MARKER_LEAD};
use crate::vectors::pool::pool;
use crate::vectors::{Pooled, Table, MAX_TEXT_BYTES, MAX_TOKENS};

static HYBRID1: OnceLock<Lexicons> = OnceLock::new();

/// The lexicons of hybrid.1 (§2): lexical.2's, with its own change markers,
/// the additive phrases, the lead-dependency words and what a marker needs
/// before it (the marker-lead words, no quotation around it).
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
        source.flagged.push((lexicon::MARKER_LEAD, IS_MARKER_LEAD));
        source.marker_leads = true;
        source.marker_quotes = lexicon::MARKER_QUOTES;
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
    pool_turn(table, segments, false).0
}

/// The pooled value of a turn's segments joined by "\n" (§3.5) and, when
/// `with_last`, that of its last segment alone (None without segments).
///
/// Each segment is read once: "\n" ends a word, so the joined text's words
/// are the segments' words, and the sum of the segments' values is the
/// joined text's value whenever neither of its bounds cuts it (at most
/// `MAX_TEXT_BYTES` bytes joined, at most `MAX_TOKENS` tokens in all).
/// Otherwise the joined text is pooled as such, so the value is always
/// exactly `pool(segments.join("\n"))`.
pub fn pool_turn<S: AsRef<str>>(
    table: &Table,
    segments: &[S],
    with_last: bool,
) -> (Pooled, Option<Pooled>) {
    let (first, rest) = match segments {
        [] => return (pool(table, ""), None),
        [first, rest @ ..] => (first.as_ref(), rest),
    };
    let mut turn = pool(table, first);
    let mut last = None;
    let mut joined_bytes = first.len();
    for segment in rest {
        let segment = segment.as_ref();
        let value = pool(table, segment);
        joined_bytes += 1 + segment.len();
        turn.absorb(&value); // one table: the dimensions agree
        last = Some(value);
    }
    if joined_bytes > MAX_TEXT_BYTES || turn.total() as usize > MAX_TOKENS {
        let texts: Vec<&str> = segments.iter().map(AsRef::as_ref).collect();
        turn = pool(table, &texts.join("\n"));
    }
    let last = match (with_last, last) {
        (false, _) => None,
        (true, Some(value)) => Some(value),
        // One segment: it is the whole turn.
        (true, None) => Some(turn.clone()),
    };
    (turn, last)
}

/// Whether the live turn's pooled value is semantic evidence (§3.5): enough
/// of its tokens are words the vocabulary knows, and enough of its words
/// are known whole.
pub fn semantic(live: &Pooled) -> bool {
    live.word_share() >= lexicon::SEMANTIC_MIN_WORD_SHARE
        && live.whole_share() >= lexicon::SEMANTIC_MIN_WHOLE_SHARE
}

/// The similarities of the live turn's pooled value (§3.5) with the newest
/// prior turn (`turn`) and with the message before the live turn (`last`,
/// the newest turn's last segment): `(newest, last)`, None where a side is
/// missing or has no known token, `last` also None below the counts of
/// known tokens it needs.
pub fn similarities(
    live: &Pooled,
    turn: Option<&Pooled>,
    last: Option<&Pooled>,
) -> (Option<f64>, Option<f64>) {
    let newest = turn.and_then(|turn| live.similarity(turn));
    let last = last
        .filter(|last| {
            live.known as usize >= lexicon::SIMILARITY_MIN_LIVE_KNOWN
                && last.known as usize >= lexicon::SIMILARITY_MIN_PRIOR_KNOWN
        })
        .and_then(|last| live.similarity(last));
    (newest, last)
}

#[cfg(test)]
mod tests {
    #[test]
    fn hybrid1_markers_lead_their_sentence() {
        let lex = lexicons();
        let flags = |s: &str| {
            let f = crate::phrases::phrase_flags_with(&[s], lex);
            (f.change_marker, f.marker_ambiguous)
        };
        assert_eq!(flags("New topic: hiking"), (true, false));
        assert_eq!(flags("ok so I have another question"), (true, false));
        // Other words before it in its sentence: ambiguous.
        assert_eq!(
            flags("Swap number three for a different question."),
            (false, true)
        );
        // A new sentence starts after '.', ':' ... and 。.
        assert_eq!(flags("I see. Can I ask another question?"), (true, false));
        assert_eq!(flags("讲完了。换个话题吧"), (true, false));
        // Inside a marker quotation, or inside its token after other text.
        assert_eq!(flags("„Neues Thema“ ist der Titel"), (false, true));
        assert_eq!(flags("3番を別の質問に差し替えて"), (false, true));
        assert_eq!(flags("ところで別の質問です"), (true, false));
        // lexical.2's lexicons read no such rule.
        let l2 = crate::lexical2::lexicons();
        assert!(
            crate::phrases::phrase_flags_with(&["Swap number three for a different question."], l2)
                .change_marker
        );
    }

    use super::*;
    use crate::vectors::table::tests::encode;

    /// A vocabulary of whole words and one continuation piece, 2 dims.
    fn table() -> Table {
        let tokens = ["pasta", "grams", "cook", "##ing", "car"];
        let rows = [vec![3, 1], vec![2, 2], vec![1, 3], vec![1, 1], vec![-1, 2]];
        Table::parse(&encode(&tokens, &rows, None)).unwrap()
    }

    fn joined(t: &Table, segments: &[&str]) -> Pooled {
        pool(t, &segments.join("\n"))
    }

    #[test]
    fn a_turn_is_its_joined_text() {
        let t = table();
        for segments in [
            &[][..],
            &["pasta"][..],
            &["Cooking pasta", "car, zebra!"][..],
            &["", "grams", ""][..],
            &["coo", "king"][..],
        ] {
            let (turn, last) = pool_turn(&t, segments, true);
            assert_eq!(turn, joined(&t, segments), "{segments:?}");
            assert_eq!(last, segments.last().map(|s| pool(&t, s)), "{segments:?}");
            assert_eq!(pool_turn(&t, segments, false), (turn, None));
        }
    }

    #[test]
    fn a_turn_over_the_bounds_is_pooled_joined() {
        let t = table();
        // Tokens: each segment under the cap, both together over it.
        let half = "car ".repeat(MAX_TOKENS / 2 + 1);
        let (turn, _) = pool_turn(&t, &[half.as_str(), half.as_str()], false);
        assert_eq!(turn.total() as usize, MAX_TOKENS);
        assert_eq!(turn, joined(&t, &[&half, &half]));
        // Bytes: the joined text is cut inside the second segment.
        let long = "z".repeat(MAX_TEXT_BYTES - 3);
        let (turn, _) = pool_turn(&t, &[long.as_str(), "pasta pasta"], false);
        assert_eq!(turn, joined(&t, &[&long, "pasta pasta"]));
        assert_eq!(turn.known, 0);
    }
}
