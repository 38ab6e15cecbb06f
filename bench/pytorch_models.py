#!/usr/bin/python3
"""The bundled models in PyTorch eager mode: the peer of bench/vs_pytorch.py.

    /usr/bin/python3 bench/pytorch_models.py MODEL BATCH CALLS

MODEL is mlp (examples/mlp.mlir: 784 -> 128 -> 64 -> 10, relu, softmax) or
convnet (examples/convnet.mlir: 3x3 conv 3 -> 8 channels, relu, 2x2 max
pool, dense 1800 -> 10), with the same shapes and the same work as the MLIR
models (PyTorch's NCHW where the MLIR model is NHWC), or a model
bench/export-torchvision.py exports (resnet50, mobilenet_v2, encoder, ...:
the module it builds from the same seeds, on the same input; BATCH must be
1). One thread, no autograd, random inputs; after 20 warm-up calls, CALLS
calls are timed one by one. Prints `min_ms median_ms torch_version blas`,
where blas names the BLAS library the process loaded: Debian's torch calls
the system's libblas.so.3, OpenBLAS (`openblas-pthread`) once
scripts/install-deps.sh installed libopenblas0-pthread, else the reference
BLAS (`reference`). OpenBLAS runs one thread here (OPENBLAS_NUM_THREADS=1
unless set).
"""
import importlib.util
import os
import statistics
import sys
import time

# Before torch loads OpenBLAS, which reads it once.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import torch  # noqa: E402
import torch.nn.functional as F


def mlp(batch):
    x = torch.randn(batch, 784)
    w1, b1 = torch.randn(128, 784), torch.randn(128)
    w2, b2 = torch.randn(64, 128), torch.randn(64)
    w3, b3 = torch.randn(10, 64), torch.randn(10)

    def call():
        h = F.relu(F.linear(x, w1, b1))
        h = F.relu(F.linear(h, w2, b2))
        return F.softmax(F.linear(h, w3, b3), dim=1)
    return call


def convnet(batch):
    image = torch.randn(batch, 3, 32, 32)
    kernel = torch.randn(8, 3, 3, 3)
    weights = torch.randn(1800, 10)

    def call():
        h = F.relu(F.conv2d(image, kernel))
        h = F.max_pool2d(h, 2)
        return torch.matmul(h.flatten(1), weights)
    return call


def exported(name, batch):
    """A model of bench/export-torchvision.py, built as it builds it."""
    if batch != 1:
        sys.exit(f"pytorch_models.py: {name} is batch 1 only")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "export-torchvision.py")
    spec = importlib.util.spec_from_file_location("export_torchvision", path)
    exporter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(exporter)
    model, x = exporter.build(name)
    return lambda: model(x)


def blas():
    """The BLAS library this process loaded: the folder Debian's alternatives
    keep it in (openblas-pthread, openblas-serial, ...; blas is the
    reference implementation)."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if os.path.basename(path).startswith("libblas.so"):
                folder = os.path.basename(os.path.dirname(os.path.realpath(path)))
                return "reference" if folder == "blas" else folder
    return "unknown"


def main():
    model, batch, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    torch.set_num_threads(1)
    builders = {"mlp": mlp, "convnet": convnet}
    call = builders.get(model, lambda b: exported(model, b))(batch)
    with torch.no_grad():
        for _ in range(20):
            call()
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
    print(f"{min(times) * 1e3:.6f} {statistics.median(times) * 1e3:.6f} "
          f"{torch.__version__} {blas()}")


if __name__ == "__main__":
    main()
