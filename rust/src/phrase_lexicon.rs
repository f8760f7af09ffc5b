//! The phrase lexicons one evaluator matches with (§10 for lexical.1,
//! `docs/lexical2.md` §2 for lexical.2), indexed by word id.
//!
//! Every word of every list gets an id; a token's id is looked up once, when
//! it is tokenized, and phrases are matched by comparing ids.

use std::sync::OnceLock;

use crate::lexicon;
use crate::strset::StrSet;

/// Word id of a token that is no lexicon word.
pub const NO_WORD: u32 = u32::MAX;

/// Single-token classes (bits of [`Lexicons::flags`]).
pub const IS_WEAK: u16 = 1;
pub const IS_NEGATION: u16 = 2;
pub const IS_FILLER: u16 = 4;
pub const IS_DEFINITE_OBJECT: u16 = 8;
pub const IS_ADDITION: u16 = 16;
pub const IS_POLAR: u16 = 32;
pub const IS_PRONOUN: u16 = 64;
pub const IS_DEFINITE_DETERMINER: u16 = 128;
pub const IS_DEPENDENCY: u16 = 256;
pub const IS_LEAD_DEPENDENCY: u16 = 512;
pub const IS_MARKER_LEAD: u16 = 1024;

/// A lexicon of phrases, indexed by the id of their first word.
#[derive(Default)]
pub struct Lexicon {
    pub by_first: Vec<Vec<Vec<u32>>>,
}

/// The lists an evaluator's lexicons are built from.
#[derive(Default)]
pub struct LexiconSource {
    pub strong: &'static [&'static str],
    pub acknowledgement: &'static [&'static str],
    pub change: &'static [&'static str],
    pub closure: &'static [&'static str],
    pub request: &'static [&'static str],
    /// hybrid.1's additive phrases (empty for the lexical evaluators).
    pub additive: &'static [&'static str],
    /// Single-token lists and the flag each sets.
    pub flagged: Vec<(&'static [&'static str], u16)>,
    pub weak_window: usize,
    pub change_window: usize,
    pub negation_lookback: usize,
    pub max_ack_tokens: usize,
    pub change_substring: &'static [&'static str],
    pub reference_substring: &'static [&'static str],
    pub negation_substring: &'static [&'static str],
    pub negation_substring_lookback: usize,
    /// hybrid.1's lead window (0: the evaluator reads no hybrid.1 cue).
    pub lead_window: usize,
    /// hybrid.1: a change marker counts only after marker-lead words
    /// (`IS_MARKER_LEAD`) and outside `marker_quotes` (hybrid.1 §3 item 1).
    pub marker_leads: bool,
    /// Opening and closing characters of the quotations a marker may not
    /// stand in (hybrid.1 only), each a string of the two.
    pub marker_quotes: &'static [&'static str],
}

/// The indexed lexicons of one evaluator.
pub struct Lexicons {
    pub words: StrSet,
    /// Bit `len` of `len_by_first[b]` is set when some lexicon word starts
    /// with byte `b` and has `len` bytes (longer words use bit 63).
    len_by_first: [u64; 256],
    /// The id of each one-byte word (`NO_WORD` for none): "a" and "i" are
    /// common tokens, looked up without hashing.
    single: [u32; 128],
    pub flags: Vec<u16>,
    pub strong: Lexicon,
    pub ack: Lexicon,
    pub change: Lexicon,
    pub closure: Lexicon,
    pub request: Lexicon,
    pub additive: Lexicon,
    pub weak_window: usize,
    pub change_window: usize,
    pub negation_lookback: usize,
    pub max_ack_tokens: usize,
    pub change_substring: &'static [&'static str],
    pub reference_substring: &'static [&'static str],
    pub negation_substring: &'static [&'static str],
    pub negation_substring_lookback: usize,
    pub lead_window: usize,
    pub marker_leads: bool,
    pub marker_quotes: &'static [&'static str],
}

