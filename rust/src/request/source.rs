//! How the decoders read a request: the `Source` trait (implemented over
//! Python objects by the binding, over a small JSON value in the tests), the
//! keys they look up, and the ways decoding stops.

use std::fmt::Write;

/// The shape of a value, as the decoders distinguish them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    Str,
    Map,
    List,
    /// Anything else: null, a number, bytes, an object that is no container.
    Other,
}

/// What a decode call reads: everything (`turnsignal.decode()`), what the
/// topic-continuity evaluator needs, or what the conversation facts count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Full,
    Lean,
    Count,
}

macro_rules! keys {
    ($($variant:ident => $name:literal,)*) => {
        /// Every key a decoder looks up.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u8)]
        pub enum Key { $($variant,)* }

        impl Key {
            pub const ALL: &'static [Key] = &[$(Key::$variant,)*];

            pub fn name(self) -> &'static str {
                match self { $(Key::$variant => $name,)* }
            }

            /// The key named `name`, if the decoders look it up.
            pub fn from_name(name: &[u8]) -> Option<Key> {
                match name { $(n if n == $name.as_bytes() => Some(Key::$variant),)* _ => None }
            }
        }
    };
}

keys! {
    AllowedTools => "allowed_tools",
    Arguments => "arguments",
    CallId => "call_id",
    Content => "content",
    Conversation => "conversation",
    Custom => "custom",
    Function => "function",
    FunctionCall => "function_call",
    Functions => "functions",
    HistoryAvailable => "history_available",
    Id => "id",
    Input => "input",
    Instructions => "instructions",
    Messages => "messages",
    Mode => "mode",
    Name => "name",
    Output => "output",
    PreviousResponseId => "previous_response_id",
    Reasoning => "reasoning",
    ReasoningContent => "reasoning_content",
    Refusal => "refusal",
    Role => "role",
    Source => "source",
    Summary => "summary",
    System => "system",
    Text => "text",
    Thinking => "thinking",
    ToolCallId => "tool_call_id",
    ToolCalls => "tool_calls",
    ToolChoice => "tool_choice",
    ToolUseId => "tool_use_id",
    Tools => "tools",
    Type => "type",
}

/// One step of a JSON path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seg {
    Key(&'static str),
    Index(usize),
}

/// A structural error: the JSON path of the offending value and the problem.
/// Never holds request text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WireError {
    /// Innermost first (pushed on the way up).
    segs: Vec<Seg>,
    pub problem: String,
}

impl WireError {
    pub fn new(problem: impl Into<String>) -> Self {
        WireError {
            segs: Vec::new(),
            problem: problem.into(),
        }
    }

    /// The path, outermost first: `messages[3].content[1].text`.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.segs.iter().rev() {
            match *seg {
                Seg::Key("") => {}
                Seg::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Seg::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }
}

/// Why decoding stopped before its end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Failure {
    /// A bad request.
    Wire(WireError),
    /// A tail cap was reached.
    Cap,
    /// The source's budget of values is spent.
    Budget,
    /// The deadline passed or the cancellation token was set.
    Cancelled,
    /// Checking the cancellation token failed (the source keeps the reason).
    CancelFailed,
}

impl Failure {
    pub fn wire(problem: impl Into<String>) -> Self {
        Failure::Wire(WireError::new(problem))
    }

    /// A structural error at `key` of the value being decoded.
    pub fn at_key(key: Key, problem: impl Into<String>) -> Self {
        Failure::wire(problem).under(Seg::Key(key.name()))
    }

    /// Re-root a structural error under `seg` (other failures pass).
    pub fn under(self, seg: Seg) -> Self {
        match self {
            Failure::Wire(mut e) => {
                e.segs.push(seg);
                Failure::Wire(e)
            }
            other => other,
        }
    }

    pub fn under_key(self, key: Key) -> Self {
        self.under(Seg::Key(key.name()))
    }
}

pub type Read<T> = Result<T, Failure>;

/// A request as the decoders read it. Every `get`, `len` and `item` costs
/// one unit of the source's budget (`Failure::Budget` past it) and may check
/// the deadline (`Failure::Cancelled`); a caller's object that fails while
/// being read is a `Failure::Wire` at that object ("could not be read").
pub trait Source {
    /// A value of the request.
    type V: Clone;
    /// A string of the request, as kept in decoded blocks.
    type T;

    fn mode(&self) -> Mode;
    fn shape(&mut self, v: &Self::V) -> Shape;
    fn is_null(&self, v: &Self::V) -> bool;
    /// `Some(b)` for a bool.
    fn as_bool(&self, v: &Self::V) -> Option<bool>;
    /// A JSON-ish name of the value's type, never its content.
    fn type_name(&mut self, v: &Self::V) -> String;
    /// `map[key]` of a value of shape `Map`; `None` when absent.
    fn get(&mut self, map: &Self::V, key: Key) -> Read<Option<Self::V>>;
    /// The length of a value of shape `List` or `Map`.
    fn len(&mut self, list: &Self::V) -> Read<usize>;
    /// `list[index]`, `index` below the length read.
    fn item(&mut self, list: &Self::V, index: usize) -> Read<Self::V>;
    /// The index of the first of `literals` a string value equals exactly.
    fn which(&mut self, v: &Self::V, literals: &[&str]) -> Option<usize>;
    /// The index of the first of `literals` (lowercase ASCII) a string value
    /// equals once trimmed of white space and lowercased (Python's
    /// `value.strip().lower()`).
    fn which_folded(&mut self, v: &Self::V, literals: &[&str]) -> Option<usize>;
    fn str_is_empty(&mut self, v: &Self::V) -> bool;
    /// Keep a string value.
    fn keep(&mut self, v: &Self::V) -> Self::T;
    /// Keep a string the decoder supplies (`"{}"`).
    fn keep_literal(&mut self, s: &'static str) -> Self::T;
    /// The JSON text of a tool input (FULL decoding), errors relative to it.
    fn tool_input_json(&mut self, v: &Self::V) -> Read<Self::T>;
    /// The budget, for error messages.
    fn limit(&self) -> usize;
}

/// `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_json() {
        let e = Failure::at_key(Key::Text, "x")
            .under(Seg::Index(1))
            .under_key(Key::Content)
            .under(Seg::Index(3))
            .under(Seg::Key("messages"));
        match e {
            Failure::Wire(w) => assert_eq!(w.path(), "messages[3].content[1].text"),
            _ => unreachable!(),
        }
        let e = Failure::wire("y").under(Seg::Index(2)).under(Seg::Key(""));
        match e {
            Failure::Wire(w) => assert_eq!(w.path(), "[2]"),
            _ => unreachable!(),
        }
        assert_eq!(Failure::Budget.under(Seg::Index(1)), Failure::Budget);
    }

    #[test]
    fn keys_by_name() {
        for key in Key::ALL {
            assert_eq!(Key::from_name(key.name().as_bytes()), Some(*key));
        }
        assert_eq!(Key::from_name(b"nope"), None);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(65536), "65,536");
        assert_eq!(thousands(8388608), "8,388,608");
    }
}
