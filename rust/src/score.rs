//! §6.6 prose term count and §6.7 scores of one prior turn.

use crate::charclass;
use crate::entities::Collector;
use crate::fused::{scan_segment, Scratch};
use crate::lexicon::is_stopword;
use crate::masking::{masked_ranges, merge_ranges, unmasked_runs};
use crate::quotes::single_quote_spans;
use crate::strset::{pack_short, ShortIndex, StrSet};

/// containment(A, B) = |A ∩ B| / |A|, 0 when A is empty.
#[inline]
pub fn containment(shared: usize, a_len: usize) -> f64 {
    if a_len == 0 {
        0.0
    } else {
        shared as f64 / a_len as f64
    }
}

/// prose_term_count(live_segments) of §6.6.
pub fn prose_term_count<S: AsRef<str>>(segments: &[S]) -> usize {
    let mut set = StrSet::new();
    let mut scratch = Scratch::default();
    for s in segments {
        let s = s.as_ref();
        let masked = merge_ranges(&masked_ranges(s), &single_quote_spans(s));
        for (a, b) in unmasked_runs(s.len(), &masked) {
            scan_segment(
                &s[a..b],
                &mut scratch,
                |_, _| true,
                |t| {
                    if !is_stopword(t) {
                        set.insert(t);
                    }
                },
                None,
            );
        }
    }
    set.len()
}

/// The live turn's term set L and entity set E (§6.7).
#[derive(Clone, Debug, Default)]
pub struct LiveAnalysis {
    pub terms: StrSet,
    pub entities: StrSet,
    pub capped: bool,
    /// The short members of `terms`, for fast lookups.
    short_terms: ShortIndex,
    /// Rejects most words that are not in `terms` before any lowercasing.
    term_filter: LenByFirst,
}

/// Bit `min(len, 63)` of `bits[b]` is set when some term starts with byte `b`
/// and has `len` bytes: a filter with false positives only.
#[derive(Clone, Debug)]
struct LenByFirst {
    bits: [u64; 256],
}

impl Default for LenByFirst {
    fn default() -> Self {
        LenByFirst { bits: [0; 256] }
    }
}

impl LenByFirst {
    fn build(set: &StrSet) -> Self {
        let mut f = LenByFirst::default();
        for t in set.iter() {
            if let Some(&b) = t.as_bytes().first() {
                f.bits[b as usize] |= 1u64 << t.len().min(63);
            }
        }
        f
    }

    #[inline]
    fn may_contain(&self, first: u8, len: usize) -> bool {
        self.bits[first as usize] & (1u64 << len.min(63)) != 0
    }
}

impl LiveAnalysis {
    /// The index of term `t` in L, if it is a member.
    #[inline]
    pub fn find_term(&self, t: &str) -> Option<usize> {
        match pack_short(t.as_bytes()) {
            Some(key) => self.short_terms.get(key),
            None => self.terms.find(t),
        }
    }

    pub fn term_count(&self) -> usize {
        self.terms.len()
    }
    pub fn entity_count(&self) -> usize {
        self.entities.len()
    }
}

/// L and E of the live user segments.
pub fn analyze_live<S: AsRef<str>>(segments: &[S]) -> LiveAnalysis {
    let mut terms = StrSet::new();
    let mut entities = StrSet::new();
    let mut seg = StrSet::new();
    let mut runs = StrSet::new();
    let (mut scratch, mut ebuf) = (Scratch::default(), String::new());
    let mut capped = false;
    for s in segments {
        let s = s.as_ref();
        seg.clear();
        let mut coll = Collector::with_run_memo(&mut seg, &mut ebuf, &mut runs);
        coll.delimited_passes(s);
        scan_segment(
            s,
            &mut scratch,
            |_, _| true,
            |t| {
                if !is_stopword(t) {
                    terms.insert(t);
                }
            },
            Some(&mut coll),
        );
        capped |= coll.capped();
        for v in seg.iter() {
            entities.insert(v);
        }
    }
    let short_terms = ShortIndex::build(&terms);
    let term_filter = LenByFirst::build(&terms);
    LiveAnalysis {
        terms,
        entities,
        capped,
        short_terms,
        term_filter,
    }
}

/// Marks found members of a set of known size and counts them.
struct Found {
    seen: Vec<bool>,
    count: usize,
}

impl Found {
    fn new(n: usize) -> Self {
        Found {
            seen: vec![false; n],
            count: 0,
        }
    }
    #[inline]
    fn mark(&mut self, i: usize) {
        if !self.seen[i] {
            self.seen[i] = true;
            self.count += 1;
        }
    }
}

/// (lexical, entity, capped) of one prior turn (§6.7).
///
/// Neither T nor P is materialised as a whole: each term of the prior turn is
/// looked up in L, each entity in E. P's segments are still collected one by
/// one, since their caps matter. Terms and entity word runs come from one
/// fused scan per segment.
pub fn score_prior<S: AsRef<str>, T: AsRef<str>>(
    live: &LiveAnalysis,
    segments: &[S],
    tool_names: &[T],
) -> (f64, f64, bool) {
    let (lexical, entity, capped, _) = score_prior_marked(live, segments, tool_names, &[]);
    (lexical, entity, capped)
}

