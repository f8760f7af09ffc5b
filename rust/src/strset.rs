//! A small string interner: an insertion-ordered set of strings stored in one
//! arena, with open addressing over a fast multiplicative hash. It avoids an
//! allocation per value and can be cleared and reused.

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// A fast, non-cryptographic hash of a byte string (FxHash-style, 8 bytes at
/// a time), finished with a multiply-xorshift so the high bits are well mixed.
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(SEED);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(SEED);
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

const EMPTY: u32 = u32::MAX;

/// An insertion-ordered set of distinct strings.
#[derive(Clone, Debug, Default)]
pub struct StrSet {
    arena: String,
    spans: Vec<(usize, usize)>,
    hashes: Vec<u64>,
    slots: Vec<u32>,
}

impl StrSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of distinct strings.
    #[inline]
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Remove every string, keeping the allocations.
    pub fn clear(&mut self) {
        self.arena.clear();
        self.spans.clear();
        self.hashes.clear();
        self.slots.iter_mut().for_each(|s| *s = EMPTY);
    }

    /// The string with index `i` (insertion order).
    #[inline]
    pub fn get_index(&self, i: usize) -> &str {
        let (a, b) = self.spans[i];
        &self.arena[a..b]
    }

    /// Strings in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.spans.iter().map(move |&(a, b)| &self.arena[a..b])
    }

    /// Strings sorted by code point (= UTF-8 byte order).
    pub fn sorted(&self) -> Vec<String> {
        let mut v: Vec<&str> = self.iter().collect();
        v.sort_unstable();
        v.into_iter().map(str::to_owned).collect()
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len().wrapping_sub(1)
    }

    /// Index of `s`, if present.
    #[inline]
    pub fn find(&self, s: &str) -> Option<usize> {
        if self.spans.is_empty() {
            return None;
        }
        self.find_hashed(s, hash_bytes(s.as_bytes())).ok()
    }

    /// `Ok(index)` when present, else `Err(slot)` where it would go.
    #[inline]
    fn find_hashed(&self, s: &str, h: u64) -> Result<usize, usize> {
        let mask = self.mask();
        let mut pos = (h as usize) & mask;
        loop {
            let e = self.slots[pos];
            if e == EMPTY {
                return Err(pos);
            }
            let idx = e as usize;
            if self.hashes[idx] == h {
                let (a, b) = self.spans[idx];
                if &self.arena[a..b] == s {
                    return Ok(idx);
                }
            }
            pos = (pos + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let cap = (self.slots.len() * 2).max(16);
        self.slots.clear();
        self.slots.resize(cap, EMPTY);
        let mask = cap - 1;
        for (idx, &h) in self.hashes.iter().enumerate() {
            let mut pos = (h as usize) & mask;
            while self.slots[pos] != EMPTY {
                pos = (pos + 1) & mask;
            }
            self.slots[pos] = idx as u32;
        }
    }

    /// Insert `s`; returns `(index, newly_inserted)`.
    #[inline]
    pub fn insert(&mut self, s: &str) -> (usize, bool) {
        // Keep the load factor at most 1/2 (and the table non-empty).
        if (self.spans.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let h = hash_bytes(s.as_bytes());
        match self.find_hashed(s, h) {
            Ok(idx) => (idx, false),
            Err(slot) => {
                let idx = self.spans.len();
                let a = self.arena.len();
                self.arena.push_str(s);
                self.spans.push((a, self.arena.len()));
                self.hashes.push(h);
                self.slots[slot] = idx as u32;
                (idx, true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_clear() {
        let mut s = StrSet::new();
        assert_eq!(s.find("a"), None);
        assert_eq!(s.insert("alpha"), (0, true));
        assert_eq!(s.insert("beta"), (1, true));
        assert_eq!(s.insert("alpha"), (0, false));
        assert_eq!(s.find("beta"), Some(1));
        assert_eq!(s.find("gamma"), None);
        for i in 0..10_000 {
            s.insert(&format!("w{i}"));
        }
        assert_eq!(s.len(), 10_002);
        assert_eq!(s.find("w9999"), Some(10_001));
        assert_eq!(s.get_index(2), "w0");
        s.clear();
        assert!(s.is_empty());
        assert_eq!(s.find("alpha"), None);
        assert_eq!(s.insert("",), (0, true));
        assert_eq!(s.sorted(), vec![String::new()]);
    }

    #[test]
    fn sorted_is_code_point_order() {
        let mut s = StrSet::new();
        for w in ["é", "z", "a", "\u{10000}", "\u{ffff}"] {
            s.insert(w);
        }
        assert_eq!(s.sorted(), vec!["a", "z", "é", "\u{ffff}", "\u{10000}"]);
    }
}
