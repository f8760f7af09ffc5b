#!/usr/bin/env bash
# The release wheel on every other CPython (3.10 or later) this machine has:
# one abi3 wheel claims them all, and the suite runs on one.
#
#   scripts/check_pythons.sh WHEEL
#
# For each interpreter found (python3.10 ... python3.15 on PATH, and pyenv's
# versions when pyenv is installed), in a fresh virtual environment: the
# wheel installs with its dependencies, passes scripts/wheel_smoke.py with
# DeprecationWarnings as errors (its native core, both implementations, the
# static vector table), and passes the golden conformance vectors with both
# implementations (${TURNSIGNAL_SHARED:-../shared}/conformance; required
# when CI=true).
# scripts/build_release.sh runs it on the wheel it builds. A machine with no
# other CPython says so and passes: what it checks is the wheel, not the host.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
wheel="${1:?usage: scripts/check_pythons.sh WHEEL}"
if [ ! -f "$wheel" ]; then
    echo "error: no wheel at $wheel" >&2
    exit 2
fi
wheel="$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")"
shared="${TURNSIGNAL_SHARED:-../shared}"
conformance=""
if [ -d "$shared/conformance" ]; then
    conformance="$(cd "$shared/conformance" && pwd)"
else
    if [ "${CI:-}" = "true" ]; then
        echo "error: no conformance vectors at $shared/conformance (set TURNSIGNAL_SHARED)" >&2
        exit 1
    fi
    echo "== no conformance vectors at $shared/conformance: the wheel is only loaded"
fi

candidates=()
for name in python3.10 python3.11 python3.12 python3.13 python3.14 python3.15; do
    if path="$(command -v "$name" 2>/dev/null)"; then
        candidates+=("$path")
    fi
done
if command -v pyenv >/dev/null 2>&1; then
    for path in "$(pyenv root)"/versions/3.*/bin/python3; do
        [ -x "$path" ] && candidates+=("$path")
    done
fi

own="$(python3 -c 'import platform; print(platform.python_version())')"
declare -A seen=(["$own"]=1)
checked=()
for python in ${candidates[@]+"${candidates[@]}"}; do
    # A pyenv shim of a version that is not selected exits non-zero: skipped.
    version="$("$python" -c 'import platform, sys
assert sys.implementation.name == "cpython" and sys.version_info >= (3, 10)
print(platform.python_version())' 2>/dev/null)" || continue
    [ -n "${seen[$version]:-}" ] && continue
    seen[$version]=1
    echo "== CPython $version ($python)"
    venv="$(mktemp -d)"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "$wheel"
    (cd "$venv" && "$venv/bin/python" -W error::DeprecationWarning "$root/scripts/wheel_smoke.py")
    if [ -n "$conformance" ]; then
        for implementation in native python; do
            TURNSIGNAL_IMPLEMENTATION=$implementation "$venv/bin/turnsignal" conformance \
                "$conformance" | tail -n 1 | sed "s/^/$implementation: /"
        done
    fi
    rm -rf "$venv"
    checked+=("$version")
done
if [ ${#checked[@]} -eq 0 ]; then
    echo "== no CPython 3.10+ besides $own on this machine: nothing more to check"
else
    echo "== the wheel passed on CPython ${checked[*]} (and $own above)"
fi
