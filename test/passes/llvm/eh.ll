; Launch probes end on every way out of the call: the normal edge of an
; invoke, its unwind edge (a landing pad shared with other calls is split so
; that only this call's exceptions end the probe), and exceptions leaving
; through a plain call, which becomes an invoke whose cleanup ends the probe
; and resumes.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | opt -passes=verify -disable-output

declare void @launchKernel(ptr)
declare void @other(ptr)
declare i32 @__gxx_personality_v0(...)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()

; CHECK-LABEL: define void @invoked(
; CHECK:         call void @__tpuprof_begin(i32 [[ID0:%.*]])
; CHECK:         invoke void @launchKernel(ptr %p)
; CHECK-NEXT:            to label %[[NORMAL:[^ ]+]] unwind label %[[LPAD:[^ ,]+]]
; CHECK:       [[NORMAL]]:
; CHECK:         call void @__tpuprof_end(
; CHECK:         br label %cont
; CHECK:       [[LPAD]]:
; CHECK-NEXT:    landingpad { ptr, i32 }
; CHECK-NEXT:    catch ptr null
; CHECK:         call void @__tpuprof_end(
; CHECK:       lpad:
; CHECK-NEXT:    phi { ptr, i32 }
; CHECK-NOT:     call void @__tpuprof_end(
; CHECK:         call ptr @__cxa_begin_catch(
define void @invoked(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @other(ptr %p)
          to label %first unwind label %lpad
first:
  invoke void @launchKernel(ptr %p)
          to label %cont unwind label %lpad
cont:
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  %e = extractvalue { ptr, i32 } %lp, 0
  %x = call ptr @__cxa_begin_catch(ptr %e)
  call void @__cxa_end_catch()
  ret void
}

; A plain call of a launch function that may throw, in a function with no
; personality yet: it gets __gxx_personality_v0 (the module is C++) and a
; cleanup.
; CHECK-LABEL: define void @plain(ptr %p) personality ptr @__gxx_personality_v0 {
; CHECK:         call void @__tpuprof_begin(
; CHECK:         invoke void @launchKernel(ptr %p)
; CHECK-NEXT:            to label %[[CONT:[^ ]+]] unwind label %tpuprof.cleanup
; CHECK:       [[CONT]]:
; CHECK:         call void @__tpuprof_end(
; CHECK:         ret void
; CHECK:       tpuprof.cleanup:
; CHECK-NEXT:    [[LP:%.*]] = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK:         call void @__tpuprof_end(
; CHECK:         resume { ptr, i32 } [[LP]]
define void @plain(ptr %p) {
  call void @launchKernel(ptr %p)
  ret void
}

; The C launch APIs (CUDA, HIP, OpenMP) return errors and never throw: their
; plain calls get no cleanup even when not marked nounwind.
; CHECK-LABEL: define void @c_api(
; CHECK-NOT:     invoke
; CHECK:         call i32 @cuLaunchKernel(
; CHECK-NOT:     landingpad
; CHECK:         ret void
declare i32 @cuLaunchKernel(ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)
define void @c_api(ptr %f) {
  %r = call i32 @cuLaunchKernel(ptr %f, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null)
  ret void
}

; nounwind functions and calls need no cleanup.
; CHECK-LABEL: define void @nothrow(
; CHECK-NOT:     invoke
; CHECK:         call void @launchKernel(ptr %p)
; CHECK-NOT:     landingpad
; CHECK:         ret void
define void @nothrow(ptr %p) nounwind {
  call void @launchKernel(ptr %p)
  ret void
}

define void @_Z4usesv() {
  ret void
}
