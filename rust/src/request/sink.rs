//! Where the decoders put what they decode: a `Collector` keeps the messages
//! (with the tail caps, counted as blocks are read), a `Counter` only counts
//! the conversation facts (spec conversation.md, "Facts").

use super::model::{Block, BlockKind, Role};
use super::source::{Failure, Read};

/// What an item decoder reports, in reading order (newest message first).
pub trait Sink<T> {
    /// Open a message; `reversed` when its blocks arrive newest first.
    fn begin(&mut self, role: Role, reversed: bool);
    /// A top-level block of the open message; `Failure::Cap` when it reaches
    /// the block cap (the open message is then the last one decoded).
    fn add(&mut self, block: Block<T>) -> Read<()>;
    /// Close the open message; `Failure::Cap` when it reaches the message cap.
    fn end(&mut self) -> Read<()>;
    /// A whole one-block message, the last thing its item holds.
    fn message(&mut self, role: Role, block: Block<T>) -> Read<()>;
    /// Keep the open message (if any) as it is.
    fn close(&mut self);
    /// Drop the open message (decoding stopped inside it).
    fn discard(&mut self);
    fn instruction(&mut self, role: Role, blocks: Vec<Block<T>>);
    /// `items` messages (or items) are about to be read: room for them
    /// can be made at once.
    fn expect(&mut self, _items: usize) {}
    /// An `item_reference` was decoded (Responses).
    fn history_unavailable(&mut self);
    /// Whether `history_unavailable` was called.
    fn saw_item_reference(&self) -> bool;
}

/// One decoded message: its role and its blocks' range in `Collector::blocks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageSpan {
    pub role: Role,
    pub start: usize,
    pub end: usize,
}

/// Keeps everything decoded, newest first until `finish`.
pub struct Collector<T> {
    max_messages: usize,
    max_blocks: usize,
    pub messages: Vec<MessageSpan>,
    pub blocks: Vec<Block<T>>,
    pub instructions: Vec<(Role, Vec<Block<T>>)>,
    pub history_unavailable: bool,
    open: Option<(Role, usize, bool)>,
}

impl<T> Collector<T> {
    /// `None` caps are no caps.
    pub fn new(tail_messages: Option<usize>, tail_blocks: Option<usize>) -> Self {
        Collector {
            max_messages: tail_messages.unwrap_or(usize::MAX),
            max_blocks: tail_blocks.unwrap_or(usize::MAX),
            messages: Vec::new(),
            blocks: Vec::new(),
            instructions: Vec::new(),
            history_unavailable: false,
            open: None,
        }
    }

    /// Put messages and instructions in conversation order (oldest first).
    pub fn finish(&mut self) {
        self.close();
        self.messages.reverse();
        self.instructions.reverse();
    }

    pub fn message_blocks(&self, m: &MessageSpan) -> &[Block<T>] {
        &self.blocks[m.start..m.end]
    }
}

/// Room made at once for at most this many messages and blocks: a request's
/// own length never sizes an allocation beyond it.
const MOST_RESERVED: usize = 1024;

impl<T> Sink<T> for Collector<T> {
    fn expect(&mut self, items: usize) {
        // Growing one push at a time costs several reallocations on every
        // request; most messages hold one block.
        let messages = items.min(self.max_messages).min(MOST_RESERVED);
        self.messages.reserve(messages);
        self.blocks.reserve(messages.min(self.max_blocks));
    }

    fn begin(&mut self, role: Role, reversed: bool) {
        self.open = Some((role, self.blocks.len(), reversed));
    }

    fn add(&mut self, block: Block<T>) -> Read<()> {
        self.blocks.push(block);
        if self.blocks.len() == self.max_blocks {
            return Err(Failure::Cap);
        }
        Ok(())
    }

    fn end(&mut self) -> Read<()> {
        self.close();
        if self.messages.len() == self.max_messages {
            return Err(Failure::Cap);
        }
        Ok(())
    }

