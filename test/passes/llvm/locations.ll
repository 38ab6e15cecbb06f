; Locations: a launch's file:line:col comes from its call's debug location;
; an annotated function's file:line from its DISubprogram; an OpenMP region
; without -g from the ident_t source string clang writes; otherwise "".
; Probes inserted into a function with debug info carry its locations.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s

; CHECK: c"TPPT
; CHECK-SAME: launchKernel\00\00src/k.cc:12:7\00_Z4hostv\00
; CHECK-SAME: host()\00src/k.cc:10\00
; CHECK-SAME: region.omp_outlined:33\00threads[?]\00omp.c:33:5\00nodebug\00

%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.src = private unnamed_addr constant [22 x i8] c";omp.c;nodebug;33;5;;\00"
@ident = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 21, ptr @.src }

declare void @launchKernel() nounwind
declare void @__kmpc_fork_call(ptr, i32, ptr, ...) nounwind

define internal void @region.omp_outlined(ptr %a, ptr %b) nounwind {
  ret void
}

; CHECK-LABEL: define void @_Z4hostv(
; CHECK:         call void @__tpuprof_begin(i32 %{{.*}}){{.*}}, !dbg [[FN:![0-9]+]]
; CHECK:         call void @__tpuprof_begin(i32 %{{.*}}){{.*}}, !dbg [[CALL:![0-9]+]]
; CHECK:         call void @launchKernel(){{.*}}, !dbg [[CALL]]
; CHECK:         call void @__tpuprof_end(i32 %{{.*}}){{.*}}, !dbg [[CALL]]
; CHECK:         call void @__tpuprof_end(i32 %{{.*}}){{.*}}, !dbg [[RET:![0-9]+]]
; CHECK:         ret void, !dbg [[RET]]
define void @_Z4hostv() nounwind "tpuprof" !dbg !4 {
  call void @launchKernel(), !dbg !6
  ret void, !dbg !7
}

define void @nodebug() nounwind {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @ident, i32 0, ptr @region.omp_outlined)
  ret void
}

; CHECK: [[FN]] = !DILocation(line: 10, scope: [[SP:![0-9]+]])
; CHECK: [[CALL]] = !DILocation(line: 12, column: 7, scope: [[SP]])
; CHECK: [[RET]] = !DILocation(line: 13, column: 1, scope: [[SP]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/k.cc", directory: "/work")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "host", scope: !1, file: !1, line: 10, type: !5, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !{})
!6 = !DILocation(line: 12, column: 7, scope: !4)
!7 = !DILocation(line: 13, column: 1, scope: !4)
