// A compute kernel whose time grows with its push constant: each invocation
// iterates `n` times (test/device/vulkan.test compiles it twice, under two
// entry point names, with glslangValidator).
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float a[]; };
layout(push_constant) uniform Params { int n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = a[i];
  for (int k = 0; k < n; ++k)
    x = x * 1.0000001 + 0.5;
  a[i] = x;
}
