//! §6.5 entities of one segment, and entity sets.

use memchr::{memchr, memchr2};

use crate::charclass;
use crate::strset::StrSet;

pub use crate::lexicon::{MAX_ENTITIES_PER_SEGMENT as ENTITY_CAP, MAX_ENTITY_BYTES};

/// Collects the entities of one segment into a set, honouring the cap.
pub struct Collector<'a> {
    set: &'a mut StrSet,
    buf: &'a mut String,
    capped: bool,
    /// The word runs of this segment already handled by [`Collector::word_run`].
    runs: Option<&'a mut StrSet>,
}

impl<'a> Collector<'a> {
    /// A collector adding into `set` (which should be empty: the cap counts
    /// the values of one segment); `buf` is scratch space.
    pub fn new(set: &'a mut StrSet, buf: &'a mut String) -> Self {
        let capped = set.len() >= ENTITY_CAP;
        Collector {
            set,
            buf,
            capped,
            runs: None,
        }
    }

    /// Like [`Collector::new`], remembering handled word runs in `runs`
    /// (cleared here) so a repeated run costs one lookup.
    ///
    /// Exact because pass 3 of a run depends on nothing but the run's bytes:
    /// after a run has been handled once, either all of its values are in the
    /// set or the set is capped, and in both cases handling it again changes
    /// nothing. Repetitive text (logs, code, pasted output) gains the most.
    pub fn with_run_memo(set: &'a mut StrSet, buf: &'a mut String, runs: &'a mut StrSet) -> Self {
        runs.clear();
        let mut c = Self::new(set, buf);
        c.runs = Some(runs);
        c
    }

    /// add(v) of §6.5.
    pub fn add(&mut self, v: &str) {
        if self.capped {
            return;
        }
        let lowered = charclass::lowercase_with(v, self.buf);
        let lb = lowered.as_bytes();
        let mut end = lb.len();
        while end > 0 && matches!(lb[end - 1], b'.' | b',' | b';' | b':' | b')') {
            end -= 1;
        }
        // The stripped bytes are ASCII, so `end` is a character boundary.
        let value = charclass::byte_prefix(&lowered[..end], MAX_ENTITY_BYTES);
        if value.is_empty() {
            return;
        }
        self.set.insert(value);
        if self.set.len() >= ENTITY_CAP {
            self.capped = true;
        }
    }

    pub fn capped(&self) -> bool {
        self.capped
    }

    /// Run the three passes of §6.5 over `text`.
    pub fn collect(&mut self, text: &str) {
        self.delimited_passes(text);
        self.word_runs(text);
    }

    /// Passes 1 and 2 (backtick and double-quoted spans).
    pub fn delimited_passes(&mut self, text: &str) {
        self.spans(text, b'`', 1);
        self.spans(text, b'"', 3);
    }

    /// Passes 1 and 2: spans between two `q` on the same line with at least
    /// `min_inner` bytes between them.
    fn spans(&mut self, text: &str, q: u8, min_inner: usize) {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() && !self.capped {
            let j = match memchr(q, &b[i..]) {
                Some(k) => i + k,
                None => return,
            };
            match memchr2(q, b'\n', &b[j + 1..]) {
                Some(k) if b[j + 1 + k] == q => {
                    let p = j + 1 + k;
                    if p - (j + 1) >= min_inner {
                        self.add(&text[j + 1..p]);
                    }
                    i = p + 1;
                }
                _ => i = j + 1,
            }
        }
    }

    /// Pass 3: maximal runs of ASCII `A–Z a–z 0–9 _ . ~ / -`.
    pub fn word_runs(&mut self, text: &str) {
        let b = text.as_bytes();
        let n = b.len();
        let mut i = 0;
        while i < n && !self.capped {
            while i < n && !RUN_BYTE[b[i] as usize] {
                i += 1;
            }
            let start = i;
            while i < n && RUN_BYTE[b[i] as usize] {
                i += 1;
            }
            if i > start {
                self.word_run(&text[start..i]);
            }
        }
    }

    /// Record `run` in the run memo; false when it was there already (a
    /// repeat, which pass 3 can skip). Always true without a memo.
    #[inline]
    pub fn claim_run(&mut self, run: &str) -> bool {
        match self.runs.as_deref_mut() {
            Some(runs) => runs.insert(run).1,
            None => true,
        }
    }

