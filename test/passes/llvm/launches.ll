; Which calls get probes: the default launch functions (here CUDA, the driver
; API, OpenMP and launchKernel), each call once, inside loops too; other
; calls, indirect calls and runtime calls stay as they are. In mode 1 the
; dynamic launch arguments go to __tpuprof_begin_dims through one stack slot
; per function. The table names kernels demangled, with their shapes and
; debug locations.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | opt -passes=verify -disable-output

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@.loc = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00"
@ident = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @.loc }

; nounwind: plain calls stay calls (eh.ll covers launches that may throw).
declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr) nounwind
declare i32 @cuLaunchKernel(ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr) nounwind
declare void @__kmpc_fork_call(ptr, i32, ptr, ...) nounwind
declare void @__kmpc_push_num_threads(ptr, i32, i32) nounwind
declare i32 @__kmpc_global_thread_num(ptr) nounwind
declare void @launchKernel(ptr, i32, i32) nounwind
declare void @not_a_launch(ptr)

define void @_Z6kernelPf(ptr %p) {
  ret void
}

define internal void @host.omp_outlined(ptr %gtid, ptr %btid) {
  ret void
}

; CHECK: @__tpuprof_enabled = external global i32
; CHECK: @__tpuprof_llvm_module_base = internal global i32 -16777216
; The string table: module, then per probe name, shapes, location, function.
; CHECK: @__tpuprof_llvm_probe_table = internal constant [{{[0-9]+}} x i8] c"TPPT
; CHECK-SAME: launches.ll\00kernel(float*)\00grid[?, ?, 7], block[256, 1, 1]\00launch.cu:10:3\00host\00
; CHECK-SAME: cuLaunchKernel\00grid[?, 2, 1], block[128, 1, 1]\00launch.cu:11:5\00
; CHECK-SAME: host.omp_outlined:12\00threads[?]\00launch.cu:12:1\00
; CHECK-SAME: host.omp_outlined:13\00threads[4]\00launch.cu:13:1\00
; CHECK-SAME: launchKernel\00args[?, 16]\00\00loop\00
; CHECK-SAME: , align 8
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__tpuprof_llvm_module_ctor, ptr null }]

