//! Byte-class bit masks of an ASCII segment: one bit per byte, 64 bytes to a
//! word, so the fused scan (`fused.rs`) finds word runs with a few bit
//! operations per run instead of a branch per byte.
//!
//! Built 16 bytes at a time with SSE2 on x86_64 (part of its baseline), and
//! from a byte table elsewhere; both give the same masks.

/// The masks of one ASCII text. Bits past the end of the text are clear.
#[derive(Default, Debug)]
pub struct ByteMasks {
    /// Entity run bytes (§6.5 pass 3): `A–Z a–z 0–9 _ . ~ / -`.
    pub run: Vec<u64>,
    /// `A–Z`.
    pub upper: Vec<u64>,
    /// Bytes that make a run worth pass 3: run bytes other than letters, and
    /// uppercase letters right after a lowercase one (camelCase).
    pub interesting: Vec<u64>,
    /// Symbols outside runs, each a term of its own: `$ + < = > ^ ` |`.
    pub symbol: Vec<u64>,
}

/// Per-byte classes of 64 bytes, one bit per byte.
#[derive(Clone, Copy, Default)]
struct Block {
    run: u64,
    upper: u64,
    lower: u64,
    symbol: u64,
}

impl ByteMasks {
    /// Rebuild the masks for `text` (ASCII), reusing the allocations.
    pub fn build(&mut self, text: &[u8]) {
        let words = text.len().div_ceil(64);
        for v in [
            &mut self.run,
            &mut self.upper,
            &mut self.interesting,
            &mut self.symbol,
        ] {
            v.clear();
            v.reserve(words);
        }
        let mut prev_lower_top = 0u64;
        let mut chunks = text.chunks_exact(64);
        let mut push = |blk: Block, this: &mut Self| {
            let camel = blk.upper & ((blk.lower << 1) | prev_lower_top);
            prev_lower_top = blk.lower >> 63;
            this.run.push(blk.run);
            this.upper.push(blk.upper);
            this.interesting
                .push((blk.run & !(blk.upper | blk.lower)) | camel);
            this.symbol.push(blk.symbol);
        };
        for c in &mut chunks {
            push(classify64(c), self);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // Zero padding: NUL is in no class.
            let mut padded = [0u8; 64];
            padded[..rest.len()].copy_from_slice(rest);
            push(classify64(&padded), self);
        }
    }
}

/// The index of the first set bit at or after `from`, or `None`.
#[inline]
pub fn next_set(bits: &[u64], from: usize) -> Option<usize> {
    let mut w = from / 64;
    let mut cur = bits.get(w)? & (u64::MAX << (from % 64));
    loop {
        if cur != 0 {
            return Some(w * 64 + cur.trailing_zeros() as usize);
        }
        w += 1;
        cur = *bits.get(w)?;
    }
}

/// The index of the first clear bit at or after `from` (bits past the end
/// count as clear).
#[inline]
pub fn next_clear(bits: &[u64], from: usize) -> usize {
    let mut w = from / 64;
    let mut cur = match bits.get(w) {
        Some(&x) => !x & (u64::MAX << (from % 64)),
        None => return from,
    };
    loop {
        if cur != 0 {
            return w * 64 + cur.trailing_zeros() as usize;
        }
        w += 1;
        cur = match bits.get(w) {
            Some(&x) => !x,
            None => return w * 64,
        };
    }
}

/// Whether any bit in `start..end` is set.
#[inline]
pub fn any_in(bits: &[u64], start: usize, end: usize) -> bool {
    if start >= end {
        return false;
    }
    let (ws, we) = (start / 64, (end - 1) / 64);
    let lo = u64::MAX << (start % 64);
    let hi = u64::MAX >> (63 - (end - 1) % 64);
    let get = |w: usize| bits.get(w).copied().unwrap_or(0);
    if ws == we {
        return get(ws) & lo & hi != 0;
    }
    get(ws) & lo != 0 || (ws + 1..we).any(|w| get(w) != 0) || get(we) & hi != 0
}

