/*
 * The compute tier's Vulkan program (tests/compute/README.md): the SPIR-V
 * compute shader of tests/compute/vk-reduce.comp, dispatched through
 * the Vulkan loader on the first physical device (in the guest Mesa's
 * anv on intel-gpu), its results checked against the same computation in
 * C, which --reference prints alone (no Vulkan) for the host side.
 *
 *   vk-compute [--out FILE] [--list] [--reference]
 *
 * The results go to FILE (default stdout): a line "kernel vk-reduce n N",
 * then one value a line.  The device and any error go to stderr.  --list
 * prints every physical device.
 * Exit status: 0 when the shader ran and every value equals the C
 * reference's, 1 when some differ (the output is written all the same),
 * 2 on a Vulkan or usage error.
 *
 * Vulkan 1.0 API only (the specification:
 * https://registry.khronos.org/vulkan/).
 */
#include <vulkan/vulkan.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute-io.h"
#include "vk-reduce.h"          /* vk_reduce_spv[]: glslangValidator --vn */

#define GROUP 64
#define GROUPS (N / GROUP)
#define BINS 64
#define NOUT (N + GROUPS + 2 + BINS)
#define FENCE_NS (600ull * 1000 * 1000 * 1000)

/* c's values before the dispatch: the maximum starts at INT_MIN. */
static void init_out(int32_t *c)
{
    memset(c, 0, NOUT * sizeof(c[0]));
    c[N + GROUPS + 1] = INT32_MIN;
}

/* What vk-reduce.comp computes, on the CPU. */
static void reference(const int32_t *a, const int32_t *b, int32_t *c)
{
    init_out(c);
    for (int i = 0; i < N; i++) {
        int32_t v = a[i];

        c[i] = (int32_t)((uint32_t)v * 3 + (uint32_t)b[i]);
        c[N + i / GROUP] += v;
        c[N + GROUPS] += v & 0xff;
        c[N + GROUPS + 1] = v > c[N + GROUPS + 1] ? v : c[N + GROUPS + 1];
        c[N + GROUPS + 2 + (v & 63)]++;
    }
}

static int vk_fail(const char *what, VkResult r)
{
    fprintf(stderr, "vk-compute: %s failed: %d\n", what, r);
    return 2;
}

#define VK_CHECK(what, call) do { \
        VkResult r_ = (call); \
        if (r_ != VK_SUCCESS) { \
            return vk_fail(what, r_); \
        } \
    } while (0)

typedef struct Vk {
    VkInstance inst;
    VkPhysicalDevice phys;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
    VkBuffer buf[3];
    VkDeviceMemory mem[3];
    VkPipelineLayout layout;
    VkPipeline pipe;
    VkDescriptorSet set;
} Vk;

static int vk_instance(Vk *vk)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpumodel vk-compute",
        .apiVersion = VK_API_VERSION_1_0,
    };
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };

    VK_CHECK("vkCreateInstance", vkCreateInstance(&ici, NULL, &vk->inst));
    return 0;
}

static int list_devices(void)
{
    Vk vk = { 0 };
    VkPhysicalDevice phys[8];
    uint32_t n = 8;

    if (vk_instance(&vk)) {
        return 2;
    }
    VK_CHECK("vkEnumeratePhysicalDevices",
             vkEnumeratePhysicalDevices(vk.inst, &n, phys));
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;

        vkGetPhysicalDeviceProperties(phys[i], &p);
        printf("device %u: %s (vendor 0x%04x, device 0x%04x)\n", i,
               p.deviceName, p.vendorID, p.deviceID);
    }
    vkDestroyInstance(vk.inst, NULL);
    return 0;
}

