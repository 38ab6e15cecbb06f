// RUN: tpuprof-opt %s --split-input-file --verify-diagnostics --tpu-profile-lower

// --tpu-profile-lower refuses probes it cannot describe: no table, an index
// outside the table, malformed entries. The probe ops' verifiers reject
// probes that do not forward their operands (generic syntax, because the
// custom syntax infers the result types).

// expected-error@+1 {{tpu-profile-lower: module has tpuprof probes but no 'tpuprof.probes' table}}
module {
  func.func @no_table(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

// A table that is not an array counts as no table.
// expected-error@+1 {{tpu-profile-lower: module has tpuprof probes but no 'tpuprof.probes' table}}
module attributes {tpuprof.probes = "probes"} {
  func.func @not_an_array(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

module attributes {tpuprof.probes = [{bytes = 16 : i64, dyn_dims = 0 : i64, flops = 4 : i64, function = "f", hash = "1", location = "", name = "tosa.abs", shapes = "f32[4]"}]} {
  func.func @out_of_range(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    // expected-error@+1 {{tpu-profile-lower: probe 1 is not in the module's table of 1 probes}}
    %1 = tpuprof.end 1 (%0) : memref<4xf32>
    return
  }
}

// -----

// Missing key ('function').
// expected-error@+1 {{tpu-profile-lower: entry #1 of 'tpuprof.probes' is malformed: it needs string name, hash (hex), shapes, location, function and integer flops, bytes, dyn_dims (<256)}}
module attributes {tpuprof.probes = [
  {bytes = 16 : i64, dyn_dims = 0 : i64, flops = 4 : i64, function = "f", hash = "1", location = "", name = "tosa.abs", shapes = "f32[4]"},
  {bytes = 16 : i64, dyn_dims = 0 : i64, flops = 4 : i64, hash = "2", location = "", name = "tosa.abs", shapes = "f32[4]"}]} {
  func.func @missing_key(%a: memref<4xf32>) {
    %0 = tpuprof.begin 1 (%a) : memref<4xf32>
    return
  }
}

// -----

// Hash that is not hexadecimal.
// expected-error@+1 {{tpu-profile-lower: entry #0 of 'tpuprof.probes' is malformed}}
module attributes {tpuprof.probes = [{bytes = 16 : i64, dyn_dims = 0 : i64, flops = 4 : i64, function = "f", hash = "12g4", location = "", name = "tosa.abs", shapes = "f32[4]"}]} {
  func.func @bad_hash(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

// Hash of the wrong kind (an integer, not a hex string).
// expected-error@+1 {{tpu-profile-lower: entry #0 of 'tpuprof.probes' is malformed}}
module attributes {tpuprof.probes = [{bytes = 16 : i64, dyn_dims = 0 : i64, flops = 4 : i64, function = "f", hash = 12 : i64, location = "", name = "tosa.abs", shapes = "f32[4]"}]} {
  func.func @hash_not_string(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

// More dynamic dimensions than a record can carry.
// expected-error@+1 {{tpu-profile-lower: entry #0 of 'tpuprof.probes' is malformed}}
module attributes {tpuprof.probes = [{bytes = 16 : i64, dyn_dims = 256 : i64, flops = 4 : i64, function = "f", hash = "1", location = "", name = "tosa.abs", shapes = "f32[4]"}]} {
  func.func @too_many_dims(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

// An entry that is not a dictionary.
// expected-error@+1 {{tpu-profile-lower: entry #0 of 'tpuprof.probes' is malformed}}
module attributes {tpuprof.probes = ["tosa.abs"]} {
  func.func @not_a_dict(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

func.func @result_type_mismatch(%a: memref<4xf32>) {
  // expected-error@+1 {{'tpuprof.begin' op result #0 has type 'memref<8xf32>' but forwards an operand of type 'memref<4xf32>'}}
  %0 = "tpuprof.begin"(%a) <{probe = 0 : i64}> : (memref<4xf32>) -> memref<8xf32>
  return
}

// -----

func.func @second_result_mismatch(%a: tensor<4xf32>, %b: tensor<?xf32>) {
  // expected-error@+1 {{'tpuprof.end' op result #1 has type 'tensor<4xf32>' but forwards an operand of type 'tensor<?xf32>'}}
  %0:2 = "tpuprof.end"(%a, %b) <{probe = 0 : i64}> : (tensor<4xf32>, tensor<?xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @result_count_mismatch(%a: memref<4xf32>) {
  // expected-error@+1 {{'tpuprof.end' op expects as many results as operands, got 0 and 1}}
  "tpuprof.end"(%a) <{probe = 0 : i64}> : (memref<4xf32>) -> ()
  return
}

// -----

func.func @negative_probe(%a: memref<4xf32>) {
  // expected-error@+1 {{'tpuprof.begin' op needs a probe id: property 'probe' >= 0}}
  %0 = "tpuprof.begin"(%a) <{probe = -2 : i64}> : (memref<4xf32>) -> memref<4xf32>
  return
}

// -----

func.func @missing_probe(%a: memref<4xf32>) {
  // expected-error@+1 {{'tpuprof.begin' op needs a probe id: property 'probe' >= 0}}
  %0 = "tpuprof.begin"(%a) : (memref<4xf32>) -> memref<4xf32>
  return
}

// -----

func.func @negative_probe_custom_form(%a: memref<4xf32>) {
  // expected-error@+1 {{probe id must not be negative, got -3}}
  %0 = tpuprof.end -3(%a) : memref<4xf32>
  return
}

// -----

func.func @probe_not_an_integer(%a: memref<4xf32>) {
  // expected-error@+1 {{invalid properties {probe = "zero"} for op tpuprof.end: expected IntegerAttr}}
  %0 = "tpuprof.end"(%a) <{probe = "zero"}> : (memref<4xf32>) -> memref<4xf32>
  return
}

// -----

// The table op's entries are checked when the IR is read.
module {
  // expected-error@+1 {{entry #0 of 'tpuprof.probes' is malformed: it needs string name, hash (hex), shapes, location, function and integer flops, bytes, dyn_dims (<256)}}
  tpuprof.probes [{bytes = 16, dyn_dims = 0, flops = 4, function = "f", hash = "xyz", location = "", name = "tosa.abs", shapes = "f32[4]"}]
}

// -----

// A value of the wrong kind, in the second entry: the table's message, with
// the entry's index, not a syntax error.
module {
  // expected-error@+1 {{entry #1 of 'tpuprof.probes' is malformed}}
  tpuprof.probes [{bytes = 16, dyn_dims = 0, flops = 4, function = "f", hash = "a", location = "", name = "tosa.abs", shapes = "f32[4]"}, {bytes = "16", dyn_dims = 0, flops = 4, function = "f", hash = "b", location = "", name = "tosa.abs", shapes = "f32[4]"}]
}

// -----

module {
  // expected-error@+1 {{entry #0 of 'tpuprof.probes' is malformed}}
  tpuprof.probes [{bytes = 16, dyn_dims = 0, flops = 4, function = "f", hash = 12, location = "", name = "tosa.abs", shapes = "f32[4]"}]
}

// -----

// A key given twice.
module {
  // expected-error@+1 {{entry #0 of 'tpuprof.probes' is malformed}}
  tpuprof.probes [{bytes = 16, bytes = 32, dyn_dims = 0, flops = 4, function = "f", hash = "a", location = "", name = "tosa.abs", shapes = "f32[4]"}]
}

// -----

// A key missing.
module {
  // expected-error@+1 {{entry #0 of 'tpuprof.probes' is malformed}}
  tpuprof.probes [{dyn_dims = 0, flops = 4, function = "f", hash = "a", location = "", name = "tosa.abs", shapes = "f32[4]"}]
}

// -----

// expected-error@+1 {{tpu-profile-lower: module has more than one probe table ('tpuprof.probes')}}
module {
  tpuprof.probes [{bytes = 16, dyn_dims = 0, flops = 4, function = "f", hash = "1", location = "", name = "tosa.abs", shapes = "f32[4]"}]
  tpuprof.probes [{bytes = 16, dyn_dims = 0, flops = 4, function = "f", hash = "2", location = "", name = "tosa.abs", shapes = "f32[4]"}]
  func.func @two_tables(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    return
  }
}

// -----

// The table belongs to a module, not to a function.
func.func @table_in_function() {
  // expected-error@+1 {{'tpuprof.probes' op expects parent op 'builtin.module'}}
  tpuprof.probes []
  return
}
