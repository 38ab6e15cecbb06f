"""Results: tpuprof.load() and Profile.

There is one reader of dumps, the installed tpuprof-report: load() runs
`tpuprof-report export --format json` (docs/report.md) and Profile turns the
export's per-op rows into plain dicts. The export's keys come from their one
definition (_keys.py reads it); the block below says which of them this
module uses and how.
"""

import json
import os
import subprocess
import sys
import tempfile

from . import _keys, _locate
from ._errors import Error
from ._keys import Row, Top, Totals

#===-- The JSON export's keys (docs/report.md, `tpuprof-report export`) ----===#

_FORMAT = (Top.FORMAT, _keys.FORMAT)
_TOTAL_NS = (Top.TOTALS, Totals.TOTAL_NS)  # the table's Total, percent's denominator
_EVENTS = Top.EVENTS                # counter-word names, the order of a row's counters
_PSEUDO = "tpuprof::"               # the runtime's pseudo-events: no column (docs/formats.md)
_ROWS = Top.ROWS
_DUMPS = Top.DUMPS
_COUNTERS = Row.COUNTERS


def _first(values):
    return values[0] if values else ""


def _us(ns):
    return ns / 1000.0


# (column, export row key, conversion): the columns every row has, in order.
_COLUMNS = [
    ("name", Row.NAME, None),
    ("kind", Row.KIND, None),
    ("hash", Row.HASH, None),
    ("shapes", Row.SHAPES, None),
    ("location", Row.LOCATIONS, _first),
    ("function", Row.FUNCTION, None),
    ("device", Row.DEVICE, None),
    ("count", Row.COUNT, None),
    ("duration_us", Row.DURATION_NS, _us),
    ("self_us", Row.SELF_NS, _us),
    ("percent", None, None),  # duration / the totals' total_ns
    ("unfinished", Row.UNFINISHED, None),
    ("flops", Row.FLOPS, None),
    ("bytes", Row.BYTES, None),
    ("approx", Row.APPROX, None),  # too short to be measured to 5 %
]
# Export row keys that are no column: the rest (counters aside) pass through
# unchanged, so columns added to the export later (memory) appear as they are.
_NOT_COLUMNS = {Row.UNKNOWN_PROBE, Row.PROBE_ID, Row.COUNTER_FLAGS, Row.DURATIONS, _COUNTERS}

#===------------------------------------------------------------------------===#

_MAPPED = {key for _, key, _ in _COLUMNS if key}


def _row(r, events, total_ns):
    row = {}
    for column, key, convert in _COLUMNS:
        value = r.get(key) if key else None
        row[column] = convert(value) if convert and value is not None else value
    if r.get(Row.UNKNOWN_PROBE):
        row["hash"] = ""  # as the CSV export: no probe table entry, no hash
    row["percent"] = 100.0 * r.get(Row.DURATION_NS, 0) / total_ns if total_ns else 0.0
    counters = r.get(_COUNTERS) or []
    for i, event in events:
        row[event] = counters[i] if i < len(counters) else None
    for key, value in r.items():
        if key not in _MAPPED and key not in _NOT_COLUMNS and not isinstance(value, (list, dict)):
            row[key] = value
    return row


def _report(args, what):
    """Runs the installed tpuprof-report; its stdout, or Error with its message."""
    tool = _locate.tool("tpuprof-report")
    try:
        done = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise Error("tpuprof: cannot run %s: %s" % (tool, e)) from None
    err = done.stderr.decode(errors="replace")
    if done.returncode != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        raise Error("tpuprof: %s: %s" % (what, lines[-1] if lines else
                                         "tpuprof-report exited with %d" % done.returncode))
    if err:
        sys.stderr.write(err)  # warnings (e.g. dropped records) reach the user
    return done.stdout


def _paths(paths):
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    out = [os.fsdecode(os.fspath(p)) for p in paths]
    if not out:
        raise ValueError("tpuprof: load() needs at least one dump, directory or JSON export")
    # A path that looks like an option is still a path.
    return [os.path.join(".", p) if p.startswith("-") else p for p in out]


