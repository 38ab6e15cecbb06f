// RUN: tpuprof-opt %s --verify-diagnostics --tpu-profile-instrument="include=[z-a]"

// expected-error@+1 {{tpu-profile-instrument: invalid glob '[z-a]' in option 'include': invalid glob pattern: [z-a]}}
module {
  func.func @f() {
    return
  }
}
