//! Typed reads shared by the format decoders, and the bounded walk from the
//! end of a wire list (mirrors `python/turnsignal/_reference/request/read.py`
//! and `sink.py`: the same reads, in the same order, with the same errors).

use super::model::{Block, BlockKind};
use super::sink::Sink;
use super::source::{thousands, Failure, Key, Mode, Read, Seg, Shape, Source};

pub fn expected(what: &str, got: String) -> String {
    format!("expected {what}, got {got}")
}

/// "expected `what`, got <type of v>" at `key` of the value being decoded.
pub fn wrong_type<S: Source>(src: &mut S, v: &S::V, key: Key, what: &str) -> Failure {
    let got = src.type_name(v);
    Failure::at_key(key, expected(what, got))
}

/// A string, null or a list: what content and `system` may be.
pub const CONTENT: &str = "a string, null or a list";

pub fn require_map<S: Source>(src: &mut S, v: &S::V) -> Read<()> {
    if src.shape(v) == Shape::Map {
        return Ok(());
    }
    let got = src.type_name(v);
    Err(Failure::wire(expected("a mapping", got)))
}

pub fn require_list<S: Source>(src: &mut S, v: &S::V) -> Read<()> {
    if src.shape(v) == Shape::List {
        return Ok(());
    }
    let got = src.type_name(v);
    Err(Failure::wire(expected("a list", got)))
}

/// `map[key]`, `None` when it is missing or null.
pub fn get_present<S: Source>(src: &mut S, map: Option<&S::V>, key: Key) -> Read<Option<S::V>> {
    let Some(map) = map else { return Ok(None) };
    Ok(src.get(map, key)?.filter(|v| !src.is_null(v)))
}

/// `map[key]` as a string value, `None` when missing or null (the empty string).
pub fn get_str<S: Source>(src: &mut S, map: &S::V, key: Key) -> Read<Option<S::V>> {
    match get_present(src, Some(map), key)? {
        None => Ok(None),
        Some(v) if src.shape(&v) == Shape::Str => Ok(Some(v)),
        Some(v) => Err(wrong_type(src, &v, key, "a string")),
    }
}

/// `get_str` kept as a block string (`None` for the empty string too? no:
/// an empty string is kept as it is).
pub fn keep_str<S: Source>(src: &mut S, map: &S::V, key: Key) -> Read<Option<S::T>> {
    Ok(get_str(src, map, key)?.map(|v| src.keep(&v)))
}

/// Whether a string value is present and non-empty.
pub fn non_empty<S: Source>(src: &mut S, v: &Option<S::V>) -> bool {
    match v {
        Some(v) => !src.str_is_empty(v),
        None => false,
    }
}

/// A block's `type` when it is a string.
pub fn block_type<S: Source>(src: &mut S, block: &S::V) -> Read<Option<S::V>> {
    Ok(src
        .get(block, Key::Type)?
        .filter(|v| src.shape(v) == Shape::Str))
}

/// The kind of the block type `name` in a decoder's table (`names` and the
/// `kinds` they decode to, in the same order); `Other` when not listed.
#[inline(always)]
pub fn kind_in(names: &[&str], kinds: &[BlockKind], name: &str) -> BlockKind {
    let found = names.iter().position(|t| *t == name);
    found.map_or(BlockKind::Other, |i| kinds[i])
}

/// The index of `v` (a string) in `literals`, compared exactly.
pub fn which<S: Source>(src: &mut S, v: &S::V, literals: &[&str]) -> Option<usize> {
    src.which(v, literals)
}

/// Whether `v` (a string), trimmed and lowercased, is `literal`.
pub fn folded_is<S: Source>(src: &mut S, v: &S::V, literal: &str) -> bool {
    src.which_folded(v, &[literal]).is_some()
}

/// The trimmed, lowercased role, which must be one of `table` (sorted names
/// listed in `names` for the error).
pub fn role_of<S: Source, R: Copy, const N: usize>(
    src: &mut S,
    map: &S::V,
    table: &[(&str, R); N],
    names: &str,
) -> Read<R> {
    let Some(value) = get_present(src, Some(map), Key::Role)? else {
        return Err(Failure::at_key(Key::Role, "missing role"));
    };
    if src.shape(&value) != Shape::Str {
        return Err(wrong_type(src, &value, Key::Role, "a string"));
    }
    let literals: [&str; N] = std::array::from_fn(|i| table[i].0);
    if let Some(i) = src.which_folded(&value, &literals) {
        return Ok(table[i].1);
    }
    // The value is request text: it is deliberately not echoed.
    Err(Failure::at_key(
        Key::Role,
        format!("unknown role (expected one of: {names})"),
    ))
}