    /// Pass 3 for one maximal word run, skipped when the run is a repeat.
    pub fn word_run(&mut self, run: &str) {
        if self.claim_run(run) {
            self.word_run_rules(run);
        }
    }

    /// The rules of pass 3 for one maximal word run.
    pub fn word_run_rules(&mut self, run: &str) {
        if self.capped {
            return;
        }
        let rb = run.as_bytes();
        // One pass over the run: which rules can apply at all?
        let mut has_letter = false;
        let mut has_slash = false;
        let mut other = false; // any of . ~ - _ 0-9, or a lower→upper step
        let mut prev_lower = false;
        for &c in rb {
            let lower = c.is_ascii_lowercase();
            has_letter |= lower || c.is_ascii_uppercase();
            has_slash |= c == b'/';
            other |=
                !c.is_ascii_alphabetic() && c != b'/' || (prev_lower && c.is_ascii_uppercase());
            prev_lower = lower;
        }
        if has_slash && has_letter {
            self.add(run);
        }
        if !other {
            // Letters and slashes only: no dotted chunk, snake, camel or digits.
            return;
        }
        let mut start = 0;
        for k in 0..=rb.len() {
            if k == rb.len() || matches!(rb[k], b'/' | b'~' | b'-') {
                if k > start {
                    self.chunk(&run[start..k]);
                    if self.capped {
                        return;
                    }
                }
                start = k + 1;
            }
        }
    }

    fn chunk(&mut self, chunk: &str) {
        if dotted(chunk) {
            self.add(chunk);
        }
        let cb = chunk.as_bytes();
        let mut start = 0;
        for k in 0..=cb.len() {
            if k == cb.len() || cb[k] == b'.' {
                if k > start {
                    self.part(&chunk[start..k]);
                }
                start = k + 1;
            }
        }
    }

    fn part(&mut self, part: &str) {
        let pb = part.as_bytes();
        let mut has_letter = false;
        let mut has_underscore = false;
        let mut camel = false;
        let mut prev_lower = false;
        for &c in pb {
            has_letter |= c.is_ascii_alphabetic();
            has_underscore |= c == b'_';
            camel |= prev_lower && c.is_ascii_uppercase();
            prev_lower = c.is_ascii_lowercase();
        }
        if has_letter && has_underscore {
            self.add(part);
        }
        if camel {
            self.add(part);
        }
        let mut k = 0;
        while k < pb.len() {
            if pb[k].is_ascii_digit() {
                let s = k;
                while k < pb.len() && pb[k].is_ascii_digit() {
                    k += 1;
                }
                if k - s >= 3 {
                    self.add(&part[s..k]);
                }
            } else {
                k += 1;
            }
        }
    }
}

const fn run_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'~' | b'/' | b'-');
        b += 1;
    }
    t
}
static RUN_BYTE: [bool; 256] = run_table();

/// dotted(chunk) of §6.5.
fn dotted(chunk: &str) -> bool {
    let s = chunk.trim_end_matches('.');
    let mut pieces = 0;
    for piece in s.split('.') {
        match piece.as_bytes().first() {
            Some(&c) if c.is_ascii_alphabetic() || c == b'_' => pieces += 1,
            _ => return false,
        }
    }
    pieces >= 2
}

/// Collect the entities of `text` into `set` (cleared first); returns capped.
pub fn collect_entities(text: &str, set: &mut StrSet, buf: &mut String) -> bool {
    set.clear();
    let mut c = Collector::new(set, buf);
    c.collect(text);
    c.capped()
}

/// entities(segment): the distinct values sorted, and whether it was capped.
pub fn entities(text: &str) -> (Vec<String>, bool) {
    let mut set = StrSet::new();
    let mut buf = String::new();
    let capped = collect_entities(text, &mut set, &mut buf);
    (set.sorted(), capped)
}

