//! The static word vectors without Python: `cargo bench --bench vectors`.
//! Reads the shipped table; prints timings, asserts nothing. With an
//! argument `pool N` or `similarity N` it only does that N times (for
//! counting instructions under valgrind: run it with two values of N).

use std::hint::black_box;
use std::time::Instant;

use turnsignal::vectors::{pool, Table};

const TABLE: &str = "python/turnsignal/_data/static_vectors.bin";
const TURN: &str = "Could you suggest a quick pasta recipe for dinner tonight, something \
                    with tomatoes, garlic and basil that cooks fast?";

fn per_call<T>(label: &str, rounds: u32, mut f: impl FnMut() -> T) {
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(f());
    }
    let each = start.elapsed() / rounds;
    println!("{label:<40} {each:>12.2?}");
}

fn main() {
    let data = std::fs::read(TABLE).expect("the shipped table (run from the checkout)");
    let args: Vec<String> = std::env::args().collect();
    if let [_, what, count] = &args[..] {
        let count: u32 = count.parse().unwrap_or(0);
        let Ok(table) = Table::parse(&data) else {
            return;
        };
        let a = pool(&table, TURN);
        for _ in 0..count {
            if what == "pool" {
                black_box(pool(&table, black_box(TURN)));
            } else {
                black_box(black_box(&a).similarity(black_box(&a)));
            }
        }
        return;
    }
    per_call("parse the table", 20, || {
        Table::parse(&data).map(|t| t.rows())
    });
    let Ok(table) = Table::parse(&data) else {
        return;
    };
    per_call("pool a 20-word turn", 200_000, || {
        pool(&table, black_box(TURN))
    });
    let a = pool(&table, TURN);
    let b = pool(
        &table,
        "How many grams of spaghetti should I cook per person?",
    );
    per_call("similarity", 2_000_000, || {
        black_box(&a).similarity(black_box(&b))
    });
}
