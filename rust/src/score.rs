//! §6.6 prose term count and §6.7 scores of one prior turn.

use std::cell::RefCell;

use crate::charclass;
use crate::entities::Collector;
use crate::fused::{scan_segment, Scratch};
use crate::lexicon::is_stopword;
use crate::masking::{masked_ranges, merge_ranges, unmasked_runs};
use crate::phrases::{phrase_flags, PhraseFlags};
use crate::pool::{self, Pool, KEPT_SLOTS};
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

/// Scratch space reused by every call on one thread: the text work of a
/// short turn costs less than the allocations it would otherwise make.
#[derive(Default)]
pub(crate) struct Workspace {
    scratch: Scratch,
    ebuf: String,
    buf: String,
    seg: StrSet,
    runs: StrSet,
    prose: StrSet,
    terms_found: Vec<bool>,
    entities_found: Vec<bool>,
}

impl Workspace {
    /// Drop what a very large input grew, so that a thread keeps little.
    fn trim(&mut self) {
        const KEEP: usize = 1 << 16;
        for set in [&mut self.seg, &mut self.runs, &mut self.prose] {
            if set.capacity() > KEEP {
                *set = StrSet::new();
            }
        }
        for b in [&mut self.ebuf, &mut self.buf] {
            if b.capacity() > KEEP {
                *b = String::new();
            }
        }
    }
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// Run `f` with this thread's workspace.
pub(crate) fn with_workspace<R>(f: impl FnOnce(&mut Workspace) -> R) -> R {
    WORKSPACE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut w) => {
            let r = f(&mut w);
            w.trim();
            r
        }
        Err(_) => f(&mut Workspace::default()),
    })
}

/// prose_term_count(live_segments) of §6.6.
pub fn prose_term_count<S: AsRef<str>>(segments: &[S]) -> usize {
    with_workspace(|w| prose_term_count_in(w, segments))
}

fn prose_term_count_in<S: AsRef<str>>(w: &mut Workspace, segments: &[S]) -> usize {
    let Workspace { scratch, prose, .. } = w;
    prose.clear();
    for s in segments {
        let s = s.as_ref();
        let masked = merge_ranges(&masked_ranges(s), &single_quote_spans(s));
        for (a, b) in unmasked_runs(s.len(), &masked) {
            scan_segment(
                &s[a..b],
                scratch,
                |_, _| true,
                |t| {
                    if !is_stopword(t) {
                        prose.insert(t);
                    }
                },
                None,
            );
        }
    }
    prose.len()
}

/// Whether a segment has code, quotes or single-quote spans to mask: when
/// none has, its prose terms are its terms (§6.6 over the whole segment).
fn has_masks(s: &str) -> bool {
    !masked_ranges(s).is_empty() || !single_quote_spans(s).is_empty()
}

/// prose_term_count of the live turn whose L is `analysis`: its term count
/// when nothing is masked (the same words, without a second scan).
pub fn prose_terms<S: AsRef<str>>(segments: &[S], analysis: &LiveAnalysis) -> usize {
    with_workspace(|w| prose_terms_in(w, segments, analysis))
}

fn prose_terms_in<S: AsRef<str>>(
    w: &mut Workspace,
    segments: &[S],
    analysis: &LiveAnalysis,
) -> usize {
    if segments.iter().any(|s| has_masks(s.as_ref())) {
        prose_term_count_in(w, segments)
    } else {
        analysis.term_count()
    }
}