    fn message(&mut self, role: Role, block: Block<T>) -> Read<()> {
        let start = self.blocks.len();
        self.blocks.push(block);
        self.messages.push(MessageSpan {
            role,
            start,
            end: start + 1,
        });
        if self.blocks.len() == self.max_blocks || self.messages.len() == self.max_messages {
            return Err(Failure::Cap);
        }
        Ok(())
    }

    fn close(&mut self) {
        if let Some((role, start, reversed)) = self.open.take() {
            if reversed {
                self.blocks[start..].reverse();
            }
            self.messages.push(MessageSpan {
                role,
                start,
                end: self.blocks.len(),
            });
        }
    }

    fn discard(&mut self) {
        if let Some((_, start, _)) = self.open.take() {
            self.blocks.truncate(start);
        }
    }

    fn instruction(&mut self, role: Role, blocks: Vec<Block<T>>) {
        self.instructions.push((role, blocks));
    }

    fn history_unavailable(&mut self) {
        self.history_unavailable = true;
    }

    fn saw_item_reference(&self) -> bool {
        self.history_unavailable
    }
}

/// The conversation facts counted from decoded messages, none of them kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counter {
    pub users: usize,
    pub assistants: usize,
    pub tools: usize,
    pub systems: usize,
    pub developers: usize,
    pub calls: usize,
    pub results: usize,
    pub images: usize,
    open: Option<Role>,
    open_has_result: bool,
    /// Messages closed so far: the first is the newest.
    closed: usize,
    newest_carries_result: bool,
    newest_is_user: bool,
    second_carries_result: bool,
}

impl Counter {
    pub fn new() -> Self {
        Self::default()
    }

    /// 1 when the request is continuing a tool loop right now (spec table).
    pub fn active_tool_loop(&self) -> usize {
        let active = self.calls > self.results
            || (self.closed > 0 && self.newest_carries_result)
            || (self.newest_is_user && self.closed > 1 && self.second_carries_result);
        usize::from(active)
    }

    /// `n` blocks of `kind` added to the open message at once: what `add`
    /// does `n` times (for a reader that only counts blocks).
    pub fn add_many(&mut self, kind: BlockKind, n: usize) {
        if let (Some(role), true) = (self.open, n > 0) {
            self.count_blocks(role, kind, n);
        }
    }

    fn count_blocks(&mut self, role: Role, kind: BlockKind, n: usize) {
        match (role, kind) {
            (Role::Assistant, BlockKind::ToolCall) => self.calls += n,
            (Role::User, BlockKind::Image) => self.images += n,
            (_, BlockKind::ToolResult) => self.results += n,
            _ => {}
        }
        if kind == BlockKind::ToolResult {
            self.open_has_result = true;
        }
    }

    fn count_message(&mut self, role: Role) {
        match role {
            Role::User => self.users += 1,
            Role::Assistant => self.assistants += 1,
            Role::Tool => self.tools += 1,
            Role::System => self.systems += 1,
            Role::Developer => self.developers += 1,
        }
        let carries = role == Role::Tool || self.open_has_result;
        if self.closed == 0 {
            self.newest_carries_result = carries;
            self.newest_is_user = role == Role::User;
        } else if self.closed == 1 {
            self.second_carries_result = carries;
        }
        self.closed += 1;
        self.open_has_result = false;
    }
}

impl<T> Sink<T> for Counter {
    fn begin(&mut self, role: Role, _reversed: bool) {
        self.open = Some(role);
        self.open_has_result = false;
    }

    fn add(&mut self, block: Block<T>) -> Read<()> {
        if let Some(role) = self.open {
            self.count_blocks(role, block.kind, 1);
        }
        Ok(())
    }

    fn end(&mut self) -> Read<()> {
        <Self as Sink<T>>::close(self);
        Ok(())
    }

    fn message(&mut self, role: Role, block: Block<T>) -> Read<()> {
        self.open_has_result = false;
        self.count_blocks(role, block.kind, 1);
        self.count_message(role);
        Ok(())
    }

    fn close(&mut self) {
        if let Some(role) = self.open.take() {
            self.count_message(role);
        }
    }

    fn discard(&mut self) {
        self.open = None;
    }

