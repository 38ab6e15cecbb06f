; Whole functions get a probe when annotate("tpuprof") lists them in
; llvm.global.annotations or they carry the "tpuprof" attribute. The begin
; goes after the entry block's allocas; an end goes before every ret (early
; returns too) and every resume, and calls that may throw become invokes
; whose cleanup ends the probe and resumes. A launch inside nests in the
; function's probe. Unannotated functions are untouched.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s -pass-remarks-analysis=tpu-profile-instrument 2> %t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | opt -passes=verify -disable-output
; Annotate-only: the functions, not the launch.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -tpu-profile-annotate-only -S %s | FileCheck %s --check-prefix=ONLY

@.str = private unnamed_addr constant [8 x i8] c"tpuprof\00", section "llvm.metadata"
@.named = private unnamed_addr constant [18 x i8] c"tpuprof:my.region\00", section "llvm.metadata"
@.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [8 x i8] c"work.cc\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @_Z4workii, ptr @.str, ptr @.file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @named, ptr @.named, ptr @.file, i32 20, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @not_ours, ptr @.other, ptr @.file, i32 30, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @tail, ptr @.str, ptr @.file, i32 40, ptr null }
], section "llvm.metadata"

; Names (demangled or from "tpuprof:NAME") and locations (the annotation's
; file:line without debug info).
; CHECK: @__tpuprof_llvm_probe_table = internal constant
; CHECK-SAME: work(int, int)\00\00work.cc:3\00_Z4workii\00
; CHECK-SAME: launchKernel\00named\00my.region\00work.cc:20\00by_attribute\00tail\00work.cc:40\00

declare void @may_throw(i32)
declare void @cannot_throw(i32) nounwind
declare void @launchKernel(ptr)
declare void @callee(i32)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define i32 @_Z4workii(i32 %a, i32 %b) personality ptr @__gxx_personality_v0 {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %x = alloca i32
; CHECK-NEXT:    %tpuprof.on = load atomic i32, ptr @__tpuprof_enabled monotonic
; CHECK:         call void @__tpuprof_begin(i32 %tpuprof.id)
; The call that may throw is now an invoke into the cleanup; the nounwind
; one stays a call.
; CHECK:         invoke void @may_throw(i32 %a)
; CHECK-NEXT:            to label %{{.*}} unwind label %tpuprof.cleanup
; CHECK:         call void @cannot_throw(i32 %b)
; Early return: end, then ret.
; CHECK:       early:
; CHECK:         call void @__tpuprof_end(
; CHECK:         ret i32 0
; Late return.
; CHECK:       late:
; CHECK:         call void @__tpuprof_end(
; CHECK:         ret i32 1
; CHECK:       tpuprof.cleanup:
; CHECK-NEXT:    %[[LP:.*]] = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK:         call void @__tpuprof_end(
; CHECK:         resume { ptr, i32 } %[[LP]]
define i32 @_Z4workii(i32 %a, i32 %b) {
entry:
  %x = alloca i32
  call void @may_throw(i32 %a)
  call void @cannot_throw(i32 %b)
  %c = icmp eq i32 %a, 0
  br i1 %c, label %early, label %late
early:
  ret i32 0
late:
  ret i32 1
}

; An existing landing pad that resumes: the end goes before the resume. The
; launch nests: its end runs before the function's on both paths.
; CHECK-LABEL: define void @named(
; CHECK:         add i32 %{{.*}}, 2
; CHECK-NEXT:    call void @__tpuprof_begin(
; CHECK:         add i32 %{{.*}}, 1
; CHECK-NEXT:    call void @__tpuprof_begin(
; CHECK:         invoke void @launchKernel(ptr %p)
; CHECK:         add i32 %{{.*}}, 1
; CHECK-NEXT:    call void @__tpuprof_end(
; CHECK:       ok:
; CHECK:         add i32 %{{.*}}, 2
; CHECK-NEXT:    call void @__tpuprof_end(
; CHECK:         ret void
; CHECK:       lpad:
; CHECK:         add i32 %{{.*}}, 1
; CHECK-NEXT:    call void @__tpuprof_end(
; CHECK:         add i32 %{{.*}}, 2
; CHECK-NEXT:    call void @__tpuprof_end(
; CHECK:         resume
; ONLY-LABEL:   define void @named(
; ONLY-COUNT-1:  call void @__tpuprof_begin(
; ONLY-NOT:      call void @__tpuprof_begin(
; ONLY:          invoke void @launchKernel(ptr %p)
define void @named(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @launchKernel(ptr %p)
          to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %lp
}

; The function attribute works like the annotation.
; CHECK-LABEL: define void @by_attribute(
; CHECK:         call void @__tpuprof_begin(
; CHECK:         call void @__tpuprof_end(
; CHECK-NEXT:    br label
; CHECK:         ret void
define void @by_attribute() nounwind "tpuprof" {
  ret void
}

; Other annotations are not ours.
; CHECK-LABEL: define void @not_ours(
; CHECK-NEXT:    ret void
define void @not_ours() nounwind {
  ret void
}

; Nothing may come between a musttail call and its ret: the end goes before
; the call, and a remark says so.
; CHECK-LABEL: define void @tail(
; CHECK:         call void @__tpuprof_end(
; CHECK:         musttail call void @callee(i32 %a)
; CHECK-NEXT:    ret void
; REMARK: remark: <unknown>:0:0: end probe of tail placed before its musttail call: the callee's time is not included
define void @tail(i32 %a) nounwind {
  musttail call void @callee(i32 %a)
  ret void
}