; CHECK-LABEL: define void @host(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %tpuprof.dims = alloca i64, i32 2, align 8
define void @host(ptr %args, i64 %gridxy, i32 %n, ptr %fn, ptr %f) !dbg !4 {
entry:
; CHECK:         %tpuprof.on = load atomic i32, ptr @__tpuprof_enabled monotonic, align 4
; CHECK-NEXT:    [[ON:%.*]] = icmp ne i32 %tpuprof.on, 0
; CHECK-NEXT:    br i1 [[ON]], label %tpuprof.begin, label %[[CONT:[^,]+]], !dbg !{{[0-9]+}}, !prof
; CHECK:       tpuprof.begin:
; CHECK-NEXT:    [[BASE:%.*]] = load i32, ptr @__tpuprof_llvm_module_base
; CHECK-NEXT:    %tpuprof.id = add i32 [[BASE]], 0
; CHECK-NEXT:    [[X:%.*]] = and i64 %gridxy, 4294967295
; CHECK-NEXT:    [[SLOT0:%.*]] = getelementptr inbounds i64, ptr %tpuprof.dims, i64 0
; CHECK-NEXT:    store i64 [[X]], ptr [[SLOT0]], align 8
; CHECK-NEXT:    [[Y:%.*]] = lshr i64 %gridxy, 32
; CHECK-NEXT:    [[SLOT1:%.*]] = getelementptr inbounds i64, ptr %tpuprof.dims, i64 1
; CHECK-NEXT:    store i64 [[Y]], ptr [[SLOT1]], align 8
; CHECK-NEXT:    call void @__tpuprof_begin_dims(i32 %tpuprof.id, ptr %tpuprof.dims, i32 2)
; CHECK-NEXT:    br label %[[CONT]]
; CHECK:       [[CONT]]:
; CHECK-NEXT:    %r = call i32 @__tpuprof_wrap_cudaLaunchKernel(ptr @_Z6kernelPf, i64 %gridxy, i32 7, i64 4294967552, i32 1, ptr %args, i64 0, ptr null, ptr @cudaLaunchKernel)
; CHECK-NEXT:    %tpuprof.on1 = load atomic i32, ptr @__tpuprof_enabled monotonic
; CHECK:         call void @__tpuprof_end(i32 %tpuprof.id2)
  %r = call i32 @cudaLaunchKernel(ptr @_Z6kernelPf, i64 %gridxy, i32 7, i64 4294967552, i32 1, ptr %args, i64 0, ptr null), !dbg !6

; Driver API: six scalar dims, constants folded into the shapes.
; CHECK:         [[GX:%.*]] = zext i32 %n to i64
; CHECK:         call void @__tpuprof_begin_dims(i32 %{{.*}}, ptr %tpuprof.dims, i32 1)
; CHECK:         call i32 @cuLaunchKernel(
; CHECK:         call void @__tpuprof_end(
  %r2 = call i32 @cuLaunchKernel(ptr %f, i32 zeroext %n, i32 2, i32 1, i32 128, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null), !dbg !7

; OpenMP: the team size, from omp_get_max_threads() or a preceding
; __kmpc_push_num_threads.
; CHECK:         [[T:%.*]] = call i32 @omp_get_max_threads()
; CHECK-NEXT:    [[T64:%.*]] = sext i32 [[T]] to i64
; CHECK:         call void @__tpuprof_begin_dims(i32 %{{.*}}, ptr %tpuprof.dims, i32 1)
; CHECK:         call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @ident, i32 0, ptr @host.omp_outlined)
; CHECK:         call void @__tpuprof_end(
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @ident, i32 0, ptr @host.omp_outlined), !dbg !8
  %gtid = call i32 @__kmpc_global_thread_num(ptr @ident)
  call void @__kmpc_push_num_threads(ptr @ident, i32 %gtid, i32 4)
; CHECK:         call void @__tpuprof_begin(i32 %{{.*}})
; CHECK:         call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @ident, i32 0, ptr @host.omp_outlined)
; CHECK:         call void @__tpuprof_end(
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @ident, i32 0, ptr @host.omp_outlined), !dbg !9

; Not launches: other callees, indirect calls.
; CHECK-NOT:     call void @__tpuprof_begin
; CHECK:         call void @not_a_launch(ptr %args)
; CHECK-NEXT:    call i32 %fn(
; CHECK-NEXT:    ret void
  call void @not_a_launch(ptr %args)
  %r3 = call i32 %fn(ptr @_Z6kernelPf, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

; A launch in a loop: one probe pair per call, around the call, in the loop.
; CHECK-LABEL: define void @loop(
; CHECK:       body:
; CHECK:         load atomic i32, ptr @__tpuprof_enabled monotonic
; CHECK:       tpuprof.begin:
; CHECK:         call void @__tpuprof_begin_dims(
; CHECK:         call void @launchKernel(ptr %p, i32 %i, i32 16)
; CHECK:       tpuprof.end:
; CHECK-NEXT:    load i32, ptr @__tpuprof_llvm_module_base
; CHECK-NEXT:    %tpuprof.id{{.*}} = add i32 %{{.*}}, 4
; CHECK-NEXT:    call void @__tpuprof_end(
; CHECK:         %i.next = add i32 %i, 1
; CHECK:         br i1 %done, label %exit, label %body
define void @loop(ptr %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  call void @launchKernel(ptr %p, i32 %i, i32 16)
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

; The runtime functions never throw; the constructor registers the table.
; CHECK: declare void @__tpuprof_begin(i32) [[NOUNWIND:#[0-9]+]]
; CHECK: declare void @__tpuprof_begin_dims(i32, ptr, i32) [[NOUNWIND]]
; CHECK: declare void @__tpuprof_end(i32) [[NOUNWIND]]
; CHECK-LABEL: define internal void @__tpuprof_llvm_module_ctor()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__tpuprof_register_module(ptr @__tpuprof_llvm_probe_table, i64 {{[0-9]+}}, ptr @__tpuprof_llvm_module_base)
; CHECK-NEXT:    ret void
; CHECK: attributes [[NOUNWIND]] = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "launch.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "host", scope: !1, file: !1, line: 5, type: !5, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !{})
!6 = !DILocation(line: 10, column: 3, scope: !4)
!7 = !DILocation(line: 11, column: 5, scope: !4)
!8 = !DILocation(line: 12, column: 1, scope: !4)
!9 = !DILocation(line: 13, column: 1, scope: !4)