    fn instruction(&mut self, role: Role, _blocks: Vec<Block<T>>) {
        match role {
            Role::System => self.systems += 1,
            Role::Developer => self.developers += 1,
            _ => {}
        }
    }

    fn history_unavailable(&mut self) {}

    fn saw_item_reference(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text() -> Block<String> {
        Block::of(BlockKind::Text)
    }

    #[test]
    fn the_block_cap_is_reached_as_blocks_are_read() {
        let mut c = Collector::new(None, Some(2));
        c.begin(Role::User, false);
        assert!(c.add(text()).is_ok());
        assert_eq!(c.add(text()), Err(Failure::Cap));
        c.finish();
        assert_eq!(c.messages.len(), 1);
        assert_eq!(c.blocks.len(), 2);
    }

    #[test]
    fn room_made_ahead_is_bounded_by_the_caps() {
        let mut capped: Collector<String> = Collector::new(Some(512), Some(4096));
        capped.expect(1_000_000);
        assert!(capped.messages.capacity() >= 512 && capped.messages.capacity() < 1024);
        let mut uncapped: Collector<String> = Collector::new(None, None);
        uncapped.expect(usize::MAX);
        assert!(uncapped.messages.capacity() >= MOST_RESERVED);
        assert!(uncapped.blocks.capacity() < 2 * MOST_RESERVED);
        let mut short: Collector<String> = Collector::new(None, Some(1));
        short.expect(8);
        assert!(short.messages.capacity() >= 8 && short.blocks.capacity() < 8);
    }

    #[test]
    fn reversed_messages_are_put_in_order() {
        let mut c: Collector<String> = Collector::new(Some(1), None);
        c.begin(Role::User, true);
        c.add(Block::text(BlockKind::Text, Some("b".into())))
            .unwrap();
        c.add(Block::text(BlockKind::Text, Some("a".into())))
            .unwrap();
        assert_eq!(c.end(), Err(Failure::Cap));
        c.finish();
        let texts: Vec<_> = c.blocks.iter().map(|b| b.text.clone().unwrap()).collect();
        assert_eq!(texts, ["a", "b"]);
    }

    #[test]
    fn add_many_is_add_repeated() {
        for kind in [BlockKind::Image, BlockKind::ToolCall, BlockKind::ToolResult] {
            for role in [Role::User, Role::Assistant] {
                let (mut one, mut many) = (Counter::new(), Counter::new());
                Sink::<String>::begin(&mut one, role, false);
                Sink::<String>::begin(&mut many, role, false);
                for _ in 0..3 {
                    Sink::<String>::add(&mut one, Block::of(kind)).unwrap();
                }
                many.add_many(kind, 3);
                Sink::<String>::end(&mut one).unwrap();
                Sink::<String>::end(&mut many).unwrap();
                let facts = |n: &Counter| (n.calls, n.results, n.images, n.active_tool_loop());
                assert_eq!(facts(&one), facts(&many));
            }
        }
        let mut none = Counter::new();
        none.add_many(BlockKind::Image, 3); // no open message: nothing counted
        assert_eq!(none.images, 0);
    }

    #[test]
    fn counter_counts_like_the_facts() {
        let mut n = Counter::new();
        // Newest first: a user message, then the tool result before it.
        Sink::<String>::begin(&mut n, Role::User, false);
        Sink::<String>::add(&mut n, Block::of(BlockKind::Image)).unwrap();
        Sink::<String>::end(&mut n).unwrap();
        Sink::<String>::message(&mut n, Role::Tool, Block::of(BlockKind::ToolResult)).unwrap();
        Sink::<String>::begin(&mut n, Role::Assistant, false);
        Sink::<String>::add(&mut n, Block::of(BlockKind::ToolCall)).unwrap();
        Sink::<String>::end(&mut n).unwrap();
        Sink::<String>::instruction(&mut n, Role::System, vec![]);
        assert_eq!(
            (
                n.users,
                n.assistants,
                n.tools,
                n.systems,
                n.calls,
                n.results,
                n.images
            ),
            (1, 1, 1, 1, 1, 1, 1)
        );
        assert_eq!(n.active_tool_loop(), 1); // a user turn right after a tool result
    }
}
