//! §6.2 masked ranges (code spans, fences, double quotes) and unmasked runs.

use memchr::{memchr, memchr3, memmem};

const LDQ: &[u8] = "\u{201c}".as_bytes(); // “
const RDQ: &[u8] = "\u{201d}".as_bytes(); // ”
const FENCE: &[u8] = b"```";

/// masked(text) of §6.2: half-open byte ranges, in order, non-overlapping.
///
/// Openers are ASCII or start with the lead byte 0xE2, which never occurs
/// inside a character, so a byte scan visits exactly the character positions
/// where an opener can stand.
pub fn masked_ranges(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let n = b.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let j = match memchr3(b'`', b'"', 0xE2, &b[i..]) {
            Some(k) => i + k,
            None => break,
        };
        let end = if b[j..].starts_with(FENCE) {
            match memmem::find(&b[j + 3..], FENCE) {
                Some(k) => j + 3 + k + 3,
                None => n,
            }
        } else if b[j] == b'`' || b[j] == b'"' {
            match memchr(b[j], &b[j + 1..]) {
                Some(k) => j + 1 + k + 1,
                None => n,
            }
        } else if b[j..].starts_with(LDQ) {
            match memmem::find(&b[j + 3..], RDQ) {
                Some(k) => j + 3 + k + 3,
                None => n,
            }
        } else {
            i = j + 1;
            continue;
        };
        out.push((j, end));
        i = end;
    }
    out
}

/// unmasked_runs(text, ranges): the maximal non-empty byte ranges of
/// `0..len` outside `ranges` (sorted, non-overlapping), in order.
pub fn unmasked_runs(len: usize, ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(ranges.len() + 1);
    let mut pos = 0;
    for &(a, b) in ranges {
        if a > pos {
            out.push((pos, a));
        }
        pos = pos.max(b);
    }
    if pos < len {
        out.push((pos, len));
    }
    out
}

/// Merge two sorted range lists; ranges that overlap or touch are merged.
pub fn merge_ranges(a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut all: Vec<(usize, usize)> = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = if j >= b.len() || (i < a.len() && a[i].0 <= b[j].0) {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        match all.last_mut() {
            Some(last) if next.0 <= last.1 => last.1 = last.1.max(next.1),
            _ => all.push(next),
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_and_quotes() {
        assert_eq!(masked_ranges("say `x` now"), vec![(4, 7)]);
        assert_eq!(masked_ranges("a ```code``` b"), vec![(2, 12)]);
        assert_eq!(masked_ranges("a \"q\" b"), vec![(2, 5)]);
        assert_eq!(masked_ranges("a “q” b"), vec![(2, 9)]);
        assert_eq!(masked_ranges("plain"), Vec::<(usize, usize)>::new());
        assert_eq!(masked_ranges(""), Vec::<(usize, usize)>::new());
    }

    #[test]
    fn unclosed_masks_to_end() {
        assert_eq!(masked_ranges("a ```fence\nmore"), vec![(2, 15)]);
        assert_eq!(masked_ranges("a `x"), vec![(2, 4)]);
        assert_eq!(masked_ranges("a \"x"), vec![(2, 4)]);
        assert_eq!(masked_ranges("a “x”"), vec![(2, 9)]);
        assert_eq!(masked_ranges("a “x"), vec![(2, 6)]);
        // A right quote alone opens nothing.
        assert_eq!(masked_ranges("a ” x"), Vec::<(usize, usize)>::new());
    }

    #[test]
    fn across_lines_and_precedence() {
        assert_eq!(masked_ranges("\"a\nb\" c"), vec![(0, 5)]);
        // ``` first: "``" followed by ` is a fence opener.
        assert_eq!(masked_ranges("```a`b```"), vec![(0, 9)]);
        // "``" is two single backticks: an empty code span.
        assert_eq!(masked_ranges("``x"), vec![(0, 2)]);
        // A double quote inside a code span is masked with it.
        assert_eq!(masked_ranges("`\"` \"x\""), vec![(0, 3), (4, 7)]);
        // Fence closer search starts after the opener: "````" closes? no.
        assert_eq!(masked_ranges("````"), vec![(0, 4)]);
        assert_eq!(masked_ranges("``````"), vec![(0, 6)]);
    }

    #[test]
    fn runs() {
        assert_eq!(unmasked_runs(10, &[]), vec![(0, 10)]);
        assert_eq!(unmasked_runs(0, &[]), Vec::<(usize, usize)>::new());
        assert_eq!(unmasked_runs(10, &[(0, 3), (3, 5), (8, 10)]), vec![(5, 8)]);
        assert_eq!(unmasked_runs(10, &[(2, 3)]), vec![(0, 2), (3, 10)]);
    }

    #[test]
    fn merging() {
        assert_eq!(
            merge_ranges(&[(0, 2), (5, 7)], &[(2, 3)]),
            vec![(0, 3), (5, 7)]
        );
        assert_eq!(merge_ranges(&[(0, 10)], &[(2, 3), (9, 12)]), vec![(0, 12)]);
        assert_eq!(merge_ranges(&[], &[(1, 2)]), vec![(1, 2)]);
        assert_eq!(merge_ranges(&[(4, 5)], &[(1, 2)]), vec![(1, 2), (4, 5)]);
    }
}
