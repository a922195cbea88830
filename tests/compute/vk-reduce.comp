/*
 * The compute tier's Vulkan shader (tests/compute/vk-compute.c), compiled
 * to SPIR-V on the host with glslangValidator.  Over N ints a and b,
 * work-groups of 64:
 *
 *   c[i]              a[i] * 3 + b[i]
 *   c[N + g]          group g's sum of a, a tree in shared memory
 *                     between barriers
 *   c[N + 16]         the sum of every a[i] & 0xff (atomicAdd)
 *   c[N + 17]         the largest a[i] (atomicMax)
 *   c[N + 18 + k]     how many a[i] & 63 == k (atomicAdd)
 */
#version 450

layout(local_size_x = 64) in;

layout(constant_id = 0) const uint N = 1024;

layout(std430, binding = 0) readonly buffer A { int a[]; };
layout(std430, binding = 1) readonly buffer B { int b[]; };
layout(std430, binding = 2) buffer C { int c[]; };

shared int s[64];

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    int v = a[i];

    c[i] = v * 3 + b[i];
    s[l] = v;
    barrier();
    for (uint w = 32; w > 0; w >>= 1) {
        if (l < w) {
            s[l] += s[l + w];
        }
        barrier();
    }
    if (l == 0) {
        c[N + gl_WorkGroupID.x] = s[0];
    }
    atomicAdd(c[N + 16], v & 0xff);
    atomicMax(c[N + 17], v);
    atomicAdd(c[N + 18 + uint(v & 63)], 1);
}
