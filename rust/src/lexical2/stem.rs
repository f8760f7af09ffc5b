//! The light suffix stemmer (§3.4): two ordered suffix steps from the data
//! file, then three fixed clean-ups.

use super::lexicon::{SuffixRule, STEM_STEP1, STEM_STEP2};

/// The most bytes a stem can be shorter than its word: the largest cut of
/// each step plus two for the clean-ups (a final `e`, then a doubled letter).
pub const MAX_STEM_CUT: usize = max_cut(STEM_STEP1) + max_cut(STEM_STEP2) + 2;

const fn max_cut(rules: &[SuffixRule]) -> usize {
    let mut most = 0;
    let mut i = 0;
    while i < rules.len() {
        let (suffix, replacement, _) = rules[i];
        if suffix.len() > replacement.len() && suffix.len() - replacement.len() > most {
            most = suffix.len() - replacement.len();
        }
        i += 1;
    }
    most
}

/// One step: the first rule whose suffix ends the word decides, met or not.
fn step(word: &mut String, rules: &[SuffixRule]) {
    for &(suffix, replacement, minimum) in rules {
        if word.ends_with(suffix) {
            if word.len() - suffix.len() >= minimum {
                word.truncate(word.len() - suffix.len());
                word.push_str(replacement);
            }
            return;
        }
    }
}

/// `stem(word)` into `buf`; returns the stem. Words that are not all ASCII
/// `a`-`z`, or have at most 3 characters, are their own stem.
pub fn stem_with<'a>(word: &'a str, buf: &'a mut String) -> &'a str {
    if word.len() <= 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word;
    }
    buf.clear();
    buf.push_str(word);
    step(buf, STEM_STEP1);
    step(buf, STEM_STEP2);
    let b = buf.as_bytes();
    if b.len() > 3 && b[b.len() - 1] == b'e' {
        buf.pop();
    }
    let b = buf.as_bytes();
    if b.len() > 3 && b[b.len() - 1] == b'y' {
        buf.pop();
        buf.push('i');
    }
    let b = buf.as_bytes();
    let n = b.len();
    if n > 3 && b[n - 1] == b[n - 2] && !matches!(b[n - 1], b'l' | b's' | b'z') {
        buf.pop();
    }
    buf
}

/// `stem(word)` as an owned string.
pub fn stem(word: &str) -> String {
    let mut buf = String::new();
    stem_with(word, &mut buf).to_owned()
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn stems() {
        // Hand-derived from the rules of docs/lexical2.md §3.4.
        for (word, want) in [
            ("trains", "train"),
            ("booking", "book"),
            ("booked", "book"),
            ("retirement", "retir"),
            ("retire", "retir"),
            ("studies", "studi"),
            ("study", "studi"),
            ("classes", "class"),
            ("glass", "glass"),
            ("bus", "bus"),
            ("running", "run"),
            ("hotels", "hotel"),
            ("cat", "cat"),
            ("cats", "cat"),
            ("ünïcode", "ünïcode"),
            ("abc1", "abc1"),
            ("sing", "sing"),
            ("things", "thing"),
            ("quickly", "quick"),
            ("expensive", "expensiv"),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
    }
}
