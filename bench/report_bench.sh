#!/usr/bin/env bash
# Report benchmarks (docs/performance.md, "Report"): aggregation rate, peak
# memory of `table` as the record count grows 10x, the call views, `trace`
# of 1 M events and the bundle;
# then dump writing bandwidth (bench/dump_write, "Dump writing").
#   bench/report_bench.sh [BUILD_DIR] [--big]
# --big also aggregates a 100 M-record set (1000 dumps of 100 k records,
# 2.4 GB on disk). Needs tpuprof-gen-dumps and dump_write
# (TPUPROF_ENABLE_BENCH=ON). Besides the tables it prints `suite|...` lines
# (one per figure) for bench/suite.py.
set -euo pipefail
build=${1:-build}
big=${2:-}
bin=$build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/tpuprof-report-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Wall seconds and max RSS (KiB) of a command, via getrusage in Python.
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
wall = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{wall:.3f} {rss}")
PY
}

gen() { # DIR DUMPS RECORDS_PER_DUMP
  "$bin/tpuprof-gen-dumps" -o "$1" --dumps "$2" --records "$3" --ops 64 --nest --dims
}

# The machine, so that figures from different runs can be told apart.
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs, $(awk '{print int($2/1024/1024) " GiB"}' <(grep MemTotal /proc/meminfo)), kernel $(uname -r)"
echo "machine: load average $(cut -d' ' -f1-3 /proc/loadavg), $(df -h "$work" | awk 'NR==2 {print "temp dir on " $1 " (" $4 " free)"}')"

gen "$work/1m" 10 100000
gen "$work/10m" 100 100000
gen "$work/1m-one" 1 1000000

printf '%-44s %10s %12s %12s\n' "run" "seconds" "M records/s" "max RSS MiB"
row() { # LABEL RECORDS CMD...
  local label=$1 n=$2; shift 2
  read -r wall rss < <(measure "$@")
  python3 -c "import sys; w,r,n=float(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3]); print(f'{sys.argv[4]:<44} {w:10.3f} {n/w/1e6:12.1f} {r/1024:12.1f}')" "$wall" "$rss" "$n" "$label"
  echo "$rss" > "$work/last-rss"
  echo "$wall" > "$work/last-wall"
}
suite_lines=()
# suite_rate LABEL RECORDS [shown]: a `suite|report|...` line for the last
# row's rate, judged against 20 M records/s unless `shown` (1 M records: the
# ~20 ms process start dominates, docs/performance.md).
suite_rate() {
  suite_lines+=("$(python3 -c "import sys; w,n=float(sys.argv[1]),int(sys.argv[2]); r=n/w/1e6; shown=sys.argv[4]=='shown'; print(f'suite|report|{sys.argv[3]}, rate|{r:.1f}|||M records/s||' + ('|n/a' if shown else '>= 20 M records/s|' + ('met' if r >= 20 else 'NOT met')))" "$(cat "$work/last-wall")" "$2" "$1" "${3:-}")")
}
# suite_rss LABEL: the last row's peak memory (no target of its own).
suite_rss() {
  suite_lines+=("$(python3 -c "import sys; print(f'suite|report|{sys.argv[2]}, peak memory|{int(sys.argv[1])/1024:.1f}|||MiB|||n/a')" "$(cat "$work/last-rss")" "$1")")
}
row "table, 1 M records (10 dumps)" 1000000 "$bin/tpuprof-report" table "$work/1m"
rss1=$(cat "$work/last-rss")
suite_rate "table, 1 M records" 1000000 shown
suite_rss "table, 1 M records"
row "table, 10 M records (100 dumps)" 10000000 "$bin/tpuprof-report" table "$work/10m"
rss10=$(cat "$work/last-rss")
suite_rate "table, 10 M records" 10000000
suite_rss "table, 10 M records"
row "table --stats --by name, 10 M records" 10000000 "$bin/tpuprof-report" table --stats --by name "$work/10m"
row "summary, 10 M records" 10000000 "$bin/tpuprof-report" summary -o - "$work/10m"
row "export --format json, 10 M records" 10000000 "$bin/tpuprof-report" export --format json "$work/10m"
row "diff, 2 x 10 M records" 20000000 "$bin/tpuprof-report" diff "$work/10m" "$work/10m"
row "stacks, 10 M records" 10000000 "$bin/tpuprof-report" stacks "$work/10m"
row "graph, 10 M records" 10000000 "$bin/tpuprof-report" graph "$work/10m"
row "table, 1 M records (one dump)" 1000000 "$bin/tpuprof-report" table "$work/1m-one"
row "trace, 1 M events (one dump)" 1000000 "$bin/tpuprof-report" trace -o "$work/t.json" "$work/1m-one"
suite_lines+=("$(python3 -c "import sys; w=float(sys.argv[1]); print(f'suite|report|trace, 1 M events|{w:.3f}|||s||< 2 s|' + ('met' if w < 2 else 'NOT met'))" "$(cat "$work/last-wall")")")
row "html, 1 M events (one dump)" 1000000 "$bin/tpuprof-report" html -o "$work/r.html" "$work/1m-one"
echo "html page, 1 M events: $(( $(stat -c %s "$work/r.html") / 1024 )) KiB (timeline in buckets above --max-events)"
row "bundle, 1 M events (one dump)" 1000000 "$bin/tpuprof-report" bundle -o "$work/bundle" "$work/1m-one"
python3 -c "import sys; print(f'table max RSS, 10 M / 1 M records: {int(sys.argv[2])/int(sys.argv[1]):.2f}x')" "$rss1" "$rss10"
suite_lines+=("$(python3 -c "import sys; r=int(sys.argv[2])/int(sys.argv[1]); print(f'suite|report|table peak memory, 10 M / 1 M records|{r:.2f}|||x||flat (<= 1.1x)|' + ('met' if r <= 1.1 else 'NOT met'))" "$rss1" "$rss10")")
if [ "$big" = "--big" ]; then
  gen "$work/100m" 1000 100000
  row "table, 100 M records (1000 dumps)" 100000000 "$bin/tpuprof-report" table "$work/100m"
  suite_rate "table, 100 M records" 100000000
  suite_rss "table, 100 M records"
  rm -rf "$work/100m"
fi

# Dump writing: what getting 4 Mi mode-0 records into a finished dump in
# $work costs beyond the probes, against a plain write() of as many bytes
# there (bench/dump_write.c); also in /dev/shm when it is there (tmpfs),
# since the page cache costs differ between file systems.
echo
dump_dirs=(--dir "$work")
if shm=$(mktemp -d /dev/shm/tpuprof-report-bench.XXXXXX 2>/dev/null); then
  trap 'rm -rf "$work" "$shm"' EXIT
  dump_dirs+=(--dir "$shm")
fi
dump_out=$("$bin/dump_write" --records 4194304 --rounds 7 "${dump_dirs[@]}")
grep -v '^suite|' <<<"$dump_out"
while IFS= read -r line; do suite_lines+=("$line"); done < <(grep '^suite|' <<<"$dump_out")

printf '%s\n' "${suite_lines[@]}"