/* The first physical device with a compute queue, and its queue family. */
static int pick_device(Vk *vk)
{
    VkPhysicalDevice phys[8];
    uint32_t n = 8;

    VK_CHECK("vkEnumeratePhysicalDevices",
             vkEnumeratePhysicalDevices(vk->inst, &n, phys));
    for (uint32_t i = 0; i < n; i++) {
        VkQueueFamilyProperties q[8];
        uint32_t nq = 8;

        vkGetPhysicalDeviceQueueFamilyProperties(phys[i], &nq, q);
        for (uint32_t f = 0; f < nq; f++) {
            if (q[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                VkPhysicalDeviceProperties p;

                vk->phys = phys[i];
                vk->family = f;
                vkGetPhysicalDeviceProperties(phys[i], &p);
                fprintf(stderr, "vk-compute: on \"%s\", queue family %u\n",
                        p.deviceName, f);
                return 0;
            }
        }
    }
    fprintf(stderr, "vk-compute: no Vulkan device with a compute queue "
            "(%u devices)\n", n);
    return 2;
}

static int vk_device(Vk *vk)
{
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = vk->family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
    };

    VK_CHECK("vkCreateDevice", vkCreateDevice(vk->phys, &dci, NULL, &vk->dev));
    vkGetDeviceQueue(vk->dev, vk->family, 0, &vk->queue);
    return 0;
}

/* Storage buffer @i of @size bytes in host-visible, coherent memory. */
static int vk_buffer(Vk *vk, unsigned i, VkDeviceSize size, const void *data)
{
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkPhysicalDeviceMemoryProperties mp;
    VkMemoryRequirements req;
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .memoryTypeIndex = UINT32_MAX,
    };
    void *p;

    VK_CHECK("vkCreateBuffer", vkCreateBuffer(vk->dev, &bci, NULL,
                                              &vk->buf[i]));
    vkGetBufferMemoryRequirements(vk->dev, vk->buf[i], &req);
    vkGetPhysicalDeviceMemoryProperties(vk->phys, &mp);
    for (uint32_t t = 0; t < mp.memoryTypeCount; t++) {
        if ((req.memoryTypeBits & (1u << t)) &&
            (mp.memoryTypes[t].propertyFlags & want) == want) {
            mai.memoryTypeIndex = t;
            break;
        }
    }
    if (mai.memoryTypeIndex == UINT32_MAX) {
        fprintf(stderr, "vk-compute: no host-visible coherent memory\n");
        return 2;
    }
    mai.allocationSize = req.size;
    VK_CHECK("vkAllocateMemory", vkAllocateMemory(vk->dev, &mai, NULL,
                                                  &vk->mem[i]));
    VK_CHECK("vkBindBufferMemory", vkBindBufferMemory(vk->dev, vk->buf[i],
                                                      vk->mem[i], 0));
    VK_CHECK("vkMapMemory", vkMapMemory(vk->dev, vk->mem[i], 0, size, 0,
                                        &p));
    memcpy(p, data, size);
    vkUnmapMemory(vk->dev, vk->mem[i]);
    return 0;
}

/*
 * The descriptor set of the three buffers and the compute pipeline of
 * vk_reduce_spv, in @vk.
 */