/// The role of one message of a request, which must be a map: how every
/// format's `decode_message` opens.
pub fn message_role<S: Source, R: Copy, const N: usize>(
    src: &mut S,
    message: &S::V,
    table: &[(&str, R); N],
    names: &str,
) -> Read<R> {
    require_map(src, message)?;
    role_of(src, message, table, names)
}

/// `map[key]` as a list, `None` when missing or null.
pub fn optional_list<S: Source>(src: &mut S, map: &S::V, key: Key) -> Read<Option<S::V>> {
    match get_present(src, Some(map), key)? {
        None => Ok(None),
        Some(v) => {
            require_list(src, &v).map_err(|e| e.under_key(key))?;
            Ok(Some(v))
        }
    }
}

/// `decode(item)` for each item of `items` (a list found at `key`), handed
/// to `each` one at a time; errors re-rooted at `key[i]` (at `key` when the
/// list itself fails).
pub fn for_each_item<S, D, E>(
    src: &mut S,
    items: &S::V,
    key: Key,
    mut decode: D,
    mut each: E,
) -> Read<()>
where
    S: Source,
    D: FnMut(&mut S, &S::V) -> Read<Block<S::T>>,
    E: FnMut(Block<S::T>) -> Read<()>,
{
    let count = src.len(items).map_err(|e| e.under_key(key))?;
    for index in 0..count {
        let item = src.item(items, index).map_err(|e| e.under_key(key))?;
        let block = decode(src, &item).map_err(|e| e.under(Seg::Index(index)).under_key(key))?;
        each(block)?;
    }
    Ok(())
}

/// The text block of a string content (not read in COUNT decoding).
pub fn text_block<S: Source>(src: &mut S, v: &S::V) -> Block<S::T> {
    let text = if src.mode() == Mode::Count {
        None
    } else {
        Some(src.keep(v))
    };
    Block::text(BlockKind::Text, text)
}

/// `content` (found at `key`) as blocks, handed to `each` as they are
/// decoded: a string is one text block (even `""`), missing or null is none,
/// a list is one block per part, in order.
pub fn blocks_of<S, D, E>(
    src: &mut S,
    content: Option<S::V>,
    key: Key,
    decode: D,
    mut each: E,
) -> Read<()>
where
    S: Source,
    D: FnMut(&mut S, &S::V) -> Read<Block<S::T>>,
    E: FnMut(Block<S::T>) -> Read<()>,
{
    let Some(content) = content else {
        return Ok(());
    };
    match src.shape(&content) {
        Shape::Str => {
            let block = text_block(src, &content);
            each(block)
        }
        Shape::List => for_each_item(src, &content, key, decode, each),
        _ => Err(wrong_type(src, &content, key, CONTENT)),
    }
}

/// `blocks_of` collected (content nobody caps: instructions, nested results).
pub fn collect_blocks<S, D>(
    src: &mut S,
    content: Option<S::V>,
    key: Key,
    decode: D,
) -> Read<Vec<Block<S::T>>>
where
    S: Source,
    D: FnMut(&mut S, &S::V) -> Read<Block<S::T>>,
{
    let mut out = Vec::new();
    blocks_of(src, content, key, decode, |b| {
        out.push(b);
        Ok(())
    })?;
    Ok(out)
}

/// Tool results nested in tool results, at most (FULL decoding).
pub const MAX_DEPTH: usize = 32;

/// The blocks of a nested tool result's `content` list, decoded at
/// `depth + 1` (deeper than `MAX_DEPTH` is an error).
pub fn nested_blocks<S, D>(
    src: &mut S,
    content: S::V,
    depth: usize,
    mut decode: D,
) -> Read<Vec<Block<S::T>>>
where
    S: Source,
    D: FnMut(&mut S, &S::V, usize) -> Read<Block<S::T>>,
{
    if depth >= MAX_DEPTH {
        return Err(Failure::at_key(
            Key::Content,
            "tool results nested too deeply",
        ));
    }
    collect_blocks(src, Some(content), Key::Content, |src, item| {
        decode(src, item, depth + 1)
    })
}

