//! The neutral model as the decoders produce it (spec topic-continuity.md §2):
//! roles, block kinds, blocks holding handles to the request's strings, and
//! the compact per-message view the evaluator walks.

/// A message or instruction role.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    System,
    Developer,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::Developer => "developer",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// A block type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockKind {
    Text,
    Refusal,
    Reasoning,
    Image,
    Audio,
    Video,
    File,
    ToolCall,
    ToolResult,
    Other,
}

impl BlockKind {
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Text => "text",
            BlockKind::Refusal => "refusal",
            BlockKind::Reasoning => "reasoning",
            BlockKind::Image => "image",
            BlockKind::Audio => "audio",
            BlockKind::Video => "video",
            BlockKind::File => "file",
            BlockKind::ToolCall => "tool_call",
            BlockKind::ToolResult => "tool_result",
            BlockKind::Other => "other",
        }
    }

    /// Media: their payload is never read, only their presence.
    pub fn is_opaque(self) -> bool {
        matches!(
            self,
            BlockKind::Image | BlockKind::Audio | BlockKind::Video | BlockKind::File
        )
    }
}

/// One block. `T` is a handle to one of the request's strings (kept, not
/// copied); a missing or null string is `None` (the empty string).
#[derive(Clone, Debug, PartialEq)]
pub struct Block<T> {
    pub kind: BlockKind,
    /// The text of `Text`/`Refusal`/`Reasoning`, the arguments of a
    /// `ToolCall` (FULL decoding), the call id of a `ToolResult`.
    pub text: Option<T>,
    /// A `ToolCall`'s id.
    pub id: Option<T>,
    /// A `ToolCall`'s name.
    pub name: Option<T>,
    /// A `ToolCall` with non-empty arguments (always known, even when the
    /// arguments themselves were not kept).
    pub has_arguments: bool,
    /// A `ToolResult`'s content (FULL decoding only).
    pub children: Vec<Block<T>>,
}

impl<T> Block<T> {
    pub fn of(kind: BlockKind) -> Self {
        Block {
            kind,
            text: None,
            id: None,
            name: None,
            has_arguments: false,
            children: Vec::new(),
        }
    }

    pub fn text(kind: BlockKind, text: Option<T>) -> Self {
        Block {
            text,
            ..Block::of(kind)
        }
    }

    pub fn tool_call(id: Option<T>, name: Option<T>, arguments: Option<T>, has: bool) -> Self {
        Block {
            text: arguments,
            id,
            name,
            has_arguments: has,
            ..Block::of(BlockKind::ToolCall)
        }
    }

    pub fn tool_result(call_id: Option<T>, children: Vec<Block<T>>) -> Self {
        Block {
            text: call_id,
            children,
            ..Block::of(BlockKind::ToolResult)
        }
    }
}

/// How the evaluator's walk sees a message (one byte each, `Doc.kinds`).
pub mod kind {
    /// A user message with a block that is not a tool result: starts a turn.
    pub const START: u8 = 0;
    /// A tool message, or a non-empty user message of tool results only.
    pub const RESULT: u8 = 1;
    pub const ASSISTANT: u8 = 2;
    /// System, developer, an empty user message.
    pub const OTHER: u8 = 3;
}

/// The kind of a message with `role` and `blocks`.
pub fn message_kind<T>(role: Role, blocks: &[Block<T>]) -> u8 {
    match role {
        Role::Assistant => kind::ASSISTANT,
        Role::Tool => kind::RESULT,
        Role::User => {
            if blocks.iter().any(|b| b.kind != BlockKind::ToolResult) {
                kind::START
            } else if blocks.is_empty() {
                kind::OTHER
            } else {
                kind::RESULT
            }
        }
        Role::System | Role::Developer => kind::OTHER,
    }
}

/// What lies before message 0 of the evaluator's window.
pub mod floor {
    /// Nothing: message 0 is the conversation's first.
    pub const START: u8 = 0;
    /// Message 0 reaches the 512-message cap: it cannot be visited.
    pub const SCAN: u8 = 1;
    /// Message 0 reaches the 4,096-block cap: it cannot be visited.
    pub const BLOCKS: u8 = 2;
    /// Older history exists, beyond the decoding budget.
    pub const BUDGET: u8 = 3;
}

/// The evaluator's caps (spec §5.1).
pub const MAX_SCAN_MESSAGES: usize = 512;
pub const MAX_CONTENT_BLOCKS: usize = 4096;

/// The window of `block_counts` (per message, oldest first) the evaluator
/// may visit: `(first, floor)`. Walking from the newest message, the one that
/// makes the count reach 512 messages or 4,096 blocks is the first (and
/// cannot itself be visited); `truncated` means decoding stopped early.
pub fn window(
    block_counts: impl DoubleEndedIterator<Item = usize>,
    truncated: bool,
) -> (usize, u8) {
    let counts: Vec<usize> = block_counts.collect();
    let (mut seen, mut blocks) = (0usize, 0usize);
    for (index, n) in counts.iter().enumerate().rev() {
        seen += 1;
        blocks += n;
        if blocks >= MAX_CONTENT_BLOCKS {
            return (index, floor::BLOCKS);
        }
        if seen >= MAX_SCAN_MESSAGES {
            return (index, floor::SCAN);
        }
    }
    (
        0,
        if truncated {
            floor::BUDGET
        } else {
            floor::START
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        let text = Block::<String>::of(BlockKind::Text);
        let result = Block::<String>::of(BlockKind::ToolResult);
        assert_eq!(
            message_kind(Role::User, &[result.clone(), text.clone()]),
            kind::START
        );
        assert_eq!(
            message_kind(Role::User, std::slice::from_ref(&result)),
            kind::RESULT
        );
        assert_eq!(message_kind::<String>(Role::User, &[]), kind::OTHER);
        assert_eq!(
            message_kind(Role::Tool, std::slice::from_ref(&text)),
            kind::RESULT
        );
        assert_eq!(message_kind(Role::System, &[text]), kind::OTHER);
    }

    #[test]
    fn windows() {
        assert_eq!(window([1, 1, 1].into_iter(), false), (0, floor::START));
        assert_eq!(window([1, 1, 1].into_iter(), true), (0, floor::BUDGET));
        assert_eq!(window([5000, 1].into_iter(), false), (0, floor::BLOCKS));
        assert_eq!(window([1, 4095, 1].into_iter(), false), (1, floor::BLOCKS));
        let many = vec![0; 600];
        assert_eq!(window(many.into_iter(), false), (88, floor::SCAN));
    }
}
