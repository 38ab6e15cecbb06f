"""tpuprof's runtime control from Python, on a C library loaded with ctypes."""

import os
import subprocess
import sys
import tempfile
import threading
import unittest

import tpuprof

import support


def dumps_in(directory):
    return sorted(f for f in os.listdir(directory) if f.startswith("tpuprof_data_dev"))


class ControlTest(unittest.TestCase):
    def setUp(self):
        self.model = support.model()
        self.tmp = tempfile.mkdtemp(prefix="control-", dir=support.WORK)

    def tearDown(self):
        self.assertFalse(tpuprof.is_enabled(), "a test left a window open")

    def test_package_is_the_installed_one(self):
        # The tree was installed elsewhere and moved: the package still finds
        # its runtime and tools next to itself.
        self.assertTrue(tpuprof.__file__.startswith(support.PREFIX), tpuprof.__file__)
        self.assertEqual(os.path.realpath(tpuprof.library_path()),
                         os.path.realpath(os.path.join(support.PREFIX, "lib", "libtpuprof_rt.so")))

    def test_profile_records_c_probes_inside_python_scopes(self):
        with tpuprof.profile(output=self.tmp, device=2) as prof:
            for _ in range(2):
                with tpuprof.scope("py_step"):
                    self.model.model_forward(200000)
            self.model.model_layer(1000)
        self.assertEqual(len(prof.dumps), 1)
        self.assertEqual(os.path.dirname(prof.dumps[0]), self.tmp)
        self.assertTrue(os.path.basename(prof.dumps[0]).startswith("tpuprof_data_dev2-"))
        rows = support.by_name(prof.load().rows())
        step = rows["py_step"]
        self.assertEqual((step["kind"], step["count"], step["device"]), ("user", 2, 2))
        self.assertEqual(rows["c_layer"]["count"], 1)
        if support.HAVE_PLUGIN:
            kernel = rows["model_kernel"]
            self.assertEqual(kernel["count"], 5)
            # The kernels nest in the Python scope: its self time excludes them.
            self.assertLess(step["self_us"], step["duration_us"])
            self.assertGreater(step["duration_us"], 0.5 * kernel["duration_us"])

    def test_enable_disable(self):
        tpuprof.set_output(self.tmp)
        tpuprof.enable()
        self.assertTrue(tpuprof.is_enabled())
        self.model.model_layer(1000)
        path = tpuprof.disable()
        self.assertFalse(tpuprof.is_enabled())
        self.assertEqual(path, tpuprof.last_dump_path())
        self.assertEqual([os.path.basename(path)], dumps_in(self.tmp))
        self.assertEqual(tpuprof.load(path).rows()[0]["name"], "c_layer")

    def test_bad_calls_raise(self):
        with self.assertRaisesRegex(tpuprof.Error, "disable"):
            tpuprof.disable()
        tpuprof.set_output(self.tmp)
        tpuprof.enable(max_records=1000, mode=0)
        try:
            with self.assertRaisesRegex(tpuprof.Error, "enable"):
                tpuprof.enable()
            with self.assertRaisesRegex(tpuprof.Error, "enable"):
                with tpuprof.profile():
                    pass
        finally:
            tpuprof.disable()
        with self.assertRaisesRegex(ValueError, "mode"):
            tpuprof.enable(mode=3)
        with self.assertRaisesRegex(ValueError, "max_records"):
            tpuprof.enable(max_records=-1)
        with self.assertRaisesRegex(ValueError, "name"):
            tpuprof.scope("")
        with self.assertRaisesRegex(TypeError, "schedule"):
            tpuprof.profile(schedule={"active": 1})
        with self.assertRaisesRegex(tpuprof.Error, "set_events"):
            tpuprof.set_events("no::SUCH-EVENT")

    def test_profile_decorator_opens_a_window_per_call(self):
        @tpuprof.profile(output=self.tmp)
        def run():
            self.model.model_layer(1000)
            return 7

        self.assertEqual(run(), 7)
        self.assertEqual(run(), 7)
        self.assertEqual(len(dumps_in(self.tmp)), 2)

    def test_scope_decorator_recursion_and_profiling_off(self):
        @tpuprof.scope("fib")
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)

        self.assertEqual(fib(10), 55)  # profiling off: nothing recorded, no error
        with tpuprof.profile(output=self.tmp) as prof:
            self.assertEqual(fib(5), 5)
        row = support.by_name(prof.load().rows())["fib"]
        self.assertEqual(row["count"], 15)  # every call, nested ones included
        self.assertEqual(row["unfinished"], 0)
        self.assertEqual(fib.__name__, "fib")

    def test_scope_per_thread(self):
        work = tpuprof.scope("worker")

        def worker():
            for _ in range(3):
                with work:
                    self.model.model_kernel(1000)

        with tpuprof.profile(output=self.tmp) as prof:
            threads = [threading.Thread(target=worker) for _ in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        loaded = prof.load()
        row = support.by_name(loaded.rows())["worker"]
        self.assertEqual((row["count"], row["unfinished"]), (9, 0))
        self.assertEqual(loaded.totals["threads"], 3)

    def test_schedule(self):
        sched = tpuprof.schedule(wait=1, warmup=1, active=2, repeat=1)
        with tpuprof.profile(output=self.tmp, schedule=sched) as prof:
            for _ in range(6):
                self.model.model_layer(1000)
                prof.step()
        self.assertEqual(len(prof.dumps), 1)
        self.assertEqual(dumps_in(self.tmp), [os.path.basename(prof.dumps[0])])
        self.assertEqual(support.by_name(prof.load().rows())["c_layer"]["count"], 2)

    def test_output_is_restored_after_profile(self):
        first = os.path.join(self.tmp, "first")
        second = os.path.join(self.tmp, "second")
        tpuprof.set_output(first)
        with tpuprof.profile(output=second):
            self.model.model_layer(10)
        tpuprof.enable()
        self.model.model_layer(10)
        path = tpuprof.disable()
        self.assertEqual(os.path.dirname(path), first)
        self.assertEqual(len(dumps_in(second)), 1)

    def test_mode_1_counts_events(self):
        tpuprof.set_events(["perf::TASK-CLOCK"])
        try:
            with tpuprof.profile(mode=1, output=self.tmp) as prof:
                self.model.model_layer(100000)
        finally:
            tpuprof.set_events(None)
        loaded = prof.load()
        self.assertEqual(loaded.dumps[0]["mode"], 1)
        row = support.by_name(loaded.rows())["c_layer"]
        for event in loaded.events:
            self.assertIn(event, row)


class ProcessTest(unittest.TestCase):
    """Each case in a fresh interpreter: which runtime gets loaded is decided
    once per process."""

    def python(self, code, **env):
        full = dict(os.environ, **env)
        return subprocess.run([sys.executable, "-c", code], env=full, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)

    def test_library_loaded_first_shares_the_runtime(self):
        # A model that needs libtpuprof_rt.so, loaded before tpuprof: the
        # package must control that same runtime, or nothing is recorded.
        support.model()
        out = os.path.join(support.WORK, "loaded-first")
        code = ("import ctypes, tpuprof\n"
                "lib = ctypes.CDLL(%r)\n"
                "with tpuprof.profile(output=%r) as p:\n"
                "    lib.model_layer(10)\n"
                "print([r['name'] for r in p.load().rows()])\n"
                % (os.path.join(support.WORK, "libmodel.so"), out))
        done = self.python(code)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("'c_layer'", done.stdout)

    def test_prefix_override(self):
        done = self.python("import tpuprof; tpuprof.enable()", TPUPROF_PREFIX="/nonexistent")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("tpuprof: the runtime library not found at "
                      "/nonexistent/lib/libtpuprof_rt.so (from TPUPROF_PREFIX=/nonexistent)",
                      done.stderr)
        done = self.python("import tpuprof; print(tpuprof.library_path())",
                           TPUPROF_PREFIX=support.PREFIX)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(),
                         os.path.join(support.PREFIX, "lib", "libtpuprof_rt.so"))

    def test_environment_window_is_seen(self):
        # TPUPROF_ENABLE=1 opens a window when the runtime loads; the package
        # sees it and closes it like its own. Its dump file comes with its
        # first record (docs/runtime.md): a process that records nothing
        # leaves none.
        out = os.path.join(support.WORK, "env-window")
        os.makedirs(out, exist_ok=True)
        done = self.python("import tpuprof; print(tpuprof.is_enabled())\n"
                           "with tpuprof.scope('step'): pass\n"
                           "print(tpuprof.disable())",
                           TPUPROF_ENABLE="1", TPUPROF_OUTPUT=out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split()[0], "True")
        self.assertTrue(done.stdout.split()[1].startswith(out))
        quiet = os.path.join(support.WORK, "env-window-quiet")
        os.makedirs(quiet, exist_ok=True)
        done = self.python("import tpuprof; print(repr(tpuprof.disable()))",
                           TPUPROF_ENABLE="1", TPUPROF_OUTPUT=quiet)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(), "None")  # No dump written.
        self.assertEqual(os.listdir(quiet), [])


if __name__ == "__main__":
    unittest.main()