/// `mapping[key]` as blocks added to the open message of `out`.
pub fn add_content<S, K, D>(src: &mut S, out: &mut K, map: &S::V, key: Key, decode: D) -> Read<()>
where
    S: Source,
    K: Sink<S::T>,
    D: FnMut(&mut S, &S::V) -> Read<Block<S::T>>,
{
    let content = get_present(src, Some(map), key)?;
    blocks_of(src, content, key, decode, |b| out.add(b))
}

/// Length of `mapping[key]` when it is a list, else 0.
pub fn count_list<S: Source>(src: &mut S, top: Option<&S::V>, key: Key) -> Read<usize> {
    let Some(top) = top else { return Ok(0) };
    match src.get(top, key)? {
        Some(v) if src.shape(&v) == Shape::List => src.len(&v).map_err(|e| e.under_key(key)),
        _ => Ok(0),
    }
}

/// The tool definitions (the lists at `keys`, counted) and the `tool_choice`
/// kind of a request: what the facts need (not read in LEAN decoding).
pub fn tools_and_choice<S: Source>(
    src: &mut S,
    top: Option<&S::V>,
    keys: &[Key],
) -> Read<(usize, Option<ToolChoice>)> {
    if src.mode() == Mode::Lean {
        return Ok((0, None));
    }
    let mut tools = 0;
    for &key in keys {
        tools += count_list(src, top, key)?;
    }
    Ok((tools, tool_choice(src, top)?))
}

/// The top level and the messages list of a request (`None` top for a bare list).
pub fn request_messages<S: Source>(src: &mut S, request: &S::V) -> Read<(Option<S::V>, S::V)> {
    if src.shape(request) == Shape::List {
        return Ok((None, request.clone()));
    }
    require_map(src, request)?;
    let Some(messages) = src.get(request, Key::Messages)? else {
        return Err(missing_messages(src, request));
    };
    require_list(src, &messages).map_err(|e| e.under_key(Key::Messages))?;
    Ok((Some(request.clone()), messages))
}

/// What a body without `messages` but with `input` is.
pub const LOOKS_LIKE_RESPONSES: &str = ": this looks like an OpenAI Responses request \
    (it has input); use format \"responses\" or \"auto\"";

/// `messages` is missing: say so, and what the body looks like when its top
/// level says (one more key read, on the error path only), so that a body
/// named as the wrong format is an error naming the right one.
fn missing_messages<S: Source>(src: &mut S, top: &S::V) -> Failure {
    match src.get(top, Key::Input) {
        Ok(Some(_)) => Failure::at_key(Key::Messages, format!("missing{LOOKS_LIKE_RESPONSES}")),
        Ok(None) => Failure::at_key(Key::Messages, "missing"),
        Err(e) => e,
    }
}

/// How the walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct WalkEnd {
    /// Wire items older than the decoded ones, left undecoded.
    pub skipped: usize,
    /// No cap (nor the budget) stopped the walk.
    pub complete: bool,
    /// LEAN decoding stopped at the source's budget.
    pub truncated: bool,
}

pub const COMPLETE: WalkEnd = WalkEnd {
    skipped: 0,
    complete: true,
    truncated: false,
};

/// The budget error at the item being read.
fn over_budget<S: Source>(src: &S, name: &'static str, index: usize) -> Failure {
    let problem = format!(
        "over the decoding budget of {} values",
        thousands(src.limit())
    );
    Failure::wire(problem)
        .under(Seg::Index(index))
        .under(Seg::Key(name))
}

