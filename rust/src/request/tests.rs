//! The decoders over a small JSON value (`cargo test`, no Python needed).
//! The Python suite checks them against the reference decoders read for read.

use std::rc::Rc;

use super::model::{kind, message_kind, window};
use super::*;

#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    Num,
    Str(String),
    List(Rc<Vec<J>>),
    Map(Rc<Vec<(String, J)>>),
}

/// A minimal JSON parser for test inputs (no escapes but `\"`).
fn parse(text: &str) -> J {
    fn value(b: &[u8], i: &mut usize) -> J {
        skip(b, i);
        match b[*i] {
            b'{' => {
                *i += 1;
                let mut out = Vec::new();
                loop {
                    skip(b, i);
                    if b[*i] == b'}' {
                        *i += 1;
                        return J::Map(Rc::new(out));
                    }
                    let J::Str(k) = value(b, i) else {
                        panic!("key")
                    };
                    skip(b, i);
                    *i += 1; // ':'
                    let v = value(b, i);
                    out.push((k, v));
                    skip(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'[' => {
                *i += 1;
                let mut out = Vec::new();
                loop {
                    skip(b, i);
                    if b[*i] == b']' {
                        *i += 1;
                        return J::List(Rc::new(out));
                    }
                    out.push(value(b, i));
                    skip(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'"' => {
                *i += 1;
                let mut s = String::new();
                while b[*i] != b'"' {
                    if b[*i] == b'\\' {
                        *i += 1;
                    }
                    s.push(b[*i] as char);
                    *i += 1;
                }
                *i += 1;
                J::Str(s)
            }
            b'n' => {
                *i += 4;
                J::Null
            }
            b't' => {
                *i += 4;
                J::Bool(true)
            }
            b'f' => {
                *i += 5;
                J::Bool(false)
            }
            _ => {
                while *i < b.len() && (b[*i].is_ascii_digit() || b"-.eE+".contains(&b[*i])) {
                    *i += 1;
                }
                J::Num
            }
        }
    }
    fn skip(b: &[u8], i: &mut usize) {
        while b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }
    value(text.as_bytes(), &mut 0)
}

struct JsonSource {
    mode: Mode,
    used: usize,
    limit: usize,
}

impl JsonSource {
    fn new(mode: Mode) -> Self {
        JsonSource {
            mode,
            used: 0,
            limit: usize::MAX,
        }
    }

    fn count(&mut self) -> Read<()> {
        self.used += 1;
        if self.used > self.limit {
            return Err(Failure::Budget);
        }
        Ok(())
    }
}

fn as_str(v: &J) -> &str {
    match v {
        J::Str(s) => s,
        _ => "",
    }
}

impl Source for JsonSource {
    type V = J;
    type T = String;

    fn mode(&self) -> Mode {
        self.mode
    }
    fn shape(&mut self, v: &J) -> Shape {
        match v {
            J::Str(_) => Shape::Str,
            J::Map(_) => Shape::Map,
            J::List(_) => Shape::List,
            _ => Shape::Other,
        }
    }
    fn is_null(&self, v: &J) -> bool {
        matches!(v, J::Null)
    }
    fn as_bool(&self, v: &J) -> Option<bool> {
        match v {
            J::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn type_name(&mut self, v: &J) -> String {
        match v {
            J::Null => "null",
            J::Bool(_) => "bool",
            J::Num => "int",
            J::Str(_) => "string",
            J::List(_) => "list",
            J::Map(_) => "mapping",
        }
        .into()
    }
    fn get(&mut self, map: &J, key: Key) -> Read<Option<J>> {
        self.count()?;
        let J::Map(m) = map else { return Ok(None) };
        Ok(m.iter()
            .find(|(k, _)| k == key.name())
            .map(|(_, v)| v.clone()))
    }
    fn len(&mut self, list: &J) -> Read<usize> {
        self.count()?;
        Ok(match list {
            J::List(l) => l.len(),
            J::Map(m) => m.len(),
            _ => 0,
        })
    }
    fn item(&mut self, list: &J, index: usize) -> Read<J> {
        self.count()?;
        match list {
            J::List(l) => Ok(l[index].clone()),
            _ => Err(Failure::wire("could not be read (IndexError)")),
        }
    }
    fn which(&mut self, v: &J, literals: &[&str]) -> Option<usize> {
        literals.iter().position(|l| as_str(v) == *l)
    }
    fn which_folded(&mut self, v: &J, literals: &[&str]) -> Option<usize> {
        let folded = as_str(v).trim().to_lowercase();
        literals.iter().position(|l| folded == *l)
    }
    fn str_is_empty(&mut self, v: &J) -> bool {
        as_str(v).is_empty()
    }
    fn keep(&mut self, v: &J) -> String {
        as_str(v).to_owned()
    }
    fn keep_literal(&mut self, s: &'static str) -> String {
        s.to_owned()
    }
    fn tool_input_json(&mut self, _v: &J) -> Read<String> {
        Ok("{\"json\":true}".into())
    }
    fn limit(&self) -> usize {
        self.limit
    }
}

struct Out {
    decoded: Decoded,
    messages: Vec<(Role, Vec<Block<String>>)>,
    instructions: Vec<Role>,
}

fn run(json: &str, format: Option<Format>, mode: Mode, caps: Caps) -> Read<Out> {
    let mut src = JsonSource::new(mode);
    let mut out = Collector::new(caps.messages, caps.blocks);
    let request = parse(json);
    let decoded = decode(&mut src, &mut out, &request, format)?;
    out.finish();
    let messages = out
        .messages
        .iter()
        .map(|m| (m.role, out.message_blocks(m).to_vec()))
        .collect();
    let instructions = out.instructions.iter().map(|(r, _)| *r).collect();
    Ok(Out {
        decoded,
        messages,
        instructions,
    })
}

fn full(json: &str, format: Format) -> Out {
    run(json, Some(format), Mode::Full, Caps::default()).unwrap()
}

fn error(json: &str, format: Format) -> (String, String) {
    match run(json, Some(format), Mode::Full, Caps::default()) {
        Err(Failure::Wire(e)) => (e.path(), e.problem),
        Err(other) => panic!("{other:?}"),
        Ok(_) => panic!("no error"),
    }
}

fn roles(out: &Out) -> Vec<Role> {
    out.messages.iter().map(|(r, _)| *r).collect()
}

#[test]
fn openai_messages_and_instructions() {
    let out = full(
        r#"{"messages": [{"role": "system", "content": "s"},
            {"role": " User ", "content": "hi"},
            {"role": "assistant", "content": null, "refusal": "no",
             "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": "{}"}},
                            {"id": "c2", "type": "weird"}]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
            "tools": [{}, {}], "tool_choice": "required"}"#,
        Format::Openai,
    );
    assert_eq!(roles(&out), [Role::User, Role::Assistant, Role::Tool]);
    assert_eq!(out.instructions, [Role::System]);
    let kinds: Vec<BlockKind> = out.messages[1].1.iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        [BlockKind::Refusal, BlockKind::ToolCall, BlockKind::Other]
    );
    assert_eq!(out.messages[1].1[1].name.as_deref(), Some("f"));
    assert!(out.messages[1].1[1].has_arguments);
    assert_eq!(out.messages[2].1[0].text.as_deref(), Some("c1"));
    assert_eq!(out.messages[2].1[0].children.len(), 1);
    assert_eq!(out.decoded.tools, 2);
    assert_eq!(out.decoded.tool_choice, Some(ToolChoice::Required));
}

#[test]
fn anthropic_splits_at_tool_results() {
    let out = full(
        r#"{"system": "be brief", "messages": [{"role": "user", "content": [
            {"type": "text", "text": "A"}, {"type": "tool_result", "tool_use_id": "r1"},
            {"type": "tool_result", "tool_use_id": "r2"}, {"type": "text", "text": "B"}]}]}"#,
        Format::Anthropic,
    );
    assert_eq!(
        roles(&out),
        [Role::User, Role::Tool, Role::Tool, Role::User]
    );
    assert_eq!(out.messages[0].1[0].text.as_deref(), Some("A"));
    assert_eq!(out.messages[3].1[0].text.as_deref(), Some("B"));
    assert_eq!(out.instructions, [Role::System]);
}

