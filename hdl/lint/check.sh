#!/usr/bin/env bash
# Lints every generated top: `verilator --lint-only -Wall` (waivers only in waivers.vlt) and
# Yosys `hierarchy -check; proc; check -assert`, failing on any inferred latch.
#
# Usage: hdl/lint/check.sh OUTDIR            generate all tops into OUTDIR, then check them
#        hdl/lint/check.sh --no-gen OUTDIR   check the cdma_*.v files already in OUTDIR
# Logs: OUTDIR/<module>.verilator.log, OUTDIR/<module>.yosys.log
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
gen=1
if [[ "${1:-}" == "--no-gen" ]]; then
    gen=0
    shift
fi
if [[ $# -ne 1 ]]; then
    echo "usage: $0 [--no-gen] OUTDIR" >&2
    exit 2
fi
out=$1

for tool in verilator yosys; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "check.sh: '$tool' is not on PATH; install it (scripts/test does: apt-get install -y verilator yosys)" >&2
        exit 1
    fi
done

mkdir -p "$out"
if [[ $gen -eq 1 ]]; then
    (cd "$root" && cargo run -q -p cdma-hdl --example write_tops -- "$out" >/dev/null)
fi

shopt -s nullglob
files=("$out"/cdma_*.v)
if [[ ${#files[@]} -eq 0 ]]; then
    echo "check.sh: no cdma_*.v files in $out" >&2
    exit 1
fi

fail=0
for f in "${files[@]}"; do
    m=$(basename "$f" .v)
    vlog="$out/$m.verilator.log"
    ylog="$out/$m.yosys.log"
    if verilator --lint-only -Wall --top-module "$m" "$here/waivers.vlt" "$f" >"$vlog" 2>&1; then
        echo "verilator -Wall  ok    $m"
    else
        echo "verilator -Wall  FAIL  $m (log: $vlog)"
        sed -n '1,40p' "$vlog"
        fail=1
    fi
    if yosys -p "read_verilog $f; hierarchy -check -top $m; proc; check -assert" >"$ylog" 2>&1; then
        if grep -qE '\$dlatch|Latch inferred' "$ylog"; then
            echo "yosys proc       FAIL  $m: latch inferred (log: $ylog)"
            grep -E '\$dlatch|Latch inferred' "$ylog" | head -20
            fail=1
        else
            echo "yosys proc       ok    $m"
        fi
    else
        echo "yosys proc       FAIL  $m (log: $ylog)"
        grep -iE 'error|warning' "$ylog" | head -20
        fail=1
    fi
done
exit $fail
