// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument="include=tosa.mul" | FileCheck %s --check-prefix=INCLUDE
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument="exclude=tosa.a*" | FileCheck %s --check-prefix=EXCLUDE
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument="include=default,arith.* exclude=tosa.*" | FileCheck %s --check-prefix=DEFAULT
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument="manifest=%t.json" -o /dev/null && FileCheck %s --check-prefix=MANIFEST < %t.json

// INCLUDE-LABEL: tpuprof.probes [{{.*}}name = "tosa.mul"{{.*}}]
// INCLUDE: func.func @select
// INCLUDE-NEXT: tosa.add %arg0, %arg1
// INCLUDE-NEXT: arith.addf
// INCLUDE-NEXT: tpuprof.begin 0
// INCLUDE-NEXT: tosa.mul

// EXCLUDE-LABEL: tpuprof.probes [{{.*}}name = "tosa.mul"{{.*}}]
// EXCLUDE: func.func @select
// EXCLUDE-NEXT: tosa.add %arg0, %arg1
// EXCLUDE-NEXT: arith.addf
// EXCLUDE-NEXT: tpuprof.begin 0

// DEFAULT-LABEL: tpuprof.probes [{{.*}}name = "arith.addf"{{.*}}]
// DEFAULT: func.func @select
// DEFAULT-NEXT: tosa.add %arg0, %arg1
// DEFAULT-NEXT: tpuprof.begin 0
// DEFAULT-NEXT: arith.addf
// DEFAULT-NEXT: tpuprof.end 0
// DEFAULT-NEXT: tosa.mul

// MANIFEST: "probes": [
// MANIFEST: "id": 0,
// MANIFEST: "name": "tosa.add",
// MANIFEST: "shapes": "f32[4], f32[4]"
// MANIFEST: "version": 1
func.func @select(%a: tensor<4xf32>, %b: tensor<4xf32>, %x: f32) -> (tensor<4xf32>, f32) {
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = arith.addf %x, %x : f32
  %1 = tosa.mul %0, %b {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1, %y : tensor<4xf32>, f32
}
