//! Already-decoded neutral messages (`turnsignal.model`) → the evaluator's
//! `Doc`, and their conversation facts. Messages are read by attribute
//! (`role`, `content`, a block's `type`, `text`, `id`, `name`, `arguments`,
//! `call_id`); roles and block types are compared by identity with the
//! members of `Role` and `BlockType`, exactly as the reference does. For the
//! model's own `NamedTuple` classes the attribute is read at its position in
//! the class's `_fields`, looked up once (no position is written here).
//!
//! The evaluator's `Doc` checks each message of its window as
//! `turnsignal._reference.doc.check_message` does, in the same order: a
//! role or block type that is no member, content that is no list or tuple,
//! or a field read as a string that is none is a `WireFormatError` naming
//! where (compared by identity, a role written "user" left its message out
//! of every turn, without a word).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::request::model::{MAX_CONTENT_BLOCKS, MAX_SCAN_MESSAGES};
use crate::request::{Block, BlockKind, Collector, Role, Sink};

use super::decode::wire_format_error;
use super::doc::Doc;
use super::{error_name, type_name};

/// The members of `Role` and `BlockType`, by identity, and where the
/// model's classes keep the fields read here.
struct Members {
    roles: Vec<(Py<PyAny>, Role)>,
    kinds: Vec<(Py<PyAny>, BlockKind)>,
    /// `(class, index of "role", index of "content")` of `Message`.
    message: (Py<PyAny>, usize, usize),
    /// `(class, index of "type")` of every block class.
    blocks: Vec<(Py<PyAny>, usize)>,
}

/// The position of `name` in `class._fields`.
fn field_index(class: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    class
        .getattr("_fields")?
        .call_method1("index", (name,))?
        .extract()
}

static MEMBERS: PyOnceLock<Members> = PyOnceLock::new();

fn members(py: Python<'_>) -> PyResult<&Members> {
    MEMBERS.get_or_try_init(py, || {
        let model = py.import("turnsignal.model")?;
        let role = model.getattr("Role")?;
        let kind = model.getattr("BlockType")?;
        let roles = [
            ("SYSTEM", Role::System),
            ("DEVELOPER", Role::Developer),
            ("USER", Role::User),
            ("ASSISTANT", Role::Assistant),
            ("TOOL", Role::Tool),
        ];
        let kinds = [
            ("TEXT", BlockKind::Text),
            ("REFUSAL", BlockKind::Refusal),
            ("REASONING", BlockKind::Reasoning),
            ("IMAGE", BlockKind::Image),
            ("AUDIO", BlockKind::Audio),
            ("VIDEO", BlockKind::Video),
            ("FILE", BlockKind::File),
            ("TOOL_CALL", BlockKind::ToolCall),
            ("TOOL_RESULT", BlockKind::ToolResult),
            ("OTHER", BlockKind::Other),
        ];
        let message = model.getattr("Message")?;
        let message = (
            message.clone().unbind(),
            field_index(&message, "role")?,
            field_index(&message, "content")?,
        );
        let blocks = [
            "TextBlock",
            "MediaBlock",
            "OtherBlock",
            "ToolCallBlock",
            "ToolResultBlock",
        ]
        .iter()
        .map(|name| {
            let class = model.getattr(*name)?;
            Ok((class.clone().unbind(), field_index(&class, "type")?))
        })
        .collect::<PyResult<_>>()?;
        Ok(Members {
            message,
            blocks,
            roles: roles
                .iter()
                .map(|(n, r)| Ok((role.getattr(*n)?.unbind(), *r)))
                .collect::<PyResult<_>>()?,
            kinds: kinds
                .iter()
                .map(|(n, k)| Ok((kind.getattr(*n)?.unbind(), *k)))
                .collect::<PyResult<_>>()?,
        })
    })
}