/// Call `f` with the index of every set bit.
#[inline]
pub fn for_each_set<F: FnMut(usize)>(bits: &[u64], mut f: F) {
    for (w, &x) in bits.iter().enumerate() {
        let mut x = x;
        while x != 0 {
            f(w * 64 + x.trailing_zeros() as usize);
            x &= x - 1;
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn classify64(b: &[u8]) -> Block {
    let mut out = Block::default();
    for k in 0..4 {
        let c = classify16(&b[16 * k..16 * k + 16]);
        out.run |= c.run << (16 * k);
        out.upper |= c.upper << (16 * k);
        out.lower |= c.lower << (16 * k);
        out.symbol |= c.symbol << (16 * k);
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unused_unsafe)] // the intrinsics became safe to call in newer Rust
fn classify16(b: &[u8]) -> Block {
    use std::arch::x86_64::*;
    let mut lo = [0u8; 8];
    let mut hi = [0u8; 8];
    lo.copy_from_slice(&b[..8]);
    hi.copy_from_slice(&b[8..16]);
    // SAFETY: SSE2 is part of the x86_64 baseline; no pointer is involved.
    unsafe {
        let x = _mm_set_epi64x(i64::from_le_bytes(hi), i64::from_le_bytes(lo));
        // The text is ASCII, so signed byte comparisons order it correctly.
        let range = |a: u8, z: u8| {
            _mm_and_si128(
                _mm_cmpgt_epi8(x, _mm_set1_epi8(a as i8 - 1)),
                _mm_cmplt_epi8(x, _mm_set1_epi8(z as i8 + 1)),
            )
        };
        let eq = |v: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(v as i8));
        let upper = range(b'A', b'Z');
        let lower = range(b'a', b'z');
        // '-' '.' '/' and the digits are the contiguous 0x2D..=0x39.
        let run = _mm_or_si128(
            _mm_or_si128(upper, lower),
            _mm_or_si128(range(b'-', b'9'), _mm_or_si128(eq(b'_'), eq(b'~'))),
        );
        let symbol = _mm_or_si128(
            _mm_or_si128(range(b'<', b'>'), _mm_or_si128(eq(b'$'), eq(b'+'))),
            _mm_or_si128(eq(b'^'), _mm_or_si128(eq(b'`'), eq(b'|'))),
        );
        let mask = |v: __m128i| u64::from(_mm_movemask_epi8(v) as u16);
        Block {
            run: mask(run),
            upper: mask(upper),
            lower: mask(lower),
            symbol: mask(symbol),
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn classify64(b: &[u8]) -> Block {
    classify64_table(b)
}

/// The portable definition of the masks (also the reference for the tests).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify64_table(b: &[u8]) -> Block {
    let mut out = Block::default();
    for (j, &c) in b.iter().enumerate() {
        let bit = 1u64 << j;
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'~' | b'/' | b'-') {
            out.run |= bit;
        }
        if c.is_ascii_uppercase() {
            out.upper |= bit;
        }
        if c.is_ascii_lowercase() {
            out.lower |= bit;
        }
        if matches!(c, b'$' | b'+' | b'<' | b'=' | b'>' | b'^' | b'`' | b'|') {
            out.symbol |= bit;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simd_classes_match_the_table() {
        let mut block = [0u8; 64];
        for start in (0u8..128).step_by(64) {
            for (j, slot) in block.iter_mut().enumerate() {
                *slot = start + j as u8;
            }
            let (a, b) = (classify64(&block), classify64_table(&block));
            assert_eq!(
                (a.run, a.upper, a.lower, a.symbol),
                (b.run, b.upper, b.lower, b.symbol)
            );
        }
    }

    #[test]
    fn bit_queries() {
        let bits = [0b1011_0000u64, 0, 1 << 63, u64::MAX];
        assert_eq!(next_set(&bits, 0), Some(4));
        assert_eq!(next_set(&bits, 6), Some(7));
        assert_eq!(next_set(&bits, 8), Some(191));
        assert_eq!(next_set(&bits, 192), Some(192));
        assert_eq!(next_set(&bits, 256), None);
        assert_eq!(next_set(&[], 0), None);
        assert_eq!(next_clear(&bits, 4), 6);
        assert_eq!(next_clear(&bits, 191), 256);
        assert_eq!(next_clear(&bits, 300), 300);
        assert_eq!(next_clear(&[], 3), 3);
        assert!(any_in(&bits, 0, 5));
        assert!(!any_in(&bits, 0, 4));
        assert!(!any_in(&bits, 8, 191));
        assert!(any_in(&bits, 8, 192));
        assert!(!any_in(&bits, 5, 5));
        assert!(any_in(&bits, 250, 256));
        let mut seen = Vec::new();
        for_each_set(&bits[..3], |i| seen.push(i));
        assert_eq!(seen, vec![4, 5, 7, 191]);
    }

    #[test]
    fn masks_of_text() {
        let text = "ab getValue $x 12\n".repeat(9);
        let mut m = ByteMasks::default();
        m.build(text.as_bytes());
        assert_eq!(m.run.len(), text.len().div_ceil(64));
        for (i, &c) in text.as_bytes().iter().enumerate() {
            let bit = |v: &Vec<u64>| v[i / 64] >> (i % 64) & 1 == 1;
            assert_eq!(bit(&m.run), c.is_ascii_alphanumeric(), "{i}");
            assert_eq!(bit(&m.symbol), c == b'$', "{i}");
            let camel = c == b'V';
            assert_eq!(bit(&m.interesting), c.is_ascii_digit() || camel, "{i}");
        }
    }
}
