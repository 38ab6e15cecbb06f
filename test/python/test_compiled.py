"""A model compiled by the installed tpuprof-compile, loaded with ctypes:
profiling off until enable() or profile(), scopes around its calls, and
the example program examples/compiled-model/run_model.py."""

import ctypes
import os
import subprocess
import sys
import tempfile
import unittest

import tpuprof

import support

EXAMPLE = os.path.join(support.SOURCE, "examples", "compiled-model", "run_model.py")
MLP_ROWS = {"tosa.fully_connected", "tosa.clamp", "tosa.reduce_max", "tosa.sub", "tosa.exp",
            "tosa.reduce_sum", "tosa.reciprocal", "tosa.mul"}


class F32Memref2d(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.POINTER(ctypes.c_float)),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 2),
                ("strides", ctypes.c_int64 * 2)]


class F32Memref1d(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.POINTER(ctypes.c_float)),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 1),
                ("strides", ctypes.c_int64 * 1)]


def memref(*shape):
    n = 1
    for d in shape:
        n *= d
    data = (ctypes.c_float * n)(*[((i * 7) % 13) / 130.0 for i in range(n)])
    m = (F32Memref2d if len(shape) == 2 else F32Memref1d)()
    m.allocated = ctypes.cast(data, ctypes.c_void_p)
    m.aligned = ctypes.cast(data, ctypes.POINTER(ctypes.c_float))
    m.sizes[:] = list(shape)
    m.strides[:] = [shape[1], 1] if len(shape) == 2 else [1]
    m.keep = data
    return m


class Mlp:
    """The bundled MLP compiled to a .so, called through its C interface."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.fn = self.lib.mlp_main
        self.fn.restype = None
        self.args = [memref(1, 784), memref(128, 784), memref(128), memref(64, 128),
                     memref(64), memref(10, 64), memref(10)]
        self.libc = ctypes.CDLL(None)
        self.libc.free.argtypes = [ctypes.c_void_p]

    def __call__(self):
        result = F32Memref2d()
        self.fn(ctypes.byref(result), *[ctypes.byref(a) for a in self.args])
        values = [result.aligned[result.offset + i * result.strides[1]] for i in range(10)]
        self.libc.free(result.allocated)
        return values


def dumps_in(directory):
    return sorted(f for f in os.listdir(directory) if f.startswith("tpuprof_data_dev"))


@unittest.skipUnless(os.path.exists(support.COMPILE), "built without MLIR: no tpuprof-compile")
class CompiledModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = Mlp(support.compiled_mlp())
        cls.plain = Mlp(support.compiled_mlp(no_instrument=True))

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="compiled-", dir=support.WORK)

    def tearDown(self):
        self.assertFalse(tpuprof.is_enabled(), "a test left a window open")

    def test_off_until_enabled(self):
        tpuprof.set_output(self.tmp)
        expected = self.plain()
        self.assertAlmostEqual(sum(expected), 1.0, places=5)  # a softmax
        self.assertEqual(self.model(), expected)  # off: nothing recorded
        self.assertEqual(dumps_in(self.tmp), [])
        tpuprof.enable()
        self.assertEqual(self.model(), expected)
        self.assertEqual(self.model(), expected)
        path = tpuprof.disable()
        self.assertEqual([os.path.basename(path)], dumps_in(self.tmp))
        self.assertEqual(self.model(), expected)  # off again
        rows = tpuprof.load(path).rows()
        self.assertEqual({r["name"] for r in rows}, MLP_ROWS)
        self.assertEqual(len(rows), 11)  # one per op: the layers differ by shape
        for row in rows:
            self.assertEqual(row["count"], 2, row)
            self.assertIn("mlp.mlir:", row["location"])
        self.assertEqual(dumps_in(self.tmp), [os.path.basename(path)])

    def test_scope_around_calls(self):
        with tpuprof.profile(output=self.tmp) as prof:
            for _ in range(3):
                with tpuprof.scope("inference"):
                    self.model()
        rows = support.by_name(prof.load().rows())
        scope = rows["inference"]
        self.assertEqual((scope["kind"], scope["count"]), ("user", 3))
        # The model's ops nest in the scope: its self time leaves them out.
        self.assertLess(scope["self_us"], scope["duration_us"])
        self.assertEqual(rows["tosa.exp"]["count"], 3)

    def test_model_without_probes_records_nothing(self):
        with tpuprof.profile(output=self.tmp) as prof:
            with tpuprof.scope("inference"):
                self.plain()
        self.assertEqual([r["name"] for r in prof.load().rows()], ["inference"])

    def test_example_program(self):
        done = subprocess.run([sys.executable, EXAMPLE, support.compiled_mlp(), self.tmp],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("@main: (tensor<1x784xf32>, tensor<128x784xf32>", done.stdout)
        self.assertIn("result: 1x10 first values", done.stdout)
        self.assertRegex(done.stdout, r"inference .* 3 ")
        self.assertRegex(done.stdout, r"tosa.fully_connected .* 3  f32\[1, 784\]")
        self.assertEqual(len(dumps_in(self.tmp)), 1)


if __name__ == "__main__":
    unittest.main()
