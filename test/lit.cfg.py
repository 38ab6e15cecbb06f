# -*- Python -*-
# lit configuration for tpuprof. Tools resolve from the build's bin/ first,
# then from LLVM 19's bin/ (never /usr/bin, which is LLVM 14).
import os
import shutil
import sys
import lit.formats
from lit.llvm import llvm_config

config.name = "tpuprof"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".ll", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tpuprof_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()
for var in ["TPUPROF_ENABLE", "ENABLE_ALL_PROFILE", "TPUPROF_MODE", "PROFILE_MODE",
            "TPUPROF_RECORD_SIZE", "PROFILE_RECORD_SIZE", "TPUPROF_OUTPUT",
            "TPUPROF_DEVICE", "TPUPROF_EVENTS"]:
    config.environment.pop(var, None)

config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%tpuprof_src", config.tpuprof_src_root))
config.substitutions.append(("%tpuprof_lib", config.tpuprof_lib_dir))
config.substitutions.append(("%tpuprof_bin", config.tpuprof_tools_dir))
config.substitutions.append(("%tpuprof_include", os.path.join(config.tpuprof_src_root, "include")))
config.substitutions.append(("%examples", os.path.join(config.tpuprof_src_root, "examples")))
config.substitutions.append(("%cc", config.cc))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(("%mlir_lib", os.path.join(config.llvm_tools_dir, "..", "lib")))
# The LLVM pass plugin (absolute: opt and clang resolve plugin paths as given)
# and LLVM 19's clang and clang++ for programs built with it (never /usr/bin's
# LLVM 14, nor GCC when the project is built with GCC).
config.substitutions.append(("%tpuprof_plugin", os.path.join(config.tpuprof_lib_dir, "TpuProfilePlugin.so")))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
# Plain C with the plugin: clang-19 whatever CMAKE_C_COMPILER is (after
# %clangxx, which it prefixes).
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))

tool_dirs = [config.tpuprof_tools_dir, config.llvm_tools_dir]
tools = ["tpuprof-report", "tpuprof-events", "FileCheck", "not", "count", "mlir-opt", "mlir-translate", "opt", "clang"]
if config.tpuprof_mlir_enabled:
    tools += ["tpuprof-opt", "tpuprof-run", "tpuprof-annotate", "tpuprof-compile"]
    config.available_features.add("mlir")
    # passes/ (and with it TpuProfilePlugin.so) builds only with MLIR on.
    # A sanitizer build's plugins cannot load into the stock (uninstrumented)
    # opt and mlir-opt: their sanitizer runtime is missing there.
    if not config.tpuprof_sanitizer:
        config.available_features.add("llvm-plugin")
if config.tpuprof_sanitizer:
    config.available_features.add("sanitizer")
# The ONNX importer (built with libonnx-dev; test/import).
if os.path.exists(os.path.join(config.tpuprof_tools_dir, "tpuprof-import")):
    tools += ["tpuprof-import"]
# bench/'s synthetic dump generator (absent with TPUPROF_ENABLE_BENCH=OFF).
if os.path.exists(os.path.join(config.tpuprof_tools_dir, "tpuprof-gen-dumps")):
    tools += ["tpuprof-gen-dumps"]
    config.available_features.add("gen-dumps")
# bench/'s harness for compiled models (bench/model_bench.cpp; built with
# MLIR and TPUPROF_ENABLE_BENCH).
if os.path.exists(os.path.join(config.tpuprof_tools_dir, "model_bench")):
    tools += ["model_bench"]
    config.available_features.add("model-bench")
config.substitutions.append(("%cmake", config.cmake))
# An ARM board, emulated: Debian's aarch64 cross compiler and qemu-user
# (scripts/install-deps.sh installs both; test/boards).
if shutil.which("aarch64-linux-gnu-gcc") and shutil.which("qemu-aarch64"):
    config.available_features.add("aarch64-board")
elif os.environ.get("CI"):
    lit_config.fatal("the ARM board tests need aarch64-linux-gnu-gcc and "
                     "qemu-aarch64 (run scripts/install-deps.sh)")
# A big-endian machine, emulated: the s390x cross compiler and qemu-user.
if shutil.which("s390x-linux-gnu-gcc") and shutil.which("qemu-s390x"):
    config.available_features.add("s390x-board")
elif os.environ.get("CI"):
    lit_config.fatal("the big-endian board test needs s390x-linux-gnu-gcc and "
                     "qemu-s390x (run scripts/install-deps.sh)")
