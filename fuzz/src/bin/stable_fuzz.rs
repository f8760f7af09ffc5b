//! The stable-Rust fuzz loop: `drive` on generated inputs for a bounded time.
//!
//!     cargo run --release --bin stable_fuzz -- SECONDS [SEED]
//!
//! Inputs are built from pieces that exercise every rule of the core (quotes,
//! fences, CJK, entity shapes, separators between segments) mixed with random
//! bytes and random code points, at sizes up to 64 KiB. A panic prints the
//! seed and iteration, writes the input to `stable_fuzz-crash.bin`, and exits 1.

use std::panic;
use std::time::{Duration, Instant};

const PIECES: &[&str] = &[
    "'",
    "\u{2018}",
    "\u{2019}",
    "\"",
    "\u{201c}",
    "\u{201d}",
    "`",
    "```",
    "\n",
    " ",
    ".",
    ",",
    ":",
    ";",
    "(",
    ")",
    "!",
    "?",
    "-",
    "/",
    "_",
    "~",
    "$",
    "+",
    "@",
    "#",
    "\\",
    "\u{0}",
    "\u{1d}",
    "\u{1e}",
    "\u{1f}",
    "new topic",
    "as you said",
    "thanks",
    "ok",
    "not",
    "don't",
    "don\u{2019}t",
    "instead",
    "go back to",
    "that file",
    "src/auth.ts",
    "config_loader.go",
    "validateToken",
    "v1.2.3",
    "12345",
    "~/x-y/z",
    "a.b.c",
    "HTTPServer",
    "x..y",
    "path/",
    "\u{4e2d}\u{6587}\u{5b57}",
    "\u{3072}\u{3089}",
    "\u{30ab}\u{30bf}",
    "\u{d55c}\u{ad6d}",
    "\u{130}stanbul",
    "\u{212a}",
    "e\u{301}",
    "\u{df}",
    "\u{3a3}\u{3c3}",
    "\u{1f600}",
    "\u{fffd}",
    "\u{85}",
    "\u{a0}",
    "\u{3000}",
    "\u{200d}",
    "\u{fe0f}",
    "\u{10ffff}",
    "parser",
    "the",
    "and",
    "of",
    "it",
    "weather",
];

/// xorshift64*: tiny, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn generate(rng: &mut Rng, out: &mut Vec<u8>) {
    out.clear();
    // Mostly small inputs, sometimes one turn's worth, rarely 64 KiB.
    let target = match rng.below(100) {
        0 => 65_536,
        1..=10 => 4_096 + rng.below(16_384),
        _ => rng.below(512),
    };
    // A few repeated pieces make the storms (quotes, fences) that matter.
    let storm = rng.below(4) == 0;
    let storm_piece = PIECES[rng.below(PIECES.len())];
    while out.len() < target {
        match rng.below(10) {
            _ if storm && rng.below(2) == 0 => out.extend_from_slice(storm_piece.as_bytes()),
            0 => out.push(rng.next() as u8), // raw byte: maybe invalid UTF-8
            1 => {
                let c = char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}');
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            2 => out.push(b'a' + rng.below(26) as u8),
            _ => out.extend_from_slice(PIECES[rng.below(PIECES.len())].as_bytes()),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7475_726e_7369_676e);
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut input = Vec::new();
    let (mut runs, mut bytes) = (0u64, 0u64);
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    while Instant::now() < deadline {
        generate(&mut rng, &mut input);
        let one = Instant::now();
        if panic::catch_unwind(|| turnsignal_fuzz::drive(&input)).is_err() {
            let _ = std::fs::write("stable_fuzz-crash.bin", &input);
            eprintln!("CRASH at run {runs} (seed {seed}); input written to stable_fuzz-crash.bin");
            std::process::exit(1);
        }
        slowest = slowest.max(one.elapsed());
        runs += 1;
        bytes += input.len() as u64;
    }
    println!(
        "stable_fuzz: {runs} inputs, {:.1} MB in {:.1}s, slowest input {:.1} ms, seed {seed}, no crash",
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        slowest.as_secs_f64() * 1e3
    );
}
