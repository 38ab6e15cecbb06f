"""tpuprof.load(): rows, table and DataFrame equal what the installed
tpuprof-report prints and exports."""

import csv
import io
import json
import os
import tempfile
import unittest

import tpuprof

import support

try:
    import pandas
except ImportError:
    pandas = None


def record(directory, mode=0, events=None):
    """A dump of the C library under Python scopes, in `directory`."""
    model = support.model()
    if events:
        tpuprof.set_events(events)
    try:
        with tpuprof.profile(mode=mode, output=directory):
            for n in (20000, 40000):
                with tpuprof.scope("py_block"):
                    model.model_forward(n)
                    model.model_layer(n)
    finally:
        if events:
            tpuprof.set_events(None)
    return directory


class ResultsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        work = tempfile.mkdtemp(prefix="results-", dir=support.WORK)
        cls.timing = record(os.path.join(work, "mode0"))
        cls.counters = record(os.path.join(work, "mode1"), mode=1, events="perf::TASK-CLOCK")

    def assert_rows_equal_csv(self, directory):
        prof = tpuprof.load(directory)
        rows = prof.rows()
        exported = list(csv.DictReader(io.StringIO(support.report(
            "export", "--format", "csv", directory), newline="")))
        self.assertEqual(len(rows), len(exported))
        self.assertGreaterEqual(len(rows), 2)
        for row, line in zip(rows, exported):
            for column in ("name", "kind", "hash", "shapes", "location", "function"):
                self.assertEqual(row[column], line[column], column)
            for column in ("device", "count", "unfinished", "flops", "bytes"):
                self.assertEqual(row[column], int(line[column]), column)
            self.assertEqual(round(row["duration_us"] * 1000), int(line["duration_ns"]))
            self.assertEqual(round(row["self_us"] * 1000), int(line["self_ns"]))
            self.assertAlmostEqual(row["percent"], float(line["percent"]), places=4)
            for event in prof.events:
                self.assertEqual(row[event], int(line[event]), event)
        return prof

    def test_rows_equal_the_csv_export(self):
        prof = self.assert_rows_equal_csv(self.timing)
        self.assertEqual(prof.events, [])
        names = {r["name"] for r in prof.rows()}
        self.assertIn("py_block", names)
        self.assertIn("c_layer", names)

    def test_counter_columns_equal_the_csv_export(self):
        prof = self.assert_rows_equal_csv(self.counters)
        self.assertIn("perf::TASK-CLOCK", prof.events)
        self.assertIn("perf::TASK-CLOCK", prof.columns())

    def test_rows_follow_the_json_export(self):
        prof = tpuprof.load(self.timing)
        exported = json.loads(support.report("export", "--format", "json", self.timing))
        self.assertEqual([(r["name"], r["hash"], r["count"]) for r in prof.rows()],
                         [(r["name"], r["hash"], r["count"]) for r in exported["rows"]])
        self.assertEqual(prof.totals, exported["totals"])
        self.assertEqual(len(prof), len(exported["rows"]))
        self.assertEqual(list(prof.rows()[0])[:11],
                         ["name", "kind", "hash", "shapes", "location", "function", "device",
                          "count", "duration_us", "self_us", "percent"])

    def test_table_equals_the_cli(self):
        prof = tpuprof.load(self.timing)
        self.assertEqual(prof.table(), support.report("table", self.timing))
        self.assertEqual(prof.table(sort="+name", top=2, stats=True),
                         support.report("table", "--sort=+name", "--top=2", "--stats",
                                        self.timing))
        with self.assertRaisesRegex(tpuprof.Error, "table"):
            prof.table(sort="nonsense")

    def test_saved_export_loads_the_same(self):
        prof = tpuprof.load([self.timing])
        path = prof.save(os.path.join(support.WORK, "saved.json"))
        self.assertEqual(tpuprof.load(path).rows(), prof.rows())

    def test_several_inputs_merge(self):
        both = tpuprof.load([self.timing, self.counters])
        self.assertEqual(len(both.dumps), 2)
        counts = {r["name"]: r["count"] for r in tpuprof.load(self.timing).rows()}
        for row in both.rows():
            if row["name"] in counts and row["device"] == 0:
                self.assertEqual(row["count"], 2 * counts[row["name"]], row["name"])

    @unittest.skipIf(pandas is None and not os.environ.get("CI"),
                     "pandas is not installed (Debian: python3-pandas)")
    def test_to_pandas(self):
        prof = tpuprof.load(self.counters)
        frame = prof.to_pandas()
        self.assertEqual(list(frame.columns), prof.columns())
        self.assertEqual(len(frame), len(prof))
        self.assertAlmostEqual(frame["duration_us"].sum(),
                               sum(r["duration_us"] for r in prof.rows()))
        self.assertEqual(frame.set_index("name").loc["py_block", "count"], 2)

    def test_to_pandas_without_pandas_names_the_interpreter(self):
        # pandas installed for another Python than this one: the message
        # says which interpreter lacks it, not only Debian's package.
        import sys
        from unittest import mock
        prof = tpuprof.load(self.counters)
        with mock.patch.dict(sys.modules, {"pandas": None}):
            with self.assertRaises(ImportError) as caught:
                prof.to_pandas()
        message = str(caught.exception)
        self.assertIn(sys.executable, message)
        self.assertIn("pip install pandas", message)
        self.assertIn("python3-pandas", message)

    def test_keys_are_the_exports(self):
        # The package's keys, read from ExportKeys.def installed beside it,
        # are those tpuprof-report writes.
        from tpuprof import _keys
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(_keys.__file__),
                                                    "ExportKeys.def")))
        keys = lambda part: set(vars(part).values())
        exported = json.loads(support.report("export", "--format", "json", self.counters))
        self.assertEqual(exported[_keys.Top.FORMAT], _keys.FORMAT)
        self.assertEqual(set(exported), keys(_keys.Top))
        self.assertEqual(set(exported["totals"]), keys(_keys.Totals))
        for row in exported["rows"]:
            self.assertLessEqual(set(row), keys(_keys.Row))
            self.assertLessEqual(set(row["durations"]), keys(_keys.Durations))
        for dump in exported["dumps"]:
            self.assertLessEqual(set(dump), keys(_keys.Dump))

    def test_bad_inputs(self):
        with self.assertRaisesRegex(tpuprof.Error, "/nonexistent"):
            tpuprof.load("/nonexistent")
        junk = os.path.join(support.WORK, "junk")
        with open(junk, "w") as f:
            f.write("not a dump\n")
        with self.assertRaisesRegex(tpuprof.Error, "junk"):
            tpuprof.load(junk)
        with self.assertRaises(ValueError):
            tpuprof.load([])
        with self.assertRaisesRegex(tpuprof.Error, "not a tpuprof-report JSON export"):
            tpuprof.Profile({"rows": []})


if __name__ == "__main__":
    unittest.main()
