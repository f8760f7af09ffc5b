//! The fuzz driver shared by the libFuzzer target (`fuzz_targets/hotpath.rs`)
//! and the stable-Rust loop (`src/bin/stable_fuzz.rs`).
//!
//! `drive` runs every public function of the core on text made from the input
//! and checks the invariants that hold for *any* text: offsets are in bounds
//! and on character boundaries, ranges are ordered, scores are finite and in
//! [0, 1], the live analysis agrees with the primitives it is built from. A
//! violated invariant panics, which is what a fuzzer reports.

use turnsignal::charclass::{byte_prefix, char_at, char_before, class, lower_char};
use turnsignal::lexical2;
use turnsignal::lexicon::is_stopword;
use turnsignal::masking::merge_ranges;
use turnsignal::phrases::{tokenize, tokens_of_view, Tokens};
use turnsignal::strset::StrSet;
use turnsignal::{
    analyze_live, containment, entities, entity_set, lowercase, masked_ranges, phrase_flags,
    phrase_tokens, prose_term_count, score_prior, single_quote_spans, term_set, terms,
    unmasked_runs,
};

/// Separators that cut one fuzz input into live segments, prior segments and
/// tool names (control characters, rare in the text a fuzzer mutates towards).
const PRIOR: char = '\u{1d}';
const TOOLS: char = '\u{1f}';
const SEGMENT: char = '\u{1e}';

/// Run the whole core on `data` (any bytes; invalid UTF-8 is replaced, the
/// Python binding does the same with lone surrogates).
pub fn drive(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;
    primitives(text);
    let (live, rest) = text.split_once(PRIOR).unwrap_or((text, ""));
    let (prior, tools) = rest.split_once(TOOLS).unwrap_or((rest, ""));
    let live: Vec<&str> = live.split(SEGMENT).collect();
    let prior: Vec<&str> = prior.split(SEGMENT).collect();
    let tools: Vec<&str> = if tools.is_empty() {
        Vec::new()
    } else {
        tools.split(SEGMENT).collect()
    };
    turn_level(&live, &prior, &tools);
}

fn check_ranges(text: &str, ranges: &[(usize, usize)], what: &str) {
    let mut last = 0;
    for &(a, b) in ranges {
        assert!(
            a <= b && b <= text.len(),
            "{what}: range {a}..{b} out of 0..{}",
            text.len()
        );
        assert!(a >= last, "{what}: ranges overlap or are out of order");
        assert!(
            text.is_char_boundary(a) && text.is_char_boundary(b),
            "{what}: not on a char boundary"
        );
        last = b;
    }
}

fn check_score(value: f64, what: &str) {
    assert!(
        value.is_finite() && (0.0..=1.0).contains(&value),
        "{what} = {value}"
    );
}

/// The single-text functions.
fn primitives(text: &str) {
    let lowered = lowercase(text);
    let _ = terms(text);
    let _ = terms(&lowered);

    let masked = masked_ranges(text);
    check_ranges(text, &masked, "masked_ranges");
    let quotes = single_quote_spans(text);
    check_ranges(text, &quotes, "single_quote_spans");
    let merged = merge_ranges(&masked, &quotes);
    check_ranges(text, &merged, "merge_ranges");
    let runs = unmasked_runs(text.len(), &merged);
    check_ranges(text, &runs, "unmasked_runs");

    for change_view in [false, true] {
        for (token, offset, run) in phrase_tokens(text, change_view) {
            assert!(!token.is_empty(), "empty phrase token");
            assert!(
                offset <= text.len() && text.is_char_boundary(offset),
                "token offset {offset}"
            );
            let _ = run;
        }
        let mut out = Tokens::default();
        tokens_of_view(text, change_view, &mut out);
        for i in 0..out.len() {
            let _ = out.token_text(i);
        }
    }
    let mut out = Tokens::default();
    tokenize(text, &runs, &mut out);

    let (values, _capped) = entities(text);
    assert!(
        values.windows(2).all(|w| w[0] < w[1]),
        "entities not sorted and distinct"
    );

    // Character-level helpers at every boundary of a bounded prefix.
    let prefix = byte_prefix(text, 512);
    assert!(text.starts_with(prefix) && prefix.len() <= 512);
    for (i, c) in prefix.char_indices() {
        let _ = (
            class(c),
            lower_char(c),
            char_before(text, i),
            char_at(text, i),
        );
    }
    let mut set = StrSet::new();
    for term in terms(prefix) {
        let _ = is_stopword(&term);
        set.insert(&term);
        assert!(set.find(&term).is_some(), "StrSet lost a member");
    }
}

/// The per-turn functions the evaluator calls.
fn turn_level(live: &[&str], prior: &[&str], tools: &[&str]) {
    let analysis = analyze_live(live);
    let live_terms = term_set(live);
    assert_eq!(
        analysis.term_count(),
        live_terms.len(),
        "analyze_live disagrees with term_set"
    );
    let (live_entities, _) = entity_set(live, &[] as &[&str]);
    assert_eq!(
        analysis.entity_count(),
        live_entities.len(),
        "analyze_live disagrees with entity_set"
    );

    let _ = prose_term_count(live);
    let _ = phrase_flags(live);
    let _ = phrase_flags(prior);

    let (lexical, entity, _) = score_prior(&analysis, prior, tools);
    check_score(lexical, "lexical");
    check_score(entity, "entity");
    // A turn contains itself: every live term and entity is found again.
    let (lexical, entity, _) = score_prior(&analysis, live, &[] as &[&str]);
    if analysis.term_count() > 0 {
        assert_eq!(lexical, 1.0, "live turn scored against itself");
    }
    if analysis.entity_count() > 0 {
        assert_eq!(entity, 1.0, "live entities scored against themselves");
    }
    check_score(
        containment(live_terms.len().min(3), live_terms.len()),
        "containment",
    );
    lexical2_level(live, prior, tools);
}

/// The lexical.2 calls: the same scores as lexical.1, overlaps in [0, 1], a
/// turn against itself finds all its content terms and definite heads.
fn lexical2_level(live: &[&str], prior: &[&str], tools: &[&str]) {
    let analysis = lexical2::analyze_live(live);
    assert_eq!(analysis.base.term_count(), analyze_live(live).term_count());
    assert!(analysis.cues.lead <= live.first().map_or(0, |s| s.len()));
    for newest in [false, true] {
        let (lexical, entity, _, _, overlap) =
            lexical2::score_prior(&analysis, prior, tools, newest);
        let (l1_lexical, l1_entity, _) = score_prior(&analysis.base, prior, tools);
        assert_eq!(
            (lexical, entity),
            (l1_lexical, l1_entity),
            "lexical.2 scores"
        );
        check_score(overlap, "recent overlap");
    }
    let (_, _, _, definite, overlap) =
        lexical2::score_prior(&analysis, live, &[] as &[&str], true);
    if !analysis.content.is_empty() {
        assert_eq!(overlap, 1.0, "content terms scored against themselves");
    }
    assert_eq!(
        definite,
        !analysis.heads().is_empty(),
        "definite heads against themselves"
    );
    for text in prior.iter().chain(live) {
        let _ = lexical2::recent_act(text);
        let _ = lexical2::stem(text);
    }
    let _ = lexical2::phrase_flags(prior);
}
