#!/usr/bin/env bash
# Does an installed wheel give the same results as the in-tree build?
#
#   scripts/compare_wheel.sh [VECTORS.jsonl.gz]     # default: tests/vectors/synthetic.jsonl.gz
#
# Builds a release wheel (maturin, own target dir so it never blocks other
# builds), installs it into a fresh virtual environment, and compares one
# SHA-256 digest of every result (both implementations) over the vectors with
# the in-tree package (python/ with its built turnsignal/_native). Exit 1 on a
# difference. Slow (a release build): a script, not a CI test.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
vectors="$(realpath "${1:-tests/vectors/synthetic.jsonl.gz}")"
work="$(mktemp -d /tmp/turnsignal-wheel.XXXXXX)"
trap 'rm -rf "$work"' EXIT

echo "== building the wheel"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/turnsignal-wheel-target}" \
    maturin build --release --quiet -o "$work/wheels" >/dev/null
wheel="$(ls -t "$work"/wheels/turnsignal-*.whl | head -n 1)"
echo "   $(basename "$wheel")"

echo "== installing it into a fresh venv"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel"

cat > "$work/digest.py" <<'PY'
"""One digest of every result over a vector file, per implementation."""
import gzip, hashlib, json, sys

import turnsignal
from turnsignal import ConfigError, TopicContinuity, decode
from turnsignal.conformance import _raw_config

def results(vector, implementation):
    data = vector["input"]
    try:
        if data.get("raw_eval_configs"):
            signal = TopicContinuity._unchecked(
                [_raw_config(entry) for entry in data["raw_eval_configs"]],
                implementation=implementation)
        else:
            signal = TopicContinuity(data["rules"], implementation=implementation)
    except ConfigError as error:
        return str(error)
    messages = decode({"messages": data["messages"]}, "neutral").messages
    evaluation = signal.evaluate_messages(
        messages, history_available=data.get("history_available", True))
    return evaluation.to_dict()

path = sys.argv[1]
for implementation in ("native", "python"):
    digest, count = hashlib.sha256(), 0
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            vector = json.loads(line)
            # repr of floats is exact: bit-for-bit equal results, equal digests.
            digest.update(json.dumps(results(vector, implementation), sort_keys=True).encode())
            count += 1
    print(f"{implementation} {count} {digest.hexdigest()} {turnsignal.__file__}")
PY

echo "== digests"
in_tree="$(cd "$work" && PYTHONPATH="$repo/python" python3 digest.py "$vectors")"
installed="$(cd "$work" && "$work/venv/bin/python" digest.py "$vectors")"
echo "in-tree:   ${in_tree//$'\n'/$'\n'           }"
echo "installed: ${installed//$'\n'/$'\n'           }"
if [[ "$(cut -d' ' -f1-3 <<<"$in_tree")" == "$(cut -d' ' -f1-3 <<<"$installed")" ]]; then
    echo "SAME results: the installed wheel and the in-tree build agree on every vector"
else
    echo "DIFFERENT results between the installed wheel and the in-tree build" >&2
    exit 1
fi
