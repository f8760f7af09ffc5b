//! The phrase tokens of one view of a segment (§6.4): what the phrase
//! matcher (`phrases`) and the substring markers (`substrings`) both read.

/// One phrase token: its lowercased text is `text[start..end]` of the owning
/// [`Tokens`]; `offset` is its byte offset in the original segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub offset: usize,
    pub run: usize,
    pub word: u32,
}

/// The tokens of one view of a segment.
#[derive(Default, Debug)]
pub struct Tokens {
    pub text: String,
    pub toks: Vec<Token>,
}

impl Tokens {
    pub fn clear(&mut self) {
        self.text.clear();
        self.toks.clear();
    }

    /// The lowercased text of token `i`.
    pub fn token_text(&self, i: usize) -> &str {
        let t = &self.toks[i];
        &self.text[t.start..t.end]
    }

    pub fn len(&self) -> usize {
        self.toks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }
}