/// [`score_prior`], plus whether some live term whose index is marked in
/// `marked` (indexes of `live.terms`; shorter means unmarked) is a term of
/// this prior turn: lexical.2's definite reference, found in the same pass.
pub fn score_prior_marked<S: AsRef<str>, T: AsRef<str>>(
    live: &LiveAnalysis,
    segments: &[S],
    tool_names: &[T],
    marked: &[bool],
) -> (f64, f64, bool, bool) {
    score_prior_with(live, segments, tool_names, marked, |_, _| false, |_| {})
}

/// [`score_prior_marked`], also calling `also_term` with every term of the
/// turn that `also_wants(first byte, length)` admits (the pre-filter of
/// [`scan_segment`]; symbols and non-ASCII terms always come): a second use
/// of the same pass, such as lexical.2's overlap with the newest turn.
pub fn score_prior_with<S, T, W, F>(
    live: &LiveAnalysis,
    segments: &[S],
    tool_names: &[T],
    marked: &[bool],
    also_wants: W,
    mut also_term: F,
) -> (f64, f64, bool, bool)
where
    S: AsRef<str>,
    T: AsRef<str>,
    W: Fn(u8, usize) -> bool,
    F: FnMut(&str),
{
    let (mut scratch, mut ebuf, mut buf) = (Scratch::default(), String::new(), String::new());
    let mut terms_found = Found::new(live.terms.len());
    let mut entities_found = Found::new(live.entities.len());
    let mut seg = StrSet::new();
    let mut runs = StrSet::new();
    let mut capped = false;
    for s in segments {
        let s = s.as_ref();
        seg.clear();
        let mut coll = Collector::with_run_memo(&mut seg, &mut ebuf, &mut runs);
        coll.delimited_passes(s);
        if live.terms.is_empty() {
            coll.word_runs(s);
        } else {
            scan_segment(
                s,
                &mut scratch,
                |first, len| live.term_filter.may_contain(first, len) || also_wants(first, len),
                |t| {
                    if let Some(i) = live.find_term(t) {
                        terms_found.mark(i);
                    }
                    also_term(t);
                },
                Some(&mut coll),
            );
        }
        capped |= coll.capped();
        if !live.entities.is_empty() {
            for v in seg.iter() {
                if let Some(i) = live.entities.find(v) {
                    entities_found.mark(i);
                }
            }
        }
    }
    if !live.entities.is_empty() {
        for t in tool_names {
            let lowered = charclass::lowercase_with(t.as_ref(), &mut buf);
            if let Some(i) = live.entities.find(lowered) {
                entities_found.mark(i);
            }
        }
    }
    let lexical = containment(terms_found.count, live.terms.len());
    let entity = if live.entities.is_empty() {
        0.0
    } else {
        containment(entities_found.count, live.entities.len())
    };
    let marked_found = marked
        .iter()
        .zip(&terms_found.seen)
        .any(|(&m, &seen)| m && seen);
    (lexical, entity, capped, marked_found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_terms_exclude_code_and_quotes() {
        assert_eq!(prose_term_count(&["alpha beta gamma"]), 3);
        assert_eq!(prose_term_count(&["alpha `beta` 'gamma' \"delta\""]), 1);
        // Adjacent ranges: "ab" between two touching ranges is not formed.
        assert_eq!(prose_term_count(&["xy\"q\"'r' zz"]), 2);
        // Pieces are scanned separately: no word across a mask.
        assert_eq!(prose_term_count(&["ab`x`cd"]), 2);
        assert_eq!(prose_term_count(&["the and of"]), 0);
        assert_eq!(prose_term_count(&["alpha", "alpha beta"]), 2);
        assert_eq!(prose_term_count::<&str>(&[]), 0);
    }

    #[test]
    fn scores() {
        let live = analyze_live(&["How do I fix src/main.rs and the parse_config bug?"]);
        // terms: fix, src, main, rs, parse_config, bug, ? (symbol? no: '?' is punct)
        assert_eq!(live.term_count(), 6);
        assert_eq!(live.entity_count(), 3); // src/main.rs, main.rs, parse_config
        assert!(!live.capped);
        let (lex, ent, capped) = score_prior(&live, &["The bug is in main.rs"], &["parse_config"]);
        assert_eq!(lex, 3.0 / 6.0);
        assert_eq!(ent, 2.0 / 3.0);
        assert!(!capped);
        let (lex, ent, capped) = score_prior::<&str, &str>(&live, &[], &[]);
        assert_eq!((lex, ent, capped), (0.0, 0.0, false));
        // E empty: entity is 0 but the cap is still computed.
        let live = analyze_live(&["hello there friend"]);
        assert_eq!(live.entity_count(), 0);
        let big: String = (0..1100).map(|i| format!("{} ", 1000 + i)).collect();
        let (lex, ent, capped) = score_prior(&live, &[big.as_str()], &["x"]);
        assert_eq!((lex, ent, capped), (0.0, 0.0, true));
        // Tool names are lowercased per character.
        let live = analyze_live(&["call `get_weather` now"]);
        let (_, ent, _) = score_prior(&live, &["nothing"], &["GET_WEATHER"]);
        assert_eq!(ent, 1.0);
        let (_, ent, _) = score_prior(&live, &["nothing"], &["get_weather."]);
        assert_eq!(ent, 0.0);
    }

    #[test]
    fn containment_is_plain_division() {
        assert_eq!(containment(1, 3), 1.0 / 3.0);
        assert_eq!(containment(0, 0), 0.0);
    }
}