/// Field `index` of a tuple (a model NamedTuple: checked by the caller).
fn tuple_field<'py>(obj: &Bound<'py, PyAny>, index: usize) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the caller checked that `obj`'s class is one of the model's
    // NamedTuple classes, whose instances are tuples.
    unsafe { obj.cast_unchecked::<PyTuple>() }.get_item(index)
}

impl Members {
    fn is(&self, obj: &Bound<'_, PyAny>, class: &Py<PyAny>) -> bool {
        obj.get_type().as_ptr() == class.as_ptr()
    }

    /// `(message.role, message.content)`.
    fn message<'py>(
        &self,
        py: Python<'py>,
        message: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let (class, role, content) = &self.message;
        if self.is(message, class) {
            return Ok((
                tuple_field(message, *role)?,
                tuple_field(message, *content)?,
            ));
        }
        Ok((
            message.getattr(intern!(py, "role"))?,
            message.getattr(intern!(py, "content"))?,
        ))
    }

    /// `block.type`.
    fn block_type<'py>(
        &self,
        py: Python<'py>,
        block: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let class = block.get_type();
        for (known, index) in &self.blocks {
            if class.as_ptr() == known.as_ptr() {
                return tuple_field(block, *index);
            }
        }
        block.getattr(intern!(py, "type"))
    }

    fn role(&self, v: &Bound<'_, PyAny>) -> Option<Role> {
        self.roles
            .iter()
            .find(|(m, _)| m.as_ptr() == v.as_ptr())
            .map(|(_, r)| *r)
    }

    fn kind(&self, v: &Bound<'_, PyAny>) -> Option<BlockKind> {
        self.kinds
            .iter()
            .find(|(m, _)| m.as_ptr() == v.as_ptr())
            .map(|(_, k)| *k)
    }
}

/// A caller's object at `path` raised while being read: its type only.
fn unreadable(py: Python<'_>, error: PyErr, path: String) -> PyErr {
    let problem = format!("could not be read ({})", error_name(py, &error));
    wire_format_error(py, path, problem)
}

/// `problem` about the value at `path`, naming its type.
fn expected(py: Python<'_>, path: String, what: &str, value: &Bound<'_, PyAny>) -> PyErr {
    wire_format_error(
        py,
        path,
        format!("expected {what}, got {}", type_name(value)),
    )
}

/// Where a block is: block `block` of message `message`'s content. Written
/// out (`[i].content[j]`) only for an error: a valid block costs nothing.
#[derive(Clone, Copy)]
struct BlockAt {
    message: usize,
    block: usize,
}

impl std::fmt::Display for BlockAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}].content[{}]", self.message, self.block)
    }
}

/// A string field of a block at `path`.
fn string_field(
    py: Python<'_>,
    block: &Bound<'_, PyAny>,
    name: &Bound<'_, PyString>,
    path: BlockAt,
) -> PyResult<Option<Py<PyAny>>> {
    let at = || format!("{path}.{name}");
    let value = block.getattr(name).map_err(|e| unreadable(py, e, at()))?;
    if !value.is_instance_of::<PyString>() {
        return Err(expected(py, at(), "a str", &value));
    }
    Ok(Some(value.unbind()))
}

/// One block of the window, at `path`.
fn read_block(
    py: Python<'_>,
    m: &Members,
    block: &Bound<'_, PyAny>,
    path: BlockAt,
) -> PyResult<Block<Py<PyAny>>> {
    let kind = m
        .block_type(py, block)
        .map_err(|e| unreadable(py, e, path.to_string()))?;
    let Some(kind) = m.kind(&kind) else {
        let what = "a member of turnsignal.model.BlockType";
        return Err(expected(py, format!("{path}.type"), what, &kind));
    };
    Ok(match kind {
        BlockKind::Text => Block::text(kind, string_field(py, block, intern!(py, "text"), path)?),
        BlockKind::ToolCall => {
            let id = string_field(py, block, intern!(py, "id"), path)?;
            let name = string_field(py, block, intern!(py, "name"), path)?;
            let has = block
                .getattr(intern!(py, "arguments"))
                .and_then(|arguments| arguments.is_truthy())
                .map_err(|e| unreadable(py, e, format!("{path}.arguments")))?;
            Block::tool_call(id, name, None, has)
        }
        BlockKind::ToolResult => Block::tool_result(
            string_field(py, block, intern!(py, "call_id"), path)?,
            Vec::new(),
        ),
        other => Block::of(other),
    })
}

