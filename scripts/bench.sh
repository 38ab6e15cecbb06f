#!/usr/bin/env bash
# Builds and runs every benchmark and prints one table (docs/performance.md):
# the same as `python3 bench/suite.py`, whose options it passes on, e.g.
#   scripts/bench.sh --quick
#   scripts/bench.sh --runs 7 --markdown /tmp/table.md
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec python3 "$root/bench/suite.py" "$@"
