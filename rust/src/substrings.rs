//! Substring markers (lexical.2 §3.2): markers in scripts that do not
//! separate words (zh, ja, ko) are found inside a run's token text.

use crate::tokens::Token;

/// Occurrences of `markers` in the run texts of the tokens `t` (their texts
/// are slices of `texts`): `(token index, negated)` for each, run by run.
/// A run text is its tokens' texts joined by one space; an occurrence
/// belongs to the token holding its first character, and is negated when a
/// `negations` occurrence starts before it and overlaps the `lookback`
/// characters just before it.
pub fn substring_matches(
    t: &[Token],
    texts: &str,
    markers: &[&str],
    negations: &[&str],
    lookback: usize,
) -> Vec<(usize, bool)> {
    substring_occurrences(t, texts, markers, negations, lookback, |_| true)
        .into_iter()
        .map(|(owner, negated, _)| (owner, negated))
        .collect()
}

/// [`substring_matches`], each occurrence with a third field: whether
/// `lead_ok` accepts the part of its token before it (hybrid.1 §3 item 1;
/// not called for an occurrence that starts its token, which is accepted).
pub fn substring_occurrences(
    t: &[Token],
    texts: &str,
    markers: &[&str],
    negations: &[&str],
    lookback: usize,
    lead_ok: impl Fn(&str) -> bool,
) -> Vec<(usize, bool, bool)> {
    let mut found = Vec::new();
    if markers.is_empty() {
        return found;
    }
    let mut run_text = String::new();
    let mut owners: Vec<(usize, usize)> = Vec::new(); // (byte start in run text, token index)
    let mut start = 0;
    while start < t.len() {
        let run = t[start].run;
        let mut end = start;
        run_text.clear();
        owners.clear();
        while end < t.len() && t[end].run == run {
            if end > start {
                run_text.push(' ');
            }
            owners.push((run_text.len(), end));
            run_text.push_str(&texts[t[end].start..t[end].end]);
            end += 1;
        }
        if !run_text.is_ascii() {
            for marker in markers {
                let mut from = 0;
                while let Some(at) = run_text[from..].find(marker).map(|i| i + from) {
                    let (token_start, owner) =
                        owners[owners.partition_point(|&(b, _)| b <= at) - 1];
                    let led = at == token_start || lead_ok(&run_text[token_start..at]);
                    found.push((owner, negated(&run_text, at, negations, lookback), led));
                    from = at + run_text[at..].chars().next().map_or(1, char::len_utf8);
                }
            }
        }
        start = end;
    }
    found
}

/// Whether a `negations` occurrence starts before byte `at` and overlaps the
/// `lookback` characters just before it.
fn negated(text: &str, at: usize, negations: &[&str], lookback: usize) -> bool {
    negations.iter().any(|negation| {
        let back = lookback + negation.chars().count() - 1;
        let from = text[..at]
            .char_indices()
            .rev()
            .nth(back.saturating_sub(1))
            .map_or(0, |(i, _)| i);
        let from = if back == 0 { at } else { from };
        text[from..].find(negation).is_some_and(|i| from + i < at)
    })
}