/// Decode `items` (a list found at `name`) from the end into `out`, stopping
/// at its caps. The budget running out is an error naming the item, except
/// in LEAN decoding, where the walk stops there (the item being read is
/// dropped) and reports `truncated`.
pub fn walk_back<S, K, D>(
    src: &mut S,
    out: &mut K,
    items: &S::V,
    name: &'static str,
    mut decode_item: D,
) -> Read<WalkEnd>
where
    S: Source,
    K: Sink<S::T>,
    D: FnMut(&mut S, &mut K, &S::V) -> Read<()>,
{
    let mut index = src.len(items).map_err(|e| e.under(Seg::Key(name)))?;
    out.expect(index);
    let lean = src.mode() == Mode::Lean;
    while index > 0 {
        index -= 1;
        let item = match src.item(items, index) {
            Ok(item) => item,
            Err(Failure::Budget) if lean => return Ok(truncated(index + 1)),
            Err(Failure::Budget) => return Err(over_budget(src, name, index)),
            Err(e) => return Err(e.under(Seg::Key(name))),
        };
        match decode_item(src, out, &item) {
            Ok(()) => {}
            Err(Failure::Cap) => {
                out.close();
                return Ok(WalkEnd {
                    skipped: index,
                    complete: false,
                    truncated: false,
                });
            }
            Err(Failure::Budget) if lean => {
                out.discard();
                return Ok(truncated(index + 1));
            }
            Err(Failure::Budget) => return Err(over_budget(src, name, index)),
            Err(e) => return Err(e.under(Seg::Index(index)).under(Seg::Key(name))),
        }
    }
    Ok(COMPLETE)
}

fn truncated(skipped: usize) -> WalkEnd {
    WalkEnd {
        skipped,
        complete: false,
        truncated: true,
    }
}

/// What `tool_choice` asks for (only the kind is kept, never the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// A tool must be called: `"required"`, `"any"`, a named or hosted tool.
    Required,
    /// `"none"`.
    NoTool,
    /// Anything else that is present.
    Auto,
}

impl ToolChoice {
    pub fn name(self) -> &'static str {
        match self {
            ToolChoice::Required => "required",
            ToolChoice::NoTool => "none",
            ToolChoice::Auto => "auto",
        }
    }
}

/// The request's `tool_choice` kind; `None` when missing or null.
pub fn tool_choice<S: Source>(src: &mut S, top: Option<&S::V>) -> Read<Option<ToolChoice>> {
    let Some(value) = get_present(src, top, Key::ToolChoice)? else {
        return Ok(None);
    };
    match src.shape(&value) {
        Shape::Str => Ok(Some(choice_string(src, &value))),
        Shape::Map => choice_mapping(src, &value)
            .map(Some)
            .map_err(|e| e.under_key(Key::ToolChoice)),
        _ => Ok(Some(ToolChoice::Auto)),
    }
}

fn choice_string<S: Source>(src: &mut S, v: &S::V) -> ToolChoice {
    match src.which_folded(v, &["required", "any", "none"]) {
        Some(0 | 1) => ToolChoice::Required,
        Some(_) => ToolChoice::NoTool,
        None => ToolChoice::Auto,
    }
}

fn choice_mapping<S: Source>(src: &mut S, value: &S::V) -> Read<ToolChoice> {
    let Some(kind) = get_present(src, Some(value), Key::Type)? else {
        // The legacy Chat `{"name": ...}` form names a tool.
        let named = match src.get(value, Key::Name)? {
            Some(name) => src.shape(&name) == Shape::Str,
            None => false,
        };
        return Ok(if named {
            ToolChoice::Required
        } else {
            ToolChoice::Auto
        });
    };
    if src.shape(&kind) != Shape::Str {
        return Ok(ToolChoice::Auto);
    }
    match src.which_folded(&kind, &["none", "auto", "allowed_tools"]) {
        Some(0) => return Ok(ToolChoice::NoTool),
        Some(1) => return Ok(ToolChoice::Auto),
        Some(_) => {}
        None => return Ok(ToolChoice::Required), // any, required, or a named / hosted tool
    }
    // Chat nests the mode (`allowed_tools.mode`); Responses puts it beside `type`.
    let nested = src.get(value, Key::AllowedTools)?;
    let mode = match nested {
        Some(n) if src.shape(&n) == Shape::Map => src.get(&n, Key::Mode)?,
        _ => src.get(value, Key::Mode)?,
    };
    Ok(match mode {
        Some(m) if src.shape(&m) == Shape::Str && folded_is(src, &m, "required") => {
            ToolChoice::Required
        }
        _ => ToolChoice::Auto,
    })
}
