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
        // Assembled in registers (a partial copy into a stack array followed
        // by a wide load stalls on store forwarding).
        let mut w = 0u64;
        for (i, &b) in rest.iter().enumerate() {
            w |= u64::from(b) << (8 * i);
        }
        h = (h.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

const EMPTY: u32 = u32::MAX;

#[inline]
fn load_u64(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Byte-string equality, inline for short strings (the common case here).
#[inline]
pub(crate) fn eq_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    if (8..=16).contains(&n) {
        // Two overlapping 8-byte words cover the whole string.
        load_u64(a, 0) == load_u64(b, 0) && load_u64(a, n - 8) == load_u64(b, n - 8)
    } else if n < 8 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

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

    /// A set that holds `strings` strings of `bytes` bytes in all without
    /// growing.
    pub fn with_capacity(strings: usize, bytes: usize) -> Self {
        let slots = ((strings + 1) * 2).next_power_of_two().max(16);
        StrSet {
            arena: String::with_capacity(bytes),
            spans: Vec::with_capacity(strings),
            hashes: Vec::with_capacity(strings),
            slots: vec![EMPTY; slots],
        }
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

    /// Slots of the hash table (what `clear` resets).
    pub fn capacity(&self) -> usize {
        self.slots.len()
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
        self.find_bytes(s.as_bytes())
    }

    /// Index of the string whose UTF-8 bytes are `s`, if present.
    #[inline]
    pub fn find_bytes(&self, s: &[u8]) -> Option<usize> {
        if self.spans.is_empty() {
            return None;
        }
        self.find_hashed(s, hash_bytes(s)).ok()
    }

    /// `Ok(index)` when present, else `Err(slot)` where it would go.
    #[inline]
    fn find_hashed(&self, s: &[u8], h: u64) -> Result<usize, usize> {
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
                if eq_bytes(&self.arena.as_bytes()[a..b], s) {
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
        match self.find_hashed(s.as_bytes(), h) {
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

/// Pack a string of 1 to 8 bytes into a non-zero `u64` key (little-endian,
/// zero-padded). Two strings without NUL bytes get equal keys only when equal.
#[inline]
pub fn pack_short(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 8 {
        return None;
    }
    // Built in registers: a byte copy into a stack array followed by a wide
    // load stalls on store forwarding.
    let mut key = 0u64;
    for (i, &b) in s.iter().enumerate() {
        if b == 0 {
            return None;
        }
        key |= u64::from(b) << (8 * i);
    }
    Some(key)
}

/// An index from short strings (1–8 bytes, no NUL) to their index in a
/// [`StrSet`]: one multiply and one probe instead of hashing bytes.
#[derive(Clone, Debug, Default)]
pub struct ShortIndex {
    keys: Vec<u64>,
    values: Vec<u32>,
    shift: u32,
}

impl ShortIndex {
    /// Index every short member of `set`.
    pub fn build(set: &StrSet) -> Self {
        let mut idx = ShortIndex::default();
        idx.rebuild(set);
        idx
    }

    /// Index every short member of `set`, reusing this index's memory.
    pub fn rebuild(&mut self, set: &StrSet) {
        let short = set
            .iter()
            .filter(|s| pack_short(s.as_bytes()).is_some())
            .count();
        let cap = (short * 2).next_power_of_two().max(8);
        self.keys.clear();
        self.keys.resize(cap, 0);
        self.values.clear();
        self.values.resize(cap, 0);
        self.shift = 64 - cap.trailing_zeros();
        let mask = cap - 1;
        for (i, s) in set.iter().enumerate() {
            let Some(k) = pack_short(s.as_bytes()) else {
                continue;
            };
            let mut pos = self.slot(k);
            while self.keys[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            self.keys[pos] = k;
            self.values[pos] = i as u32;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The index of the string packed as `key`, if indexed.
    #[inline]
    pub fn get(&self, key: u64) -> Option<usize> {
        let mask = self.keys.len() - 1;
        let mut pos = self.slot(key);
        loop {
            let k = self.keys[pos];
            if k == key {
                return Some(self.values[pos] as usize);
            }
            if k == 0 {
                return None;
            }
            pos = (pos + 1) & mask;
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
        assert_eq!(s.find_bytes(b"beta"), Some(1));
        assert_eq!(s.find_bytes(b"bet"), None);
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
    fn short_index() {
        let mut s = StrSet::new();
        for w in ["ab", "abcdefgh", "abcdefghi", "x", "é", "a\0b"] {
            s.insert(w);
        }
        let idx = ShortIndex::build(&s);
        let get = |w: &str| pack_short(w.as_bytes()).and_then(|k| idx.get(k));
        assert_eq!(get("ab"), Some(0));
        assert_eq!(get("abcdefgh"), Some(1));
        assert_eq!(get("abcdefghi"), None); // too long: not packable
        assert_eq!(get("x"), Some(3));
        assert_eq!(get("é"), Some(4));
        assert_eq!(get("a"), None);
        assert_eq!(get("abc"), None);
        assert_eq!(get("a\0b"), None); // NUL: not packable
        let empty = ShortIndex::build(&StrSet::new());
        assert_eq!(empty.get(1), None);
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
