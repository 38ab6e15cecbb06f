"""The JSON export's keys, from their one definition.

include/tpuprof/report/ExportKeys.def lists every key of `tpuprof-report
export --format json`, part by part; tpuprof-report writes and reads the
export with exactly those keys. The install puts a copy of the file next to
this module; in a source checkout it is read where it is. Each part is an
attribute of this module, each key one of the part, named after the .def's
identifier: Row.DURATION_NS is "duration_ns", Top.ROWS is "rows".
"""

import os
import re
import types

_DEF = "ExportKeys.def"
_ENTRIES = {
    "FORMAT": re.compile(r'TPUPROF_EXPORT_FORMAT\("([^"]*)"\)$'),
    "PART": re.compile(r'TPUPROF_EXPORT_PART\((\w+), "([^"]*)"\)$'),
    "KEY": re.compile(r'TPUPROF_EXPORT_KEY\((\w+), (\w+), "([^"]*)"\)$'),
}


def _definition():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, _DEF),
                 os.path.join(here, os.pardir, os.pardir, "include", "tpuprof", "report", _DEF)):
        if os.path.exists(path):
            return path
    raise ImportError("tpuprof: %s is missing from the package (%s)" % (_DEF, here))


def _constant(identifier):
    """DurationNs -> DURATION_NS, CalibTicks0 -> CALIB_TICKS0."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", identifier).upper()


def _read(path):
    """(format name, {part: {constant: json name}}) from the .def."""
    name, parts = None, {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("TPUPROF_EXPORT_"):
                continue
            kind = line[len("TPUPROF_EXPORT_"):].split("(", 1)[0]
            m = _ENTRIES.get(kind) and _ENTRIES[kind].match(line)
            if not m:
                raise ImportError("tpuprof: %s:%d: not one entry on one line" % (path, number))
            if kind == "FORMAT":
                name = m.group(1)
            elif kind == "PART":
                parts[m.group(1)] = {}
            else:
                parts[m.group(1)][_constant(m.group(2))] = m.group(3)
    return name, parts


FORMAT, _PARTS = _read(_definition())
for _part, _names in _PARTS.items():
    globals()[_part] = types.SimpleNamespace(**_names)
