//! §6.3 paired single-quote spans, in linear time.

use memchr::{memchr, memchr2};

use crate::charclass::{self, PUNCT, SPACE};

const LSQ: &[u8] = "\u{2018}".as_bytes(); // ‘
const RSQ: &[u8] = "\u{2019}".as_bytes(); // ’

#[inline]
fn is_space_or_punct(c: char) -> bool {
    charclass::class(c) & (SPACE | PUNCT) != 0
}

/// memchr2, with a short byte scan first: closer candidates are often dense
/// (every few bytes in adversarial text), where a search call per candidate
/// costs more than the scan.
#[inline]
fn find2(x: u8, y: u8, hay: &[u8]) -> Option<usize> {
    const SHORT: usize = 16;
    let near = &hay[..hay.len().min(SHORT)];
    if let Some(k) = near.iter().position(|&c| c == x || c == y) {
        return Some(k);
    }
    if hay.len() <= SHORT {
        return None;
    }
    memchr2(x, y, &hay[SHORT..]).map(|k| k + SHORT)
}

/// single_quote_spans(text) of §6.3: half-open byte ranges, in order.
///
/// Linear: when the closer search of an opener kind fails, it failed up to the
/// end of that line, so every later opener of that kind before that line end
/// is skipped without searching.
pub fn single_quote_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let n = b.len();
    let mut out = Vec::new();
    // Per kind (0 = ASCII apostrophe, 1 = ‘): openers before this offset fail.
    let mut failed_until = [0usize; 2];
    let mut i = 0;
    while i < n {
        // Openers of a kind before its `failed_until` are skipped anyway, so
        // only look for the kinds still alive (one search per dead stretch,
        // not one per opener: " 'a" repeated is otherwise an opener every
        // three bytes).
        let [dead_ascii, dead_curly] = failed_until.map(|f| i < f);
        let found = match (dead_ascii, dead_curly) {
            (true, true) => {
                i = failed_until[0].min(failed_until[1]);
                continue;
            }
            (true, false) => memchr(0xE2, &b[i..failed_until[0]]).ok_or(failed_until[0]),
            (false, true) => memchr(b'\'', &b[i..failed_until[1]]).ok_or(failed_until[1]),
            (false, false) => memchr2(b'\'', 0xE2, &b[i..]).ok_or(n),
        };
        let j = match found {
            Ok(k) => i + k,
            Err(resume) => {
                i = resume;
                continue;
            }
        };
        let (kind, open_len, closer) = if b[j] == b'\'' {
            (0, 1, &b"'"[..])
        } else if b[j..].starts_with(LSQ) {
            (1, 3, RSQ)
        } else {
            i = j + 1;
            continue;
        };
        let opener_ok = j == 0 || charclass::char_before(text, j).is_some_and(is_space_or_punct);
        if !opener_ok || j < failed_until[kind] {
            i = j + open_len;
            continue;
        }
        // Search the closer on the same line, at least one byte after the opener.
        let open_end = j + open_len;
        let min_p = open_end + 1;
        let mut k = open_end;
        let mut found = None;
        let line_end = loop {
            match find2(b'\n', closer[0], &b[k..]) {
                None => break n,
                Some(d) => {
                    let p = k + d;
                    if b[p] == b'\n' {
                        break p;
                    }
                    if p >= min_p && b[p..].starts_with(closer) {
                        let after = p + closer.len();
                        let closes = match b.get(after) {
                            None => true,
                            // ASCII: no decoding needed.
                            Some(&c) if c < 0x80 => is_space_or_punct(char::from(c)),
                            Some(_) => {
                                charclass::char_at(text, after).is_some_and(is_space_or_punct)
                            }
                        };
                        if closes {
                            found = Some(after);
                            break p;
                        }
                    }
                    k = p + 1;
                }
            }
        };
        match found {
            Some(end) => {
                out.push((j, end));
                i = end;
            }
            None => {
                failed_until[kind] = line_end;
                i = open_end;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Vec<(usize, usize)> {
        single_quote_spans(s)
    }

    #[test]
    fn simple_spans() {
        assert_eq!(sq("say 'hello' now"), vec![(4, 11)]);
        assert_eq!(sq("'a'"), vec![(0, 3)]);
        assert_eq!(sq("‘a’"), vec![(0, 7)]);
        assert_eq!(sq("x ‘quoted text’, y"), vec![(2, 19)]);
        assert_eq!(sq(""), Vec::<(usize, usize)>::new());
    }

    #[test]
    fn apostrophes_are_not_spans() {
        assert_eq!(sq("isn't it"), Vec::<(usize, usize)>::new());
        assert_eq!(sq("don't won't"), Vec::<(usize, usize)>::new());
        // Closer must be followed by end/space/punct: 'it's … ' please
        assert_eq!(sq("'it's the question' please"), vec![(0, 19)]);
        // Opener needs start/space/punct before it.
        assert_eq!(sq("a'b' c"), Vec::<(usize, usize)>::new());
        // No empty spans: the closer is at least one byte after the opener.
        assert_eq!(sq("'' x"), Vec::<(usize, usize)>::new());
        assert_eq!(sq("''' x"), vec![(0, 3)]);
    }

    #[test]
    fn mixed_kinds_and_lines() {
        // ’ does not close '
        assert_eq!(sq("'a’ b"), Vec::<(usize, usize)>::new());
        // ' does not close ‘
        assert_eq!(sq("‘a' b"), Vec::<(usize, usize)>::new());
        // Not across lines.
        assert_eq!(sq("'a\nb' c"), Vec::<(usize, usize)>::new());
        assert_eq!(sq("'a\n'b' c"), vec![(3, 6)]);
        // Opener right before a newline: not closed on that line.
        assert_eq!(sq("'\n'x'"), vec![(2, 5)]);
        // Previous char is punct (the closer of a span, or a bracket).
        assert_eq!(sq("('a')"), vec![(1, 4)]);
        // Space classes: U+3000 before the opener, U+00A0 after the closer.
        assert_eq!(sq("\u{3000}'ab'\u{a0}"), vec![(3, 7)]);
        // The character after the closer is a letter: keep searching.
        assert_eq!(sq("'a'b c' d"), vec![(0, 7)]);
    }

    #[test]
    fn adversarial_is_linear() {
        let s = " 'a".repeat(20_000);
        let t = std::time::Instant::now();
        assert!(sq(&s).is_empty());
        assert!(t.elapsed().as_millis() < 200, "{:?}", t.elapsed());
        let s = " ‘a".repeat(20_000);
        assert!(sq(&s).is_empty());
        // Closing at the very end after many failed-looking openers.
        let mut s = " 'a".repeat(5_000);
        s.push('\'');
        assert_eq!(sq(&s), vec![(1, s.len())]);
    }
}