# A 32-bit ARM board and 32-bit x86, emulated the same way.
for board, cc, qemu in [("armhf", "arm-linux-gnueabihf-gcc", "qemu-arm"),
                        ("i686", "i686-linux-gnu-gcc", "qemu-i386")]:
    if shutil.which(cc) and shutil.which(qemu):
        config.available_features.add(board + "-board")
    elif os.environ.get("CI"):
        lit_config.fatal("the %s board test needs %s and %s (run "
                         "scripts/install-deps.sh)" % (board, cc, qemu))
if shutil.which("sqlite3"):
    config.available_features.add("sqlite3")
# The report's .xlsx workbook is built when libxlsxwriter-dev is installed
# (scripts/install-deps.sh does); CI must not skip its test silently.
import subprocess
try:
    report_version = subprocess.run(
        [os.path.join(config.tpuprof_tools_dir, "tpuprof-report"), "--version"],
        capture_output=True, text=True).stdout
except OSError:
    report_version = ""
if "xlsx yes" in report_version:
    config.available_features.add("xlsx")
elif os.environ.get("CI"):
    lit_config.fatal("tpuprof-report was built without the .xlsx workbook "
                     "(run scripts/install-deps.sh and reconfigure)")
# The HTML report's browser test: Debian's chromium driven by playwright-core
# (scripts/install-deps.sh installs both). Under CI a missing piece is an
# error, so that the browser test is never skipped silently there.
browser_dir = os.path.join(config.tpuprof_src_root, "test", "report", "browser")
node = shutil.which("node")
missing = [what for what, ok in [
    ("/usr/bin/chromium", os.path.exists("/usr/bin/chromium")),
    ("node", node),
    (os.path.join(browser_dir, "node_modules", "playwright-core"),
     os.path.isdir(os.path.join(browser_dir, "node_modules", "playwright-core")))] if not ok]
if not missing:
    config.available_features.add("chromium")
    config.substitutions.append(("%node", node))
    config.substitutions.append(("%browser_test", browser_dir))
elif os.environ.get("CI"):
    lit_config.fatal("the HTML report's browser test needs " + ", ".join(missing) +
                     " (run scripts/install-deps.sh)")
# MPI jobs (test/mpi): libtpuprof_mpi is built where libopenmpi-dev is, and
# the jobs run under openmpi-bin's mpirun (scripts/install-deps.sh installs
# both); under CI a missing piece is an error, never a silent skip.
mpi_lib = os.path.join(config.tpuprof_lib_dir, "libtpuprof_mpi.so")
mpicc = shutil.which("mpicc")
mpirun = shutil.which("mpirun")
if os.path.exists(mpi_lib) and mpicc and mpirun:
    config.available_features.add("mpi")
    config.substitutions.append(("%tpuprof_mpi", mpi_lib))
    showme = lambda what: subprocess.run([mpicc, "--showme:" + what],
                                         capture_output=True, text=True).stdout.strip()
    config.substitutions.append(("%mpi_cflags", showme("compile")))
    config.substitutions.append(("%mpi_libs", showme("link")))
    # As root (CI containers) and with more ranks than cores.
    config.substitutions.append(("%mpirun", mpirun + " --allow-run-as-root --oversubscribe"))
elif os.environ.get("CI"):
    lit_config.fatal("the MPI tests need libtpuprof_mpi.so, mpicc and mpirun "
                     "(run scripts/install-deps.sh and reconfigure)")
llvm_config.add_tool_substitutions(tools, tool_dirs)
# Vulkan compute (test/device): lavapipe from mesa-vulkan-drivers, the
# loader and headers from libvulkan-dev, glslangValidator from glslang-tools
# (scripts/install-deps.sh installs them); under CI a missing piece is an
# error, never a silent skip.
import glob
glslang = shutil.which("glslangValidator")
missing = [what for what, ok in [
    ("glslangValidator", glslang),
    ("vulkan/vulkan.h", os.path.exists("/usr/include/vulkan/vulkan.h")),
    ("a Vulkan device (lavapipe's ICD)",
     glob.glob("/usr/share/vulkan/icd.d/lvp_icd.*.json"))] if not ok]
if not missing:
    config.available_features.add("vulkan")
    config.substitutions.append(("%glslang", glslang))
elif os.environ.get("CI"):
    lit_config.fatal("the Vulkan device tests need " + ", ".join(missing) +
                     " (run scripts/install-deps.sh)")