#[test]
fn responses_items() {
    let out = full(
        r#"{"instructions": "x", "input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "", "id": "fc", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "fc", "output": "ok"},
            {"type": "reasoning", "summary": []},
            {"type": "web_search_call"}]}"#,
        Format::Responses,
    );
    assert_eq!(
        roles(&out),
        [Role::User, Role::Assistant, Role::Tool, Role::Assistant]
    );
    assert_eq!(out.messages[1].1[0].id.as_deref(), Some("fc"));
    assert_eq!(out.messages[3].1[0].kind, BlockKind::Other);
    assert!(out.decoded.history_available);
    let out = full(
        r#"{"input": [{"type": "item_reference", "id": "r"}, {"role": "user", "content": "x"}]}"#,
        Format::Responses,
    );
    assert!(!out.decoded.history_available);
}

#[test]
fn errors_name_the_path() {
    assert_eq!(
        error(
            r#"{"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}]}"#,
            Format::Openai
        ),
        (
            "messages[0].content[0].text".into(),
            "expected a string, got int".into()
        )
    );
    assert_eq!(
        error(r#"{"model": "x"}"#, Format::Neutral),
        ("messages".into(), "missing".into())
    );
    assert_eq!(
        error(r#"[{"role": "nope", "content": "x"}]"#, Format::Openai),
        (
            "[0].role".into(),
            "unknown role (expected one of: assistant, developer, function, system, tool, user)"
                .into()
        )
    );
}

#[test]
fn a_body_of_another_format_is_named() {
    // Top-level keys only: the explicit format's own field is missing, or the
    // body's top level is plainly another format (issue 26).
    let looks = |format| format!("missing: this looks like {format} or \"auto\"");
    let cases = [
        (
            r#"{"messages": []}"#,
            Format::Responses,
            "input",
            looks("an OpenAI Chat Completions request (it has messages); use format \"openai\""),
        ),
        (
            r#"{"messages": [], "system": "s"}"#,
            Format::Responses,
            "input",
            looks(
                "an Anthropic Messages request (it has messages and system); \
                 use format \"anthropic\"",
            ),
        ),
        (
            r#"{"foo": 1}"#,
            Format::Responses,
            "input",
            "missing (a Responses request has input, previous_response_id or conversation)".into(),
        ),
        (
            r#"{"messages": [], "system": "s"}"#,
            Format::Openai,
            "system",
            "not a Chat Completions field: this looks like an Anthropic Messages request; \
             use format \"anthropic\" or \"auto\""
                .into(),
        ),
    ];
    for (json, format, path, problem) in cases {
        assert_eq!(error(json, format), (path.into(), problem), "{json}");
    }
    for format in [Format::Openai, Format::Anthropic, Format::Neutral] {
        let (path, problem) = error(r#"{"input": []}"#, format);
        assert_eq!(path, "messages");
        assert_eq!(problem, format!("missing{}", read::LOOKS_LIKE_RESPONSES));
    }
    // No input, but the history lives on the server; or input given as null.
    for json in [
        r#"{"previous_response_id": "r"}"#,
        r#"{"conversation": "c"}"#,
        r#"{"input": null, "messages": []}"#,
    ] {
        assert!(full(json, Format::Responses).messages.is_empty());
    }
}

#[test]
fn detection() {
    let src = |json: &str| {
        let mut s = JsonSource::new(Mode::Lean);
        detect::detect(&mut s, &parse(json)).unwrap()
    };
    assert_eq!(src(r#"{"input": "x"}"#), Format::Responses);
    assert_eq!(
        src(r#"{"system": null, "messages": []}"#),
        Format::Anthropic
    );
    assert_eq!(
        src(r#"{"messages": [{"role": "user", "content": [{"type": "image", "source": {}}]}]}"#),
        Format::Anthropic
    );
    assert_eq!(
        src(r#"{"messages": [{"role": "user", "content": "x"}]}"#),
        Format::Openai
    );
}

#[test]
fn caps_are_counted_as_blocks_are_read() {
    let many: Vec<String> = (0..10)
        .map(|i| format!(r#"{{"type": "text", "text": "b{i}"}}"#))
        .collect();
    let json = format!(
        r#"{{"messages": [{{"role": "user", "content": "old"}},
            {{"role": "user", "content": [{}]}}]}}"#,
        many.join(",")
    );
    let caps = Caps {
        messages: None,
        blocks: Some(4),
    };
    let out = run(&json, Some(Format::Neutral), Mode::Lean, caps).unwrap();
    assert_eq!(out.messages.len(), 1);
    assert_eq!(out.messages[0].1.len(), 4); // the first four blocks, read in order
    assert_eq!(out.decoded.walk.skipped, 1);
    assert!(!out.decoded.walk.complete);
    // Anthropic reads a message from its end: the newest blocks are kept.
    let out = run(&json, Some(Format::Anthropic), Mode::Lean, caps).unwrap();
    let texts: Vec<_> = out.messages[0]
        .1
        .iter()
        .map(|b| b.text.clone().unwrap())
        .collect();
    assert_eq!(texts, ["b6", "b7", "b8", "b9"]);
}

#[test]
fn lean_decoding_stops_at_the_budget() {
    let mut src = JsonSource::new(Mode::Lean);
    src.limit = 12;
    let mut out: Collector<String> = Collector::new(None, None);
    let request = parse(
        r#"{"messages": [{"role": "system", "content": "a"}, {"role": "system", "content": "b"},
            {"role": "system", "content": "c"}, {"role": "user", "content": "x"},
            {"role": "user", "content": "y"}]}"#,
    );
    let decoded = decode(&mut src, &mut out, &request, Some(Format::Openai)).unwrap();
    assert!(decoded.walk.truncated);
    out.finish();
    assert_eq!(out.messages.len(), 2);
    let mut src = JsonSource::new(Mode::Full);
    src.limit = 12;
    let mut out: Collector<String> = Collector::new(None, None);
    match decode(&mut src, &mut out, &request, Some(Format::Openai)) {
        Err(Failure::Wire(e)) => {
            assert!(e.problem.starts_with("over the decoding budget"));
            assert!(e.path().starts_with("messages["));
        }
        other => panic!("{:?}", other.map(|d| d.walk)),
    }
}

#[test]
fn counting_the_facts() {
    let mut src = JsonSource::new(Mode::Count);
    let mut out = Counter::new();
    let request = parse(
        r#"{"messages": [{"role": "system", "content": "s"},
            {"role": "user", "content": [{"type": "image_url"}, {"type": "text", "text": "x"}]},
            {"role": "assistant", "tool_calls": [{"id": "c"}]},
            {"role": "tool", "tool_call_id": "c", "content": "ok"}],
            "tool_choice": {"type": "function", "function": {"name": "f"}}}"#,
    );
    let decoded = decode::<_, Counter>(&mut src, &mut out, &request, Some(Format::Openai)).unwrap();
    assert_eq!(
        (
            out.users,
            out.assistants,
            out.tools,
            out.systems,
            out.calls,
            out.results,
            out.images
        ),
        (1, 1, 1, 1, 1, 1, 1)
    );
    assert_eq!(out.active_tool_loop(), 1);
    assert_eq!(decoded.tool_choice, Some(ToolChoice::Required));
}

#[test]
fn the_window_of_a_decoded_conversation() {
    let out = run(
        r#"{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"},
            {"role": "tool", "content": [{"type": "tool_result", "call_id": "x"}]}]}"#,
        Some(Format::Neutral),
        Mode::Lean,
        EVALUATOR_CAPS,
    )
    .unwrap();
    let kinds: Vec<u8> = out
        .messages
        .iter()
        .map(|(r, b)| message_kind(*r, b))
        .collect();
    assert_eq!(kinds, [kind::START, kind::ASSISTANT, kind::RESULT]);
    let counts = out.messages.iter().map(|(_, b)| b.len());
    assert_eq!(window(counts, false), (0, model::floor::START));
}

/// The kind one block of `content` decodes to, in COUNT mode.
fn counted_kind(json: &str, format: Format) -> BlockKind {
    let out = run(json, Some(format), Mode::Count, Caps::default()).unwrap();
    assert_eq!(out.messages.len(), 1);
    out.messages[0].1[0].kind
}

#[test]
fn the_kind_tables_match_the_decoders() {
    // The facts' plain reader counts by these tables; the decoders by their
    // own matches. Every listed type, and one unknown, both ways.
    type KindOf = fn(&str) -> BlockKind;
    let tables: [(Format, &[&str], KindOf); 2] = [
        (Format::Openai, openai::PART_TYPES, openai::part_kind),
        (
            Format::Anthropic,
            anthropic::BLOCK_TYPES,
            anthropic::block_kind,
        ),
    ];
    for (format, names, kind_of) in tables {
        for name in names.iter().chain(["video"].iter()) {
            let json = format!(
                r#"{{"messages": [{{"role": "user", "content": [{{"type": "{name}"}}]}}]}}"#
            );
            assert_eq!(counted_kind(&json, format), kind_of(name), "{name}");
        }
    }
    for name in ["function", "custom", "other"] {
        let json = format!(
            r#"{{"messages": [{{"role": "assistant", "tool_calls": [{{"type": "{name}"}}]}}]}}"#
        );
        let call = counted_kind(&json, Format::Openai) == BlockKind::ToolCall;
        assert_eq!(call, openai::CALL_TYPES.contains(&name), "{name}");
    }
}
