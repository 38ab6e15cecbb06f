"""Reads a `tpuprof-report table` from stdin and prints the largest
`Task-clock %` of its rows and how many rows had one, so a test can bound
it: `max 100.00 rows 11`."""
import sys

lines = sys.stdin.read().splitlines()
head = next(i for i, l in enumerate(lines) if l.startswith("Name "))
if not lines[head].rstrip().endswith("Task-clock %"):
    sys.exit("no Task-clock % column")
values = []
for line in lines[head + 1:]:
    if line.startswith("-"):
        break
    values.append(float(line.split()[-1]))
print(f"max {max(values):.2f} rows {len(values)}")
