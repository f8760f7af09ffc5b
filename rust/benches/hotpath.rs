//! Throughput of the hot path on realistic text: `cargo bench --bench hotpath`.
//! Prints timings; asserts nothing.

use std::hint::black_box;
use std::time::{Duration, Instant};

use turnsignal::{
    analyze_live, entities, masked_ranges, phrase_flags, phrase_tokens, prose_term_count,
    score_prior, single_quote_spans, term_set, terms,
};

const TURN_BYTES: usize = 16 * 1024;

fn ascii_turn(seed: usize) -> String {
    let words = [
        "the",
        "parser",
        "fails",
        "when",
        "config",
        "file",
        "contains",
        "nested",
        "tables",
        "and",
        "cache",
        "keys",
        "expire",
        "before",
        "refresh",
        "so",
        "requests",
        "retry",
        "against",
        "backend",
        "service",
        "with",
        "exponential",
        "backoff",
        "please",
        "check",
        "src/main.rs",
        "parse_config",
        "HTTPServer",
        "getValue",
        "os.path.join",
        "404",
        "'quoted'",
        "`code`",
        "\"double quoted\"",
        "don't",
        "isn't",
        "thanks",
        "instead",
    ];
    let mut s = String::with_capacity(TURN_BYTES + 64);
    let mut i = seed.wrapping_mul(7919);
    while s.len() < TURN_BYTES {
        i = i.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        s.push_str(words[(i >> 16) % words.len()]);
        s.push(if (i >> 8) % 13 == 0 { '\n' } else { ' ' });
    }
    let mut cut = TURN_BYTES;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s
}

fn mixed_turn(seed: usize) -> String {
    let words = [
        "東京都",
        "の",
        "天気",
        "は",
        "한국어",
        "カタカナ",
        "İstanbul",
        "\u{212a}elvin",
        "café",
        "naïve",
        "straße",
        "ΟΔΟΣ",
        "😀",
        "“smart”",
        "‘curly’",
        "parser",
        "cache",
        "src/app.py",
    ];
    let mut s = String::with_capacity(TURN_BYTES + 64);
    let mut i = seed.wrapping_mul(104_729);
    while s.len() < TURN_BYTES {
        i = i.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        s.push_str(words[(i >> 16) % words.len()]);
        s.push(' ');
    }
    let mut cut = TURN_BYTES;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s
}

fn time<F: FnMut()>(mut f: F) -> Duration {
    // Warm up, then take the best of several batches.
    f();
    let mut best = Duration::MAX;
    for _ in 0..7 {
        let reps = 20;
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(t.elapsed() / reps);
    }
    best
}

fn report(name: &str, bytes: usize, d: Duration) {
    let mbs = bytes as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{name:<44} {:>10.1} µs {:>9.1} MB/s",
        d.as_secs_f64() * 1e6,
        mbs
    );
}

fn suite(label: &str, make: fn(usize) -> String) {
    println!("== {label} text, {TURN_BYTES} B per turn ==");
    let live = make(0);
    let priors: Vec<String> = (1..=8).map(make).collect();
    let one = [live.as_str()];
    let n = live.len();
    report(
        "terms",
        n,
        time(|| drop(black_box(terms(black_box(&live))))),
    );
    report(
        "term_set (1 segment)",
        n,
        time(|| drop(black_box(term_set(&one)))),
    );
    report(
        "masked_ranges",
        n,
        time(|| drop(black_box(masked_ranges(&live)))),
    );
    report(
        "single_quote_spans",
        n,
        time(|| drop(black_box(single_quote_spans(&live)))),
    );
    report(
        "phrase_tokens (change view)",
        n,
        time(|| drop(black_box(phrase_tokens(&live, true)))),
    );
    report("entities", n, time(|| drop(black_box(entities(&live)))));
    report(
        "prose_term_count",
        n,
        time(|| {
            black_box(prose_term_count(&one));
        }),
    );
    report(
        "phrase_flags",
        n,
        time(|| {
            black_box(phrase_flags(&one));
        }),
    );
    report(
        "analyze_live",
        n,
        time(|| drop(black_box(analyze_live(&one)))),
    );
    let l = analyze_live(&one);
    let p0 = [priors[0].as_str()];
    report(
        "score_prior (1 turn)",
        n,
        time(|| {
            black_box(score_prior(&l, &p0, &["tool"]));
        }),
    );
    let total = n * 9;
    report(
        "whole extract: live + 8 prior turns",
        total,
        time(|| {
            let l = analyze_live(&one);
            black_box(prose_term_count(&one));
            black_box(phrase_flags(&one));
            for p in &priors {
                black_box(score_prior(&l, &[p.as_str()], &["tool"]));
            }
        }),
    );
    let adversarial = " 'a".repeat(20_000);
    report(
        "single_quote_spans(\" 'a\" x 20000)",
        adversarial.len(),
        time(|| drop(black_box(single_quote_spans(&adversarial)))),
    );
}

