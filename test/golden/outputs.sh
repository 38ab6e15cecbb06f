#!/usr/bin/env bash
# Writes what tpuprof's tools print for a fixed set of inputs, one file per
# command, into OUT:
#   test/golden/outputs.sh BIN_DIR OUT report   # tpuprof-report on fixed dumps
#   test/golden/outputs.sh BIN_DIR OUT ir       # tpuprof-opt on examples/
# The lit tests beside this script compare a build's outputs with
# Inputs/expected/; after a change that is meant to change an output, rerun
# this into Inputs/expected/ with the build's bin/ and review the diff. The dumps are two committed
# runtime dumps (Inputs/dumps: MLP in mode 2 with two software counters and
# memory, the conv net with --memory) and synthetic ones that
# tpuprof-gen-dumps makes the same on every machine.
set -euo pipefail
bin=$(cd "$1" && pwd)
out=$2
what=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

case "$what" in
report)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$here/Inputs/dumps/." "$work/"
  cd "$work"
  "$bin/tpuprof-gen-dumps" -o flat --records 600 --ops 5 > /dev/null
  "$bin/tpuprof-gen-dumps" -o nested --records 600 --ops 5 --nest --dims \
    > /dev/null
  "$bin/tpuprof-gen-dumps" -o runs --records 400 --ops 4 --dumps 4 --runs 2 \
    --nthreads 2 > /dev/null
  report() { # NAME ARGS...: tpuprof-report ARGS > OUT/NAME
    local name=$1
    shift
    "$bin/tpuprof-report" "$@" > "$out/$name"
  }
  for d in mlp-detailed conv-memory flat nested runs; do
    report "table-$d.txt" table "$d"
    report "summary-$d.txt" summary "$d"
    report "export-$d.json" export --format json "$d"
    report "export-$d.csv" export --format csv "$d"
    report "stacks-$d.txt" stacks "$d"
    report "graph-$d.dot" graph "$d"
  done
  report table-mlp-detailed-counters.txt table --columns default,counters \
    --stats --work mlp-detailed
  report table-runs-merged.txt table --merge-runs --by name runs
  report table-nested-raw.txt table --no-overhead-correction --sort +name \
    nested
  report trace-mlp-detailed.json trace mlp-detailed
  report trace-conv-memory.json trace conv-memory
  report diff-flat-nested.txt diff flat nested
  ;;
ir)
  cd "$root"
  for m in mlp convnet; do
    "$bin/tpuprof-opt" "examples/$m.mlir" --tpu-profile-instrument \
      > "$out/$m.instrumented.mlir"
    "$bin/tpuprof-opt" "examples/$m.mlir" --tpu-profile-instrument \
      --tpu-profile-lower > "$out/$m.lowered.mlir"
  done
  ;;
*)
  echo "outputs.sh: the third argument is 'report' or 'ir', not '$what'" >&2
  exit 2
  ;;
esac
