#!/usr/bin/env bash
# Fuzz the Rust core for a bounded time (docs/reliability.md).
#
#   scripts/fuzz_rust.sh SECONDS            # cargo fuzz if it can run here, else the stable loop
#   scripts/fuzz_rust.sh SECONDS --stable   # always the stable loop (seeded, reproducible)
#
# cargo fuzz needs nightly flags; without a nightly toolchain it is run with
# RUSTC_BOOTSTRAP=1 on the stable compiler. Findings: fuzz/artifacts/hotpath/
# (cargo fuzz) or fuzz/stable_fuzz-crash.bin (stable loop); the exit status is
# non-zero when something crashed.
set -euo pipefail

seconds="${1:-60}"
mode="${2:-auto}"
cd "$(dirname "$0")/../fuzz"

run_stable() {
    cargo run --quiet --release --bin stable_fuzz -- "$seconds" "${FUZZ_SEED:-8391739299383043950}"
}

if [[ "$mode" == "--stable" ]] || ! cargo fuzz --version >/dev/null 2>&1; then
    [[ "$mode" == "--stable" ]] || echo "cargo-fuzz not installed (cargo install cargo-fuzz): using the stable loop" >&2
    run_stable
    exit
fi

toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    toolchain=(+nightly)
else
    export RUSTC_BOOTSTRAP=1  # lets stable rustc accept the -Z flags cargo fuzz passes
fi
mkdir -p corpus/hotpath
# -timeout: one input taking 10 s is a finding (the core is linear; 64 KiB takes milliseconds).
cargo "${toolchain[@]}" fuzz run --features libfuzzer hotpath corpus/hotpath -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -dict=hotpath.dict -print_final_stats=1
