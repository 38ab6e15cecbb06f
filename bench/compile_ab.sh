#!/bin/bash
#===- bench/compile_ab.sh - one pass change, before and after -------------===#
#
# Compares --tpu-profile-instrument of two builds side by side (runs
# alternate between them, so drift hits both alike) on the modules of
# bench/compile_scaling.py, against parse+print of the first:
#
#   bash bench/compile_ab.sh OLD_BUILD NEW_BUILD [RUNS] [SIZES]
#
# For OLD_BUILD, build an older commit elsewhere, e.g.
#   git worktree add /tmp/old REV && cmake -S /tmp/old -B /tmp/old/build ...
# Prints, per size, the median wall time and the largest max RSS of the
# whole run, and the pass's own time (--mlir-timing, --verify-each=false),
# each with its ratio to parse+print.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
old=$1/bin/tpuprof-opt new=$2/bin/tpuprof-opt runs=${3:-5}
sizes=${4:-1000 10000 100000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for bin in "$old" "$new"; do
  [ -x "$bin" ] || { echo "compile_ab: no tpuprof-opt at $bin" >&2; exit 1; }
done
for n in $sizes; do
  f=$tmp/m$n.mlir
  python3 -c "import sys; sys.path.insert(0, '$here'); import compile_scaling as c; c.generate('$f', $n)"
  "$old" "$f" -o /dev/null  # page cache, dynamic loader
  for _ in $(seq "$runs"); do
    for v in old new; do
      bin=${!v}
      p=$("$bin" "$f" --tpu-profile-instrument --verify-each=false --mlir-timing \
            -o /dev/null 2>&1 | awk '/TpuProfileInstrument/{print $1}')
      t=$( { /usr/bin/time -f "%e %M" "$bin" "$f" --tpu-profile-instrument -o /dev/null; } 2>&1 | tail -1)
      echo "$n $v $p $t"
    done
    t=$( { /usr/bin/time -f "%e %M" "$old" "$f" -o /dev/null; } 2>&1 | tail -1)
    echo "$n pp - $t"
  done
done > "$tmp/runs.txt"
python3 - "$tmp/runs.txt" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    n, v, p, wall, rss = line.split()
    d[(n, v, "wall")].append(float(wall))
    d[(n, v, "rss")].append(float(rss) / 1024)
    if p != "-":
        d[(n, v, "pass")].append(float(p))
print(f"{'ops':>7} {'variant':8} {'wall s':>8} {'ratio':>6} {'RSS MiB':>8} {'ratio':>6} {'pass s':>8} {'ratio':>6}")
for n in dict.fromkeys(k[0] for k in d):
    pw = statistics.median(d[(n, "pp", "wall")])
    pr = max(d[(n, "pp", "rss")])
    print(f"{n:>7} {'parse+print':8} {pw:8.3f} {1:6.2f} {pr:8.1f} {1:6.2f}")
    for v in ("old", "new"):
        w = statistics.median(d[(n, v, "wall")]); r = max(d[(n, v, "rss")])
        p = statistics.median(d[(n, v, "pass")])
        print(f"{'':>7} {v:8} {w:8.3f} {w / pw:6.2f} {r:8.1f} {r / pr:6.2f} {p:8.4f} {p / pw:6.3f}")
PY