def load(paths):
    """Reads dumps, directories of dumps or JSON exports (one path or a list)
    with the installed tpuprof-report and returns a Profile."""
    paths = _paths(paths)
    out = _report(["export", "--format", "json", "-o", "-"] + paths,
                  "load(%s)" % ", ".join(paths))
    return Profile(json.loads(out))


def _options(args, kwargs):
    """CLI options from table()'s arguments: stats=True -> --stats,
    sort="+name" -> --sort=+name, peak_flops=10 -> --peak-flops=10."""
    out = list(args)
    for key, value in kwargs.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        elif value is not None and value is not False:
            out.append("%s=%s" % (flag, value))
    return out


class Profile:
    """A loaded profile: rows(), to_pandas(), table(). `export` is the JSON
    export itself; `events`, `totals` and `dumps` are parts of it."""

    def __init__(self, export):
        key, value = _FORMAT
        if not isinstance(export, dict) or export.get(key) != value:
            raise Error("tpuprof: not a tpuprof-report JSON export")
        self.export = export

    def _events(self):
        """(counter index, name) of the PMU events; the export also names the
        runtime's pseudo-events, which no view shows."""
        return [(i, e) for i, e in enumerate(self.export.get(_EVENTS, []))
                if not e.startswith(_PSEUDO)]

    @property
    def events(self):
        """PMU event names: the counter columns of rows()."""
        return [e for _, e in self._events()]

    @property
    def totals(self):
        return dict(self.export.get(_TOTAL_NS[0], {}))

    @property
    def dumps(self):
        return list(self.export.get(_DUMPS, []))

    def rows(self):
        """One dict per row of the table (op hash, shapes, device), in the
        export's order: name, kind, hash, shapes, location, function, device,
        count, duration_us, self_us, percent, unfinished, flops, bytes, then one
        column per PMU event (summed delta) and any further export columns."""
        section, key = _TOTAL_NS
        total_ns = self.export.get(section, {}).get(key, 0)
        events = self._events()
        return [_row(r, events, total_ns) for r in self.export.get(_ROWS, [])]

    def columns(self):
        """Column names of rows(), in order (also when there are no rows)."""
        columns = [c for c, _, _ in _COLUMNS] + self.events
        for row in self.rows():
            columns += [c for c in row if c not in columns]
        return columns

    def to_pandas(self):
        """rows() as a pandas.DataFrame."""
        try:
            import pandas
        except ImportError:
            # Name the interpreter: pandas may be installed for another
            # Python (Debian's /usr/bin/python3) than the one running.
            version = "%d.%d" % sys.version_info[:2]
            raise ImportError(
                "tpuprof: to_pandas() needs pandas, which this Python (%s, "
                "%s) cannot import: install it for this interpreter (%s -m "
                "pip install pandas; for Debian's /usr/bin/python3: apt-get "
                "install python3-pandas)" % (sys.executable, version,
                                             sys.executable)) from None
        return pandas.DataFrame(self.rows(), columns=self.columns())

    def table(self, *args, **options):
        """The table as `tpuprof-report table` prints it; options as the CLI's
        (sort="+name", top=10, by="function", stats=True, ...)."""
        with tempfile.TemporaryDirectory(prefix="tpuprof-") as tmp:
            path = self.save(os.path.join(tmp, "profile.json"))
            return _report(["table"] + _options(args, options) + [path],
                           "table()").decode(errors="replace")

    def save(self, path):
        """Writes the JSON export to `path` (an input of every tpuprof-report
        view); returns path."""
        with open(path, "w") as f:
            json.dump(self.export, f)
        return path

    def __len__(self):
        return len(self.export.get(_ROWS, []))

    def __repr__(self):
        return "<tpuprof.Profile: %d rows, %d dumps>" % (len(self), len(self.dumps))
