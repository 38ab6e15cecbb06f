; A musttail launch cannot be followed by an end probe: it is left alone and
; a missed-optimization remark says why. Nothing else in the module needs
; probes, so no table is emitted either.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -pass-remarks-missed=tpu-profile-instrument -S %s 2> %t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

; CHECK-NOT: tpuprof
; CHECK:     musttail call i32 @launchKernel(ptr %p)
; CHECK-NEXT: ret i32
; CHECK-NOT: tpuprof
; REMARK: remark: launch.cc:7:10: not instrumenting musttail call of launchKernel: no end probe may follow it

declare i32 @launchKernel(ptr)

define i32 @forward(ptr %p) !dbg !4 {
  %r = musttail call i32 @launchKernel(ptr %p), !dbg !6
  ret i32 %r
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "launch.cc", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "forward", scope: !1, file: !1, line: 5, type: !5, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !{})
!6 = !DILocation(line: 7, column: 10, scope: !4)
