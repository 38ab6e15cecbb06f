#!/usr/bin/env bash
# Checks that the C and C++ sources are formatted by .clang-format:
#   scripts/check-format.sh          # lists each file that is not, exit 1
#   scripts/check-format.sh --fix    # formats them in place
# Test inputs (test/**/Inputs, whose line numbers tests check) are left as
# they are written.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
clang_format=${CLANG_FORMAT:-clang-format-19}
if ! command -v "$clang_format" > /dev/null; then
  echo "check-format.sh: $clang_format not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if git rev-parse --git-dir > /dev/null 2>&1; then
  list() { git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp'; }
else # a source tree without git: every source but the build's
  list() {
    find . -path ./build -prune -o -path './build-*' -prune -o \
      -path '*/node_modules' -prune -o -type f \
      \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) \
      -print | sed 's|^\./||'
  }
fi
mapfile -t files < <(list | grep -v -e '/Inputs/')
if [ "${1:-}" = --fix ]; then
  "$clang_format" -i "${files[@]}"
  exit 0
fi
# One clang-format for all files; it names each unformatted one in its
# warnings ("FILE:LINE:COL: error: code should be clang-formatted").
status=0
out=$("$clang_format" --dry-run -Werror "${files[@]}" 2>&1) || status=$?
mapfile -t bad < <(printf '%s\n' "$out" |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*clang-format.*$/\1/p' | sort -u)
for f in "${bad[@]}"; do
  echo "$f: not formatted (scripts/check-format.sh --fix)" >&2
done
if [ "$status" -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  printf '%s\n' "$out" >&2 # clang-format failed for another reason
fi
exit "$status"
