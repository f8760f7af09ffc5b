//! The live turn as lexical.2 sees it (§3.3, §3.4) and the per-prior-turn
//! score with the definite reference (§3.5).

use std::cell::RefCell;

use super::lexicon::{ADDITION_WINDOW, REQUEST_WINDOW};
use super::lexicons;
use super::stem::stem_with;
use crate::masking::{masked_ranges, unmasked_runs};
use crate::phrase_lexicon::{
    Lexicons, IS_ADDITION, IS_DEFINITE_DETERMINER, IS_DEFINITE_OBJECT, IS_DEPENDENCY, IS_FILLER,
    IS_LEAD_DEPENDENCY, IS_POLAR, IS_PRONOUN,
};
use crate::phrases::{leading_acks, longest_match, phrase_flags_visit, PhraseFlags, Token};
use crate::pool::{self, Pool, KEPT_SLOTS};
use crate::score::{self, containment, prose_terms, score_prior_marked, score_prior_with};
use crate::strset::StrSet;

/// No request near the start of the live turn.
pub const REQUEST_NONE: u8 = 0;
/// A request whose object is not definite: a request frame.
pub const REQUEST_FRAME: u8 = 1;
/// A request about something already on the table ("the postcode").
pub const REQUEST_DEFINITE: u8 = 2;

/// The cues of §3.3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveCues {
    pub lead: usize,
    pub request: u8,
    pub addition: bool,
    pub polar: bool,
    pub pronoun: bool,
    pub dependency: bool,
    pub question: bool,
    /// hybrid.1 only (false with lexicons without a lead window): an
    /// additive phrase in some segment, a lead-dependency word at the start.
    pub additive: bool,
    pub lead_dependent: bool,
}

/// Everything lexical.2 keeps of the live turn.
#[derive(Debug, Default)]
pub struct LiveAnalysis {
    /// lexical.1's L and E.
    pub base: score::LiveAnalysis,
    /// The content terms L2.
    pub content: StrSet,
    /// Bit `min(n, 63)` of `content_lens[b]`: some content term starts with
    /// byte `b` and has `n` bytes.
    pub content_lens: Vec<u64>,
    /// `marked[i]`: term `i` of L is a definite head (a member of D).
    pub marked: Vec<bool>,
    pub cues: LiveCues,
    pub flags: PhraseFlags,
    pub prose_terms: usize,
}

fn request_of(t: &[Token], lead: usize, lex: &Lexicons) -> u8 {
    let end = t.len().min(lead + REQUEST_WINDOW);
    for i in lead..end {
        let width = longest_match(t, i, &lex.request);
        if width == 0 {
            continue;
        }
        let mut j = i + width;
        while j < t.len() && lex.has(t[j].word, IS_FILLER) {
            j += 1;
        }
        let definite = j < t.len() && lex.has(t[j].word, IS_DEFINITE_OBJECT);
        return if definite {
            REQUEST_DEFINITE
        } else {
            REQUEST_FRAME
        };
    }
    REQUEST_NONE
}

/// A `?` or `？` outside code and double quotes (§6.2).
fn asks(segment: &str) -> bool {
    if !segment.contains('?') && !segment.contains('\u{ff1f}') {
        return false;
    }
    unmasked_runs(segment.len(), &masked_ranges(segment))
        .iter()
        .any(|&(a, b)| segment[a..b].contains(['?', '\u{ff1f}']))
}

/// The cues of the first segment's tokens `first` (change view).
fn first_segment_cues(first: &[Token], lex: &Lexicons, cues: &mut LiveCues) {
    let lead = leading_acks(first, &lex.ack);
    cues.lead = lead;
    cues.request = request_of(first, lead, lex);
    let window = &first[lead.min(first.len())..first.len().min(lead + ADDITION_WINDOW)];
    cues.addition = window.iter().any(|t| lex.has(t.word, IS_ADDITION));
    cues.polar = first.first().is_some_and(|t| lex.has(t.word, IS_POLAR));
    if lex.lead_window > 0 {
        let lead_end = first.len().min(lead + lex.lead_window);
        cues.lead_dependent = first[lead.min(lead_end)..lead_end]
            .iter()
            .any(|t| lex.has(t.word, IS_LEAD_DEPENDENCY));
    }
}

/// The phrase flags (§3.2), the cues (§3.3) and the definite heads (as marks
/// on L), from one tokenization of the live segments.
fn scan_live<S: AsRef<str>>(
    segments: &[S],
    base: &score::LiveAnalysis,
    mut marked: Vec<bool>,
    lex: &Lexicons,
) -> (PhraseFlags, LiveCues, Vec<bool>) {
    let mut cues = LiveCues::default();
    marked.clear();
    marked.resize(base.terms.len(), false);
    let flags = phrase_flags_visit(segments, lex, |j, segment, t, texts| {
        if j == 0 {
            first_segment_cues(t, lex, &mut cues);
        }
        // Each cue is settled by its first hit: later segments need not look.
        cues.pronoun = cues.pronoun || t.iter().any(|x| lex.has(x.word, IS_PRONOUN));
        cues.dependency = cues.dependency || t.iter().any(|x| lex.has(x.word, IS_DEPENDENCY));
        cues.question = cues.question || asks(segment);
        if lex.lead_window > 0 && !cues.additive {
            cues.additive = (0..t.len()).any(|i| longest_match(t, i, &lex.additive) > 0);
        }
        for i in 1..t.len() {
            if lex.has(t[i - 1].word, IS_DEFINITE_DETERMINER) {
                if let Some(k) = base.find_term(&texts[t[i].start..t[i].end]) {
                    marked[k] = true;
                }
            }
        }
    });
    (flags, cues, marked)
}