/// The Python benchmark's workloads (`benches/workloads.py`), per native call.
fn workloads() {
    println!("== benches/workloads.py, per call ==");
    let sentence = "parse the config_loader output and validateToken in auth.ts ";
    let block: String = sentence.repeat(8192 / sentence.len() + 1)[..8192].to_owned();
    let big: String = sentence.repeat(16384 / sentence.len() + 1)[..16384].to_owned();
    let live = ["Now update validateToken in auth.ts to log failures"];
    let l = analyze_live(&live);
    let tools: [&str; 0] = [];
    report(
        "(a) score_prior, 2 x 8 KiB",
        2 * block.len(),
        time(|| {
            black_box(score_prior(&l, &[block.as_str(), block.as_str()], &tools));
        }),
    );
    report(
        "(b) score_prior, 2 x 16 KiB",
        2 * big.len(),
        time(|| {
            black_box(score_prior(&l, &[big.as_str(), big.as_str()], &tools));
        }),
    );
    let adv = [" 'a".repeat(21_845)];
    let n = adv[0].len();
    report(
        "(c) analyze_live",
        n,
        time(|| drop(black_box(analyze_live(&adv)))),
    );
    report(
        "(c) single_quote_spans",
        n,
        time(|| drop(black_box(single_quote_spans(&adv[0])))),
    );
    report("(c) terms", n, time(|| drop(black_box(term_set(&adv)))));
    report(
        "(c) prose_term_count",
        n,
        time(|| {
            black_box(prose_term_count(&adv));
        }),
    );
    report(
        "(c) phrase_flags",
        n,
        time(|| {
            black_box(phrase_flags(&adv));
        }),
    );
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let want = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    if want("workloads") {
        workloads();
    }
    if want("profile-a") {
        // For `perf`: score_prior on workload (a)'s prior turn only.
        let sentence = "parse the config_loader output and validateToken in auth.ts ";
        let block: String = sentence.repeat(8192 / sentence.len() + 1)[..8192].to_owned();
        let l = analyze_live(&["Now update validateToken in auth.ts to log failures"]);
        let t = Instant::now();
        let mut k = 0;
        while t.elapsed() < Duration::from_secs(3) {
            black_box(score_prior(
                &l,
                &[block.as_str(), block.as_str()],
                &["tool"],
            ));
            k += 1;
        }
        report(
            "score_prior (a) (profile loop)",
            2 * block.len(),
            t.elapsed() / k,
        );
        return;
    }
    if want("ascii") {
        suite("ASCII", ascii_turn);
    }
    if want("profile-score") {
        // For `perf`: score_prior only.
        let live = ascii_turn(0);
        let prior = ascii_turn(1);
        let l = analyze_live(&[live.as_str()]);
        let t = Instant::now();
        let mut k = 0;
        while t.elapsed() < Duration::from_secs(3) {
            black_box(score_prior(&l, &[prior.as_str()], &["tool"]));
            k += 1;
        }
        report("score_prior (profile loop)", prior.len(), t.elapsed() / k);
        return;
    }
    if want("mixed") {
        suite("mixed-script", mixed_turn);
    }
}
