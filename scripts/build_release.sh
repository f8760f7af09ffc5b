#!/usr/bin/env bash
# The release build: a portable Linux wheel and a small sdist, both checked.
#
#   scripts/build_release.sh [OUT_DIR]        # default: dist/
#
# The wheel targets manylinux2014 (manylinux_2_17, glibc 2.17): maturin links
# it with zig (from the `ziglang` package on PyPI, so no system toolchain is
# needed) against glibc 2.17's symbols, and `auditwheel show` must confirm
# the tag. One abi3 wheel serves CPython 3.10 and later: per-version wheels
# measured 2-4 % faster on real conversations (issue 28; docs/performance.md,
# the seventh round), under the 10 % that would pay for four of them.
# `pip wheel .` would tag a wheel plain `linux` (PyPI refuses those); a build
# on this machine without zig would need glibc 2.34 or later.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
out="${1:-dist}"
mkdir -p "$out"

python3 -m pip install --quiet "maturin>=1.5,<2" "ziglang>=0.11" "auditwheel>=6"  # the release extra
rm -f "$out"/turnsignal-*.whl "$out"/turnsignal-*.tar.gz

python3 -m maturin build --release --zig --compatibility manylinux2014 --out "$out"
python3 -m maturin sdist --out "$out"

wheel="$(ls "$out"/turnsignal-*.whl)"
sdist="$(ls "$out"/turnsignal-*.tar.gz)"
echo "== auditwheel show $wheel"
report="$(python3 -m auditwheel show "$wheel")"
echo "$report"
case "$wheel" in
    *manylinux_2_17*|*manylinux2014*) ;;
    *) echo "error: the wheel is not tagged manylinux_2_17: $wheel" >&2; exit 1 ;;
esac
if ! grep -q 'manylinux_2_17_x86_64\|manylinux_2_17_aarch64\|"manylinux_2_17' <<<"$report"; then
    echo "error: auditwheel does not confirm manylinux_2_17" >&2
    exit 1
fi

# The sdist is the source and the shipped static vector table (which does not
# compress): at most 1 MiB more than the table.
table="python/turnsignal/_data/static_vectors.bin"
size="$(stat -c %s "$sdist")"
limit=$((1048576 + $(stat -c %s "$table")))
echo "== sdist $sdist: $size bytes (limit $limit)"
if [ "$size" -gt "$limit" ]; then
    echo "error: the sdist is more than 1 MiB larger than the static vector table" >&2
    exit 1
fi
echo "== both ship the static vector table and its NOTICE"
# Listed first, then searched: `grep -q` in a pipeline would stop reading early
# and fail the lister under pipefail.
wheel_files="$(python3 -m zipfile -l "$wheel")"
sdist_files="$(tar -tzf "$sdist")"
for member in turnsignal/_data/static_vectors.bin turnsignal/_data/NOTICE; do
    grep -qF "$member" <<<"$wheel_files" || { echo "error: the wheel lacks $member" >&2; exit 1; }
    grep -q "/python/$member\$" <<<"$sdist_files" || { echo "error: the sdist lacks python/$member" >&2; exit 1; }
done

echo "== the wheel installs and loads its native core in a fresh environment"
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --quiet --no-deps --force-reinstall "$wheel"
(cd "$venv" && "$venv/bin/python" -W error::DeprecationWarning "$root/scripts/wheel_smoke.py")

echo "== the wheel on every other CPython 3.10+ of this machine"
bash scripts/check_pythons.sh "$wheel"