/// entity_set(segments, tool_names) of §6.5, and whether it was capped.
pub fn entity_set<S: AsRef<str>, T: AsRef<str>>(
    segments: &[S],
    tool_names: &[T],
) -> (StrSet, bool) {
    let mut all = StrSet::new();
    let mut seg = StrSet::new();
    let mut buf = String::new();
    let mut capped = false;
    for s in segments {
        capped |= collect_entities(s.as_ref(), &mut seg, &mut buf);
        for v in seg.iter() {
            all.insert(v);
        }
    }
    for t in tool_names {
        all.insert(charclass::lowercase_with(t.as_ref(), &mut buf));
    }
    (all, capped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(s: &str) -> Vec<String> {
        let (v, capped) = entities(s);
        assert!(!capped);
        v
    }

    #[test]
    fn code_and_quoted_spans() {
        assert_eq!(e("run `Make Build` now"), vec!["make build"]);
        assert_eq!(e("``"), Vec::<String>::new());
        assert_eq!(e("`a\nb` c"), Vec::<String>::new());
        assert_eq!(e("say \"ab\" or \"Abc\""), vec!["abc"]);
        assert_eq!(e("\"x.\""), Vec::<String>::new()); // stripped to "x", 2 bytes inner -> not added
        assert_eq!(e("\"end...\""), vec!["end"]);
        assert_eq!(e("`f(x)`"), vec!["f(x"]);
        // Non-ASCII spans are lowercased per character.
        assert_eq!(e("`İSTANBUL`"), vec!["istanbul"]);
        assert_eq!(e("`\u{212a}`"), vec!["k"]);
        // Unclosed: resume one byte after the opener.
        assert_eq!(e("` `x`"), vec![" "]);
    }

    #[test]
    fn word_runs() {
        assert_eq!(e("see src/main.rs"), vec!["main.rs", "src/main.rs"]);
        assert_eq!(e("the os.path.join call"), vec!["os.path.join"]);
        assert_eq!(e("use snake_case"), vec!["snake_case"]);
        assert_eq!(e("getValue and HTTPServer"), vec!["getvalue"]);
        assert_eq!(e("XmlHttp"), vec!["xmlhttp"]);
        assert_eq!(e("error 404 at 12"), vec!["404"]);
        assert_eq!(e("v1.2.3"), vec![] as Vec<String>);
        assert_eq!(e("a.b"), vec!["a.b"]);
        assert_eq!(e("a..b"), Vec::<String>::new());
        assert_eq!(e("end. Next"), Vec::<String>::new());
        assert_eq!(e("file.txt."), vec!["file.txt"]);
        assert_eq!(e("~/x-y/12345"), vec!["12345", "~/x-y/12345"]);
        assert_eq!(e("/"), Vec::<String>::new());
        assert_eq!(e("1/2/2024"), vec!["2024"]);
        assert_eq!(e("__init__"), vec!["__init__"]);
        assert_eq!(e("_.x"), vec!["_.x"]);
        assert_eq!(e("12345abc6789"), vec!["12345", "6789"]);
        // Non-ASCII bytes end runs.
        assert_eq!(e("café_bar"), vec!["_bar"]);
    }

    #[test]
    fn long_values_are_cut_on_char_boundary() {
        let long = "a/".repeat(100);
        let v = e(&long);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0], "a/".repeat(64));
        let s = format!("`{}`", "é".repeat(100));
        let v = e(&s);
        assert_eq!(v[0].len(), 128);
        let s = format!("`x{}`", "é".repeat(100));
        let v = e(&s);
        assert_eq!(v[0].len(), 127);
    }

    #[test]
    fn cap() {
        let text: String = (0..1100).map(|i| format!("{:03} ", 100 + i)).collect();
        let (v, capped) = entities(&text);
        assert!(capped);
        assert_eq!(v.len(), ENTITY_CAP);
        assert!(v.contains(&"1123".to_string()));
        assert!(!v.contains(&"1124".to_string()));
        let text: String = (0..1023).map(|i| format!("{:03} ", 100 + i)).collect();
        let (v, capped) = entities(&text);
        assert!(!capped);
        assert_eq!(v.len(), 1023);
        // The cap is per segment; the union of two capped segments is larger.
        let a: String = (0..1024).map(|i| format!("{} ", 1000 + i)).collect();
        let b: String = (0..1024).map(|i| format!("{} ", 5000 + i)).collect();
        let (set, capped) = entity_set(&[a, b], &["My_Tool"]);
        assert!(capped);
        assert_eq!(set.len(), 2049);
        assert_eq!(set.find("my_tool"), Some(2048));
    }

    #[test]
    fn tool_names_are_not_trimmed() {
        let (set, capped) = entity_set::<&str, &str>(&[], &["Tool.", " x "]);
        assert!(!capped);
        assert_eq!(set.sorted(), vec![" x ", "tool."]);
    }
}
