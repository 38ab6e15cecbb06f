// RUN: tpuprof-opt %s --split-input-file --verify-diagnostics --tpu-profile-instrument=mode=3
// RUN: not tpuprof-opt %s --tpu-profile-instrument=mode=fast 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not tpuprof-opt %s --tpu-profile-instrument=capture=3 2>&1 | FileCheck %s --check-prefix=CAPTURE
// RUN: not tpuprof-opt %s --tpu-profile-instrument="manifest=%t.missing/dir/m.json" 2>&1 | FileCheck %s --check-prefix=MANIFEST

// PARSE: for the --mode option: '{{.*}}fast' value invalid for uint argument!
// CAPTURE: error: tpu-profile-instrument: option 'capture' must be 0, 1 or 2, got 3
// MANIFEST: error: tpu-profile-instrument: cannot write manifest '{{.*}}m.json': No such file or directory

// expected-error@+1 {{tpu-profile-instrument: option 'mode' must be 0, 1 or 2, got 3}}
module {
  func.func @f() {
    return
  }
}
