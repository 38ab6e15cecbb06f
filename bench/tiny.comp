// The one-invocation kernel bench/device_overhead_vulkan.c dispatches
// (bench/device_overhead_vulkan.py compiles it with glslangValidator).
#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { int a[]; };
void main() { a[gl_GlobalInvocationID.x] += 1; }