/// L2 = { stem(x) : x ∈ L, x ∉ stopwords, stem(x) ∉ stopwords }, into
/// `content` (cleared first); `buf` is the stemmer's scratch.
fn content_of(base: &score::LiveAnalysis, content: &mut StrSet, buf: &mut String) {
    content.clear();
    for term in base.terms.iter() {
        if super::lexicon::is_stopword(term) {
            continue;
        }
        let stemmed = stem_with(term, buf);
        if !super::lexicon::is_stopword(stemmed) {
            content.insert(stemmed);
        }
    }
}

/// What lexical.2 adds to lexical.1's analysis, given back when its live
/// turn is dropped (`LiveAnalysis::recycle`) and reused by the next one on
/// the same thread: allocated once, not per request.
#[derive(Default)]
struct Spare {
    content: StrSet,
    content_lens: Vec<u64>,
    marked: Vec<bool>,
    buf: String,
}

thread_local! {
    static SPARES: Pool<Spare> = const { RefCell::new(Vec::new()) };
}

impl LiveAnalysis {
    /// Hand the parts back for reuse by the next `analyze_live` on the
    /// current thread (small ones only; large ones are freed).
    pub fn recycle(self) {
        let LiveAnalysis {
            base,
            content,
            content_lens,
            marked,
            ..
        } = self;
        base.recycle();
        if content.capacity() <= KEPT_SLOTS {
            let buf = String::new();
            pool::give(
                &SPARES,
                Spare {
                    content,
                    content_lens,
                    marked,
                    buf,
                },
            );
        }
    }
}

/// The live turn of lexical.2 (§3.1–§3.4).
pub fn analyze_live<S: AsRef<str>>(segments: &[S]) -> LiveAnalysis {
    analyze_live_with(segments, lexicons())
}

/// The live turn of lexical.2 read with the lexicons `lex` (hybrid.1's
/// change markers and cues).
pub fn analyze_live_with<S: AsRef<str>>(segments: &[S], lex: &Lexicons) -> LiveAnalysis {
    let base = score::analyze_live(segments);
    let Spare {
        mut content,
        mut content_lens,
        marked,
        mut buf,
    } = pool::take(&SPARES).unwrap_or_default();
    content_of(&base, &mut content, &mut buf);
    content_lens.clear();
    content_lens.resize(256, 0);
    for term in content.iter() {
        if let Some(&b) = term.as_bytes().first() {
            content_lens[b as usize] |= 1u64 << term.len().min(63);
        }
    }
    let (flags, cues, marked) = scan_live(segments, &base, marked, lex);
    LiveAnalysis {
        flags,
        prose_terms: prose_terms(segments, &base),
        base,
        content,
        content_lens,
        marked,
        cues,
    }
}

/// The live cues alone (for the differential tests).
pub fn live_cues<S: AsRef<str>>(segments: &[S]) -> LiveCues {
    scan_live(
        segments,
        &score::analyze_live(segments),
        Vec::new(),
        lexicons(),
    )
    .1
}

/// (lexical, entity, capped, definite reference, recent overlap) of one
/// prior turn (§3.5). The overlap of the live content terms with the turn's
/// stemmed terms is computed for the newest turn only (`newest`), in the
/// same pass; it is 0 otherwise.
pub fn score_prior<S: AsRef<str>, T: AsRef<str>>(
    live: &LiveAnalysis,
    segments: &[S],
    tool_names: &[T],
    newest: bool,
) -> (f64, f64, bool, bool, f64) {
    if !newest || live.content.is_empty() {
        let (lexical, entity, capped, definite) =
            score_prior_marked(&live.base, segments, tool_names, &live.marked);
        return (lexical, entity, capped, definite, 0.0);
    }
    let mut seen = vec![false; live.content.len()];
    let mut found = 0usize;
    let mut buf = String::new();
    let (lexical, entity, capped, definite) = score_prior_with(
        &live.base,
        segments,
        tool_names,
        &live.marked,
        |first, len| live.may_stem_to_content(first, len),
        |term| {
            if let Some(i) = live.content.find(stem_with(term, &mut buf)) {
                if !seen[i] {
                    seen[i] = true;
                    found += 1;
                }
            }
        },
    );
    let overlap = containment(found, live.content.len());
    (lexical, entity, capped, definite, overlap)
}

impl LiveAnalysis {
    /// Whether a word that starts with byte `first` and has `len` bytes may
    /// stem to a content term (false positives only): a stem keeps its
    /// word's first byte and is at most `MAX_STEM_CUT` bytes shorter.
    #[inline]
    pub fn may_stem_to_content(&self, first: u8, len: usize) -> bool {
        let bits = self.content_lens[first as usize];
        let lo = len.saturating_sub(super::stem::MAX_STEM_CUT).min(63);
        let hi = len.min(63);
        let window = (u64::MAX >> (63 - (hi - lo))) << lo;
        bits & window != 0
    }

    /// The sorted definite heads D (for the differential tests).
    pub fn heads(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.marked.len())
            .filter(|&i| self.marked[i])
            .map(|i| self.base.terms.get_index(i).to_owned())
            .collect();
        out.sort();
        out
    }
}
