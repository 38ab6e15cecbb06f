#!/usr/bin/env bash
# Merging a job's rank dumps (docs/mpi.md, docs/performance.md "Merging
# ranks"): `tpuprof-report ranks` over R dumps of N records each (R
# processes: tpuprof-gen-dumps --runs), against `tpuprof-report table` of one
# dump of R x N records, side by side: records per second (per core for the
# merge, which reads dumps in parallel) and peak memory.
#   bench/ranks_merge.sh [BUILD_DIR] [RANKS] [RECORDS_PER_DUMP[,N2,...]]
# Defaults: build, 64 ranks, 100000 records. Several sizes (e.g.
# 100000,1000000: 64 x 1 M is the full-size run, 1.5 GB on disk per side)
# are measured one after the other, each in a temporary directory deleted
# before the next, and a last line gives the merge's peak memory at the
# largest size against the smallest: flat when memory does not grow with
# records. Needs tpuprof-gen-dumps (TPUPROF_ENABLE_BENCH=ON).
set -euo pipefail
build=${1:-build}
ranks=${2:-64}
sizes=${3:-100000}
bin=$build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/tpuprof-ranks-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Wall seconds and max RSS (KiB) of a command.
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

cores=$(nproc)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $cores CPUs"
summary=()
for records in ${sizes//,/ }; do
  "$bin/tpuprof-gen-dumps" -o "$work/job" --dumps "$ranks" --runs "$ranks" \
    --records "$records" --ops 64 --nest > /dev/null
  # The peer: one dump holding as many records as the whole job, so that
  # neither side's rate is its start-up's.
  "$bin/tpuprof-gen-dumps" -o "$work/one" --dumps 1 \
    --records $((ranks * records)) --ops 64 --nest > /dev/null
  echo "load average before $ranks x $records: $(cut -d' ' -f1-3 /proc/loadavg)"
  read -r t1 m1 < <(measure "$bin/tpuprof-report" table "$work/one")
  read -r tr mr < <(measure "$bin/tpuprof-report" ranks --jobs "$cores" "$work/job")
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf "$work/job" "$work/one"
  python3 - "$ranks" "$records" "$cores" "$t1" "$m1" "$tr" "$mr" <<'PY'
import sys
ranks, records, cores = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
t1, m1, tr, mr = float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
single = ranks * records / t1
merged = ranks * records / tr
print(f"{ranks} dumps x {records} records")
print(f"{'':34} {'records/s':>12} {'per core':>12} {'peak MiB':>9}")
print(f"{'table, 1 dump of the same records':34} {single:12.3g} {single:12.3g} {m1 / 1024:9.1f}")
print(f"{'ranks, %d dumps, %d threads' % (ranks, cores):34} {merged:12.3g} {merged / cores:12.3g} {mr / 1024:9.1f}")
print(f"merge per core / single-dump rate: {merged / cores / single:.2f}x")
print(f"suite|ranks merge per core vs table|{merged / cores / single:.2f}x")
PY
  summary+=("$records $mr")
done
if [ "${#summary[@]}" -gt 1 ]; then
  read -r r0 m0 <<< "${summary[0]}"
  read -r rn mn <<< "${summary[${#summary[@]}-1]}"
  python3 -c "import sys; r0,m0,rn,mn=map(int,sys.argv[1:]); print(f'merge peak memory: {mn/1024:.1f} MiB at {rn} records per dump, {m0/1024:.1f} MiB at {r0}: {mn/m0:.2f}x for {rn/r0:g}x the records')" "$r0" "$m0" "$rn" "$mn"
fi
