// No public function: nothing for tpuprof-compile to export.
func.func private @helper(%a: f32) -> f32 {
  return %a : f32
}
