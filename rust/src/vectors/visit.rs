//! Reading a text's tokens: the choice between the fused ASCII path
//! (`super::ascii`, almost every text) and the general one (`normalize`
//! then `wordpiece`), which give the same words and tokens, handed to a
//! `Visitor` under the `MAX_TOKENS` bound (`super::keep`).

use super::ascii;
use super::keep::Keep;
pub(super) use super::keep::Visitor;
use super::normalize::{is_punctuation, words};
use super::table::Table;
use super::wordpiece::{Cut, Vocab};
use super::wordpiece_tables::MAX_TEXT_BYTES;
use crate::charclass::byte_prefix;

/// Hand each word read and each kept token of `text` to `visitor`: at most
/// `MAX_TOKENS` tokens from at most `MAX_TEXT_BYTES` bytes.
pub(super) fn visit<V: Visitor>(table: &Table, text: &str, visitor: &mut V) {
    let text = byte_prefix(text, MAX_TEXT_BYTES);
    let mut keep = Keep::new(visitor);
    if text.is_ascii() {
        ascii::visit(table.vocab(), text.as_bytes(), &mut keep);
    } else {
        visit_general(table.vocab(), text, &mut keep);
    }
}

/// Whether a word counts as alphabetic: some character that is neither an
/// ASCII digit nor punctuation (the tokenizer's test).
fn alphabetic(word: &str) -> bool {
    word.chars()
        .any(|c| !c.is_ascii_digit() && !is_punctuation(c))
}

/// Any text: the basic tokenizer's words, each cut by WordPiece.
fn visit_general<V: Visitor>(vocab: &Vocab, text: &str, keep: &mut Keep<V>) {
    let mut word = String::new();
    let mut cut = Cut::new();
    words(text, &mut word, |w| {
        vocab.cut(w, &mut cut);
        if alphabetic(w) {
            keep.word(cut.whole());
        }
        keep.cut(&cut)
    });
}

#[cfg(test)]
mod tests {
    use super::super::table::tests::encode;
    use super::super::wordpiece::Piece;
    use super::super::wordpiece_tables::MAX_TOKENS;
    use super::*;

    #[derive(Debug, PartialEq, Eq)]
    enum Event {
        Word(bool),
        Token(Piece),
    }

    #[derive(Default)]
    struct Record(Vec<Event>);

    impl Visitor for Record {
        fn word(&mut self, whole: bool) {
            self.0.push(Event::Word(whole));
        }
        fn token(&mut self, piece: Piece) {
            self.0.push(Event::Token(piece));
        }
    }

    fn table() -> Table {
        let tokens = [
            "[UNK]",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmno",
            "##ij",
            "##i",
            "##jklmnopqrs",
            "ab",
            "##cd",
            "cd",
            "##e",
            "a",
            "##a",
            "x",
            "1",
            "12",
            "##3",
            "the",
            "##the",
            ",",
            "'",
            "!",
        ];
        let rows: Vec<Vec<i8>> = (0..tokens.len()).map(|i| vec![i as i8]).collect();
        Table::parse(&encode(&tokens, &rows, None)).unwrap()
    }

    /// The fused ASCII path and the general path, on the same text.
    fn both(table: &Table, text: &str) -> (Vec<Event>, Vec<Event>) {
        let text = byte_prefix(text, MAX_TEXT_BYTES);
        assert!(text.is_ascii());
        let mut fused = Record::default();
        let mut keep = Keep::new(&mut fused);
        ascii::visit(table.vocab(), text.as_bytes(), &mut keep);
        let mut general = Record::default();
        let mut keep = Keep::new(&mut general);
        visit_general(table.vocab(), text, &mut keep);
        (fused.0, general.0)
    }

    fn same(table: &Table, text: &str) {
        let (fused, general) = both(table, text);
        assert_eq!(fused, general, "{text:?}");
    }

    #[test]
    fn the_ascii_path_reads_edge_words_as_the_general_path() {
        use Event::*;
        use Piece::*;
        let t = table();
        // A word of exactly 8 bytes is one masked load; 9 bytes a hash.
        assert_eq!(both(&t, "abcdefgh").0, [Word(true), Token(Known(1))]);
        assert_eq!(both(&t, "ABCDEFGHI").0, [Word(true), Token(Known(2))]);
        // Cut greedily: ab + ##cd; abcdefghi then no ##j: unknown; digits
        // only are no word.
        assert_eq!(
            both(&t, "abcd abcdefghij 123").0,
            [
                Word(false),
                Token(Known(7)),
                Token(Known(8)),
                Word(false),
                Token(Unknown),
                Token(Known(15)),
                Token(Known(16))
            ]
        );
        // Dropped controls join what they separate, across chunks too.
        assert_eq!(
            both(&t, "ab\u{0}c\u{7f}d\u{b}e").0,
            [
                Word(false),
                Token(Known(7)),
                Token(Known(8)),
                Token(Known(10))
            ]
        );
        for text in [
            "",
            " ",
            "\u{0}",
            "a",
            "A1",
            "x1a",
            "1x",
            "12,3",
            "the'the!",
            "abcdefghijklmnop",
            "abcdefghijklmnopqrs",
            "ABCDEFGH\tabcdefgh\r\nabcdefgh.",
            "ab\u{1}cd\u{2}ab\u{3}cd\u{4}abcd\u{1f}e",
            "zzzzzzzzzzzz zzzzzzzz,zzzzzzzzz",
            "@[`{~]^_\\",
        ] {
            same(&t, text);
        }
        // MAX_WORD_CHARS: 100 characters are cut, 101 are one unknown,
        // and dropped characters do not count.
        for n in [99, 100, 101, 120] {
            same(&t, &"a".repeat(n));
            same(&t, &format!("x {}\u{0} x", "a".repeat(n)));
            let dropped: String = "a\u{1}".repeat(n);
            same(&t, &dropped);
        }
    }

    #[test]
    fn the_ascii_path_stops_where_the_general_path_stops() {
        let t = table();
        // MAX_TOKENS reached mid-word (each "abcd" is two tokens).
        let text = format!("a {}", "abcd ".repeat(MAX_TOKENS));
        let (fused, general) = both(&t, &text);
        assert_eq!(fused, general);
        let tokens = fused.iter().filter(|e| matches!(e, Event::Token(_)));
        assert_eq!(tokens.count(), MAX_TOKENS);
        // A word cut by MAX_TEXT_BYTES.
        let mut long = " ".repeat(MAX_TEXT_BYTES - 3);
        long.push_str("abcdefgh");
        same(&t, &long);
        let (fused, _) = both(&t, &long);
        assert_eq!(fused.last(), Some(&Event::Token(Piece::Unknown)));
    }

    #[test]
    fn the_ascii_path_matches_on_generated_texts() {
        let t = table();
        let parts = [
            "a",
            "b",
            "ab",
            "cd",
            "e",
            "i",
            "j",
            "x",
            "1",
            "2",
            "3",
            "the",
            "THE",
            "The",
            "abcdefgh",
            "ABCDEFGHI",
            "ij",
            "klmnopqrs",
            " ",
            " ",
            "\t",
            "\n",
            ",",
            "'",
            "!",
            ".",
            "\u{0}",
            "\u{1}",
            "\u{b}",
            "\u{7f}",
            "@",
            "[",
            "`",
            "{",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3000 {
            let mut text = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for _ in 0..state % 40 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(parts[(state % parts.len() as u64) as usize]);
            }
            same(&t, &text);
        }
    }
}