/// Everything the evaluator reads of the live turn, in one call: L and E,
/// the prose term count and the phrase flags (§6.6–§6.8).
pub fn analyze_live_turn<S: AsRef<str>>(segments: &[S]) -> (LiveAnalysis, usize, PhraseFlags) {
    with_workspace(|w| {
        let analysis = analyze_live_in(w, segments);
        let prose = prose_terms_in(w, segments, &analysis);
        let flags = if segments.is_empty() {
            PhraseFlags::default()
        } else {
            phrase_flags(segments)
        };
        (analysis, prose, flags)
    })
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
    term_filter: Box<LenByFirst>,
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
    fn rebuild(&mut self, set: &StrSet) {
        self.bits = [0; 256];
        for t in set.iter() {
            if let Some(&b) = t.as_bytes().first() {
                self.bits[b as usize] |= 1u64 << t.len().min(63);
            }
        }
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
    with_workspace(|w| analyze_live_in(w, segments))
}

thread_local! {
    /// Analyses given back (`LiveAnalysis::recycle`) for the next live turn
    /// on this thread: their sets and indexes are reused, not reallocated.
    static POOL: Pool<LiveAnalysis> = const { RefCell::new(Vec::new()) };
}

impl LiveAnalysis {
    /// Hand this analysis back for reuse by the next `analyze_live` on the
    /// current thread (small ones only; large ones are freed).
    pub fn recycle(self) {
        if self.terms.capacity() <= KEPT_SLOTS && self.entities.capacity() <= KEPT_SLOTS {
            pool::give(&POOL, self);
        }
    }

    /// A pooled analysis, cleared, or a new one sized for `bytes` of text.
    fn fresh(bytes: usize) -> LiveAnalysis {
        match pool::take(&POOL) {
            Some(mut a) => {
                a.terms.clear();
                a.entities.clear();
                a.capped = false;
                a
            }
            None => {
                // Sized from the text (a term takes two bytes or more, with
                // its separator) so that neither set grows while it is filled.
                let expected = (bytes / 3 + 1).min(1 << 12);
                LiveAnalysis {
                    terms: StrSet::with_capacity(expected, bytes),
                    entities: StrSet::with_capacity(expected / 2, bytes / 2),
                    ..LiveAnalysis::default()
                }
            }
        }
    }
}

fn analyze_live_in<S: AsRef<str>>(w: &mut Workspace, segments: &[S]) -> LiveAnalysis {
    let bytes: usize = segments.iter().map(|s| s.as_ref().len()).sum();
    let mut analysis = LiveAnalysis::fresh(bytes);
    let LiveAnalysis {
        terms, entities, ..
    } = &mut analysis;
    let Workspace {
        scratch,
        ebuf,
        seg,
        runs,
        ..
    } = w;
    let mut capped = false;
    for s in segments {
        let s = s.as_ref();
        seg.clear();
        let mut coll = Collector::with_run_memo(seg, ebuf, runs);
        coll.delimited_passes(s);
        scan_segment(
            s,
            scratch,
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
    analysis.capped = capped;
    analysis.short_terms.rebuild(&analysis.terms);
    analysis.term_filter.rebuild(&analysis.terms);
    analysis
}

/// Marks found members of a set of known size and counts them.
struct Found<'a> {
    seen: &'a mut Vec<bool>,
    count: usize,
}

impl<'a> Found<'a> {
    fn new(seen: &'a mut Vec<bool>, n: usize) -> Self {
        seen.clear();
        seen.resize(n, false);
        Found { seen, count: 0 }
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
    also_term: F,
) -> (f64, f64, bool, bool)
where
    S: AsRef<str>,
    T: AsRef<str>,
    W: Fn(u8, usize) -> bool,
    F: FnMut(&str),
{
    with_workspace(|w| score_prior_in(w, live, segments, tool_names, marked, also_wants, also_term))
}

fn score_prior_in<S, T, W, F>(
    w: &mut Workspace,
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
    let Workspace {
        scratch,
        ebuf,
        buf,
        seg,
        runs,
        terms_found,
        entities_found,
        ..
    } = w;
    let mut terms_found = Found::new(terms_found, live.terms.len());
    let mut entities_found = Found::new(entities_found, live.entities.len());
    let mut capped = false;
    for s in segments {
        let s = s.as_ref();
        seg.clear();
        let mut coll = Collector::with_run_memo(seg, ebuf, runs);
        coll.delimited_passes(s);
        if live.terms.is_empty() {
            coll.word_runs(s);
        } else {
            scan_segment(
                s,
                scratch,
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
            let lowered = charclass::lowercase_with(t.as_ref(), buf);
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
        .zip(terms_found.seen.iter())
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