impl Lexicons {
    pub fn build(src: &LexiconSource) -> Lexicons {
        let phrase_lists = [
            src.strong,
            src.acknowledgement,
            src.change,
            src.closure,
            src.request,
            src.additive,
        ];
        let mut words = StrSet::new();
        for list in phrase_lists
            .iter()
            .chain(src.flagged.iter().map(|(l, _)| l))
        {
            for phrase in list.iter() {
                for w in phrase.split(' ') {
                    words.insert(w);
                }
            }
        }
        let mut len_by_first = [0u64; 256];
        for w in words.iter() {
            if let Some(&b) = w.as_bytes().first() {
                len_by_first[b as usize] |= 1u64 << w.len().min(63);
            }
        }
        let mut single = [NO_WORD; 128];
        for (i, w) in words.iter().enumerate() {
            if let [b] = w.as_bytes() {
                if b.is_ascii() {
                    single[*b as usize] = i as u32;
                }
            }
        }
        let mut flags = vec![0u16; words.len()];
        for (list, flag) in &src.flagged {
            for w in list.iter() {
                if let Some(i) = words.find(w) {
                    flags[i] |= flag;
                }
            }
        }
        let lex = |list: &[&str]| {
            let mut by_first = vec![Vec::new(); words.len()];
            for phrase in list {
                let ids: Vec<u32> = phrase
                    .split(' ')
                    .map(|w| words.find(w).map_or(NO_WORD, |i| i as u32))
                    .collect();
                by_first[ids[0] as usize].push(ids);
            }
            Lexicon { by_first }
        };
        Lexicons {
            strong: lex(src.strong),
            ack: lex(src.acknowledgement),
            change: lex(src.change),
            closure: lex(src.closure),
            request: lex(src.request),
            additive: lex(src.additive),
            len_by_first,
            single,
            flags,
            weak_window: src.weak_window,
            change_window: src.change_window,
            negation_lookback: src.negation_lookback,
            max_ack_tokens: src.max_ack_tokens,
            change_substring: src.change_substring,
            reference_substring: src.reference_substring,
            negation_substring: src.negation_substring,
            negation_substring_lookback: src.negation_substring_lookback,
            lead_window: src.lead_window,
            marker_leads: src.marker_leads,
            marker_quotes: src.marker_quotes,
            words,
        }
    }

    /// The word id of a lowercased token, or `NO_WORD`.
    #[inline]
    pub fn word_id(&self, token: &str) -> u32 {
        let len = token.len();
        if let [b] = token.as_bytes() {
            return if b.is_ascii() {
                self.single[*b as usize]
            } else {
                NO_WORD
            };
        }
        match token.as_bytes().first() {
            Some(&first) if self.len_by_first[first as usize] & (1u64 << len.min(63)) != 0 => {
                self.words.find(token).map_or(NO_WORD, |i| i as u32)
            }
            _ => NO_WORD,
        }
    }

    /// Whether word id `word` carries `flag`.
    #[inline]
    pub fn has(&self, word: u32, flag: u16) -> bool {
        word != NO_WORD && self.flags[word as usize] & flag != 0
    }
}

static LEXICAL1: OnceLock<Lexicons> = OnceLock::new();

/// The lexicons of lexical.1 (§10).
#[inline]
pub fn lexicons() -> &'static Lexicons {
    LEXICAL1.get_or_init(|| {
        Lexicons::build(&LexiconSource {
            strong: lexicon::STRONG_REFERENCE,
            acknowledgement: lexicon::ACKNOWLEDGEMENT,
            change: lexicon::CHANGE_MARKER,
            flagged: vec![
                (lexicon::WEAK_REFERENCE, IS_WEAK),
                (lexicon::NEGATION, IS_NEGATION),
            ],
            weak_window: lexicon::WEAK_REFERENCE_WINDOW,
            change_window: lexicon::CHANGE_LEADING_WINDOW,
            negation_lookback: lexicon::NEGATION_LOOKBACK,
            max_ack_tokens: lexicon::MAX_ACK_TOKENS,
            ..LexiconSource::default()
        })
    })
}