/// Message `index`'s role and content, checked: a `Role` member and a list
/// or tuple.
fn read_message<'py>(
    py: Python<'py>,
    m: &Members,
    message: &Bound<'py, PyAny>,
    index: usize,
) -> PyResult<(Role, Bound<'py, PyAny>)> {
    let (role, content) = m
        .message(py, message)
        .map_err(|e| unreadable(py, e, format!("[{index}]")))?;
    let Some(role) = m.role(&role) else {
        let what = "a member of turnsignal.model.Role";
        return Err(expected(py, format!("[{index}].role"), what, &role));
    };
    if !(content.is_instance_of::<PyList>() || content.is_instance_of::<PyTuple>()) {
        let what = "a list or tuple of blocks";
        return Err(expected(py, format!("[{index}].content"), what, &content));
    }
    Ok((role, content))
}

/// The evaluator's `Doc` of neutral messages: only the newest ones its
/// caps let it visit are read.
#[pyfunction]
pub fn messages_doc(py: Python<'_>, messages: &Bound<'_, PyAny>) -> PyResult<Doc> {
    let m = members(py)?;
    let mut out: Collector<Py<PyAny>> = Collector::new(None, None);
    let total = messages.len()?;
    let (mut seen, mut blocks) = (0usize, 0usize);
    for index in (0..total).rev() {
        let message = messages.get_item(index)?;
        let (role, content) = read_message(py, m, &message, index)?;
        out.begin(role, false);
        let count = content.len()?;
        for position in 0..count {
            let path = BlockAt {
                message: index,
                block: position,
            };
            let block = read_block(py, m, &content.get_item(position)?, path)?;
            let _ = out.add(block);
        }
        let _ = out.end();
        seen += 1;
        blocks += count;
        if seen >= MAX_SCAN_MESSAGES || blocks >= MAX_CONTENT_BLOCKS {
            break;
        }
    }
    out.finish();
    Doc::from_collector(py, out, false, true, "neutral")
}

/// `(users, assistants, tools, systems, developers, calls, results, images)`
/// of neutral messages (see `turnsignal._reference.facts.count_facts`).
#[pyfunction]
pub fn count_facts<'py>(
    py: Python<'py>,
    messages: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    let m = members(py)?;
    let mut n = [0usize; 8];
    let [users, assistants, tools, systems, developers, calls, results, images] =
        [0, 1, 2, 3, 4, 5, 6, 7];
    for message in messages.try_iter()? {
        let (role, content) = m.message(py, &message?)?;
        let role = m.role(&role);
        match role {
            Some(Role::User) => n[users] += 1,
            Some(Role::Assistant) => n[assistants] += 1,
            Some(Role::Tool) => n[tools] += 1,
            Some(Role::System) => n[systems] += 1,
            Some(Role::Developer) => n[developers] += 1,
            None => {}
        }
        for block in content.try_iter()? {
            // No member: a block that counts for nothing (`compute_facts`
            // reads decoded conversations).
            let kind = m
                .kind(&m.block_type(py, &block?)?)
                .unwrap_or(BlockKind::Other);
            match (role, kind) {
                (Some(Role::Assistant), BlockKind::ToolCall) => n[calls] += 1,
                (Some(Role::User), BlockKind::Image) => n[images] += 1,
                (_, BlockKind::ToolResult) => n[results] += 1,
                _ => {}
            }
        }
    }
    PyTuple::new(py, n)
}