static int vk_pipeline(Vk *vk)
{
    VkDescriptorSetLayoutBinding binds[3];
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 3,
        .pBindings = binds,
    };
    VkDescriptorSetLayout dsl;
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &dsl,
    };
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = sizeof(vk_reduce_spv),
        .pCode = vk_reduce_spv,
    };
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .pName = "main",
        },
    };
    VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 };
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &ps,
    };
    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorSetCount = 1,
        .pSetLayouts = &dsl,
    };
    VkDescriptorBufferInfo dbi[3];
    VkWriteDescriptorSet wds[3];

    for (unsigned i = 0; i < 3; i++) {
        binds[i] = (VkDescriptorSetLayoutBinding) {
            .binding = i,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    VK_CHECK("vkCreateDescriptorSetLayout",
             vkCreateDescriptorSetLayout(vk->dev, &dslci, NULL, &dsl));
    VK_CHECK("vkCreatePipelineLayout",
             vkCreatePipelineLayout(vk->dev, &plci, NULL, &vk->layout));
    VK_CHECK("vkCreateShaderModule",
             vkCreateShaderModule(vk->dev, &smci, NULL, &cpci.stage.module));
    cpci.layout = vk->layout;
    VK_CHECK("vkCreateComputePipelines",
             vkCreateComputePipelines(vk->dev, VK_NULL_HANDLE, 1, &cpci,
                                      NULL, &vk->pipe));
    VK_CHECK("vkCreateDescriptorPool",
             vkCreateDescriptorPool(vk->dev, &dpci, NULL,
                                    &dsai.descriptorPool));
    VK_CHECK("vkAllocateDescriptorSets",
             vkAllocateDescriptorSets(vk->dev, &dsai, &vk->set));
    for (unsigned i = 0; i < 3; i++) {
        dbi[i] = (VkDescriptorBufferInfo) { vk->buf[i], 0, VK_WHOLE_SIZE };
        wds[i] = (VkWriteDescriptorSet) {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = vk->set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &dbi[i],
        };
    }
    vkUpdateDescriptorSets(vk->dev, 3, wds, 0, NULL);
    return 0;
}

/* One dispatch of the pipeline over every group, waited for. */
static int vk_dispatch(Vk *vk)
{
    VkCommandPoolCreateInfo cpoolci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = vk->family,
    };
    VkCommandBufferAllocateInfo cbai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cb;
    VkCommandBufferBeginInfo cbbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VkMemoryBarrier host_read = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cb,
    };
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;

    VK_CHECK("vkCreateCommandPool",
             vkCreateCommandPool(vk->dev, &cpoolci, NULL, &cbai.commandPool));
    VK_CHECK("vkAllocateCommandBuffers",
             vkAllocateCommandBuffers(vk->dev, &cbai, &cb));
    VK_CHECK("vkBeginCommandBuffer", vkBeginCommandBuffer(cb, &cbbi));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, vk->pipe);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, vk->layout,
                            0, 1, &vk->set, 0, NULL);
    vkCmdDispatch(cb, GROUPS, 1, 1);
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host_read, 0,
                         NULL, 0, NULL);
    VK_CHECK("vkEndCommandBuffer", vkEndCommandBuffer(cb));
    VK_CHECK("vkCreateFence", vkCreateFence(vk->dev, &fci, NULL, &fence));
    VK_CHECK("vkQueueSubmit", vkQueueSubmit(vk->queue, 1, &si, fence));
    VK_CHECK("vkWaitForFences", vkWaitForFences(vk->dev, 1, &fence, VK_TRUE,
                                                FENCE_NS));
    return 0;
}

/*
 * The shader over a and b on the device, its NOUT results into @c.  0, or
 * 2 on a Vulkan error (said on stderr).  The objects are left to process
 * exit: the program runs once.
 */
static int run(const int32_t *a, const int32_t *b, int32_t *c)
{
    const VkDeviceSize sizes[3] = {
        N * sizeof(int32_t), N * sizeof(int32_t), NOUT * sizeof(int32_t),
    };
    const void *data[3] = { a, b, c };
    Vk vk = { 0 };
    void *p;

    if (vk_instance(&vk) || pick_device(&vk) || vk_device(&vk)) {
        return 2;
    }
    init_out(c);
    for (unsigned i = 0; i < 3; i++) {
        if (vk_buffer(&vk, i, sizes[i], data[i])) {
            return 2;
        }
    }
    if (vk_pipeline(&vk) || vk_dispatch(&vk)) {
        return 2;
    }
    VK_CHECK("vkMapMemory", vkMapMemory(vk.dev, vk.mem[2], 0, sizes[2], 0,
                                        &p));
    memcpy(c, p, sizes[2]);
    vkUnmapMemory(vk.dev, vk.mem[2]);
    return 0;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    static int32_t a[N], b[N], c[NOUT], want[NOUT];
    bool ref_only = false;
    int r;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--list")) {
            return list_devices();
        } else if (!strcmp(argv[i], "--reference")) {
            ref_only = true;
        } else {
            fprintf(stderr, "usage: vk-compute [--out FILE] [--list]"
                    " [--reference]\n");
            return 2;
        }
    }
    fill(a, b, N);
    reference(a, b, want);
    if (ref_only) {
        return compute_report("vk-compute", "vk-reduce", NOUT, want, want,
                              out_path);
    }
    r = run(a, b, c);
    if (r) {
        return r;
    }
    return compute_report("vk-compute", "vk-reduce", NOUT, c, want,
                          out_path);
}
