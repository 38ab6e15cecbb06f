; Options: user launch globs (symbol, demangled or qualified name) and a file
; of them, mode 0 (no dims), the automatic run at the start of the default
; pipelines and how to turn it off, no second instrumentation, and one clear
; error line for each bad option.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-launch='my_launch*' -tpu-profile-launch='rt::submit,enqueue(int)' -S %s | FileCheck %s --check-prefix=GLOB
; RUN: printf '# launch functions\nmy_launch_a   # C\n\nrt::*\n' > %t.globs
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-launch-file=%t.globs -S %s | FileCheck %s --check-prefix=FILE
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-mode=0 -S %s | FileCheck %s --check-prefix=MODE0
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-capture=0 -S %s | FileCheck %s --check-prefix=MODE0
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes='default<O0>' -S %s | FileCheck %s --check-prefix=AUTO
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes='default<O2>' -S %s | FileCheck %s --check-prefix=AUTO
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes='default<O2>' -tpu-profile-auto=false -S %s | FileCheck %s --check-prefix=NOAUTO
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes='tpu-profile-instrument,tpu-profile-instrument' -S %s | FileCheck %s --check-prefix=ONCE

; RUN: not opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-mode=3 -disable-output %s 2>&1 | FileCheck %s --check-prefix=ERR-MODE
; RUN: not opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-capture=3 -disable-output %s 2>&1 | FileCheck %s --check-prefix=ERR-CAPTURE
; RUN: not opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-launch='launch[' -disable-output %s 2>&1 | FileCheck %s --check-prefix=ERR-GLOB
; RUN: not opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-launch-file=%t.missing -disable-output %s 2>&1 | FileCheck %s --check-prefix=ERR-FILE
; RUN: printf 'ok\n[bad\n' > %t.badglobs
; RUN: not opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-launch-file=%t.badglobs -disable-output %s 2>&1 | FileCheck %s --check-prefix=ERR-FILEGLOB

; ERR-MODE: error: tpu-profile-instrument: -tpu-profile-mode must be 0, 1 or 2, got 3
; ERR-MODE-NOT: error
; ERR-CAPTURE: error: tpu-profile-instrument: -tpu-profile-capture must be 0, 1 or 2, got 3
; ERR-CAPTURE-NOT: error
; ERR-GLOB: error: tpu-profile-instrument: bad launch pattern 'launch[' in -tpu-profile-launch: invalid glob pattern, unmatched '['
; ERR-FILE: error: tpu-profile-instrument: cannot read -tpu-profile-launch-file '{{.*}}.missing': {{[Nn]}}o such file or directory
; ERR-FILEGLOB: error: tpu-profile-instrument: bad launch pattern '[bad' at {{.*}}.badglobs:2: invalid glob pattern, unmatched '['

declare void @launchKernel(ptr, i64) nounwind
declare void @my_launch_a() nounwind
declare void @_ZN2rt6submitEv() nounwind
declare void @_Z7enqueuei(i32) nounwind
declare void @unrelated() nounwind

define void @host(ptr %p, i64 %n) nounwind {
  call void @launchKernel(ptr %p, i64 %n)
  call void @my_launch_a()
  call void @_ZN2rt6submitEv()
  call void @_Z7enqueuei(i32 3)
  call void @unrelated()
  ret void
}

; DEFAULT:     call void @__tpuprof_begin_dims(
; DEFAULT:     call void @launchKernel(
; DEFAULT:     call void @__tpuprof_end(
; DEFAULT-NOT: call void @__tpuprof_begin
; DEFAULT:     ret void

; GLOB: c"TPPT{{.*}}launchKernel\00args[?]\00\00host\00my_launch_a\00rt::submit()\00enqueue(int)\00args[3]\00
; GLOB-COUNT-4: call void @__tpuprof_end(
; GLOB-NOT:     call void @__tpuprof_end(
; GLOB:         call void @unrelated()
; GLOB-NEXT:    ret void

; FILE: c"TPPT{{.*}}launchKernel\00args[?]\00\00host\00my_launch_a\00rt::submit()\00
; FILE-NOT: enqueue(int)

; MODE0:     c"TPPT{{.*}}launchKernel\00args[?]\00
; MODE0-NOT: __tpuprof_begin_dims
; MODE0-NOT: alloca
; MODE0:     call void @__tpuprof_begin(

; AUTO: @__tpuprof_llvm_probe_table
; AUTO: call void @__tpuprof_begin
; NOAUTO-NOT: tpuprof

; ONCE-COUNT-1: @__tpuprof_llvm_probe_table =
; ONCE-COUNT-1: call void @__tpuprof_begin_dims(
; ONCE-NOT:     call void @__tpuprof_begin
