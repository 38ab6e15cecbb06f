/*===- test/device/vulkan_sizes.c - Vulkan dispatches of known sizes ------===*\
|*                                                                            *|
|* Dispatches two compute kernels (spin.comp under the entry points          *|
|* spin_small and spin_large, the SPIR-V files given as arguments) at three  *|
|* sizes each, one command buffer per dispatch, all submitted before one     *|
|* wait, inside an op of its own (an annotated function); twice, the second *|
|* time resubmitting the same command buffers. Each dispatch sits between    *|
|* the program's own timestamp queries, whose times it prints, the numbers  *|
|* tpuprof's device intervals must equal:                                    *|
|*   kernel <name> <seq> <queued> <submit> <start> <end>   (ns)              *|
|* (queued and submit: CLOCK_MONOTONIC at its vkQueueSubmit.) Built with the *|
|* LLVM plugin, so its submits are launch probes and its dispatches get     *|
|* tpuprof's own timestamp pairs.                                            *|
\*===----------------------------------------------------------------------===*/

#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(what)                                                            \
  do {                                                                         \
    VkResult rc_ = (what);                                                     \
    if (rc_ != VK_SUCCESS) {                                                   \
      fprintf(stderr, "vulkan_sizes: %s failed: %d\n", #what, rc_);            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

enum { ELEMS = 4096, RUNS = 3, DISPATCHES = 2 * RUNS, ROUNDS = 2 };

static const char *kernel_names[2] = {"spin_small", "spin_large"};

static VkDevice device;
static VkQueue queue;
static VkCommandBuffer cbs[DISPATCHES];
static VkFence fence;
static uint64_t submitted_ns[DISPATCHES];

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static VkShaderModule load_shader(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "vulkan_sizes: cannot open %s\n", path);
    exit(1);
  }
  static uint32_t code[1 << 16];
  size_t size = fread(code, 1, sizeof(code), f);
  fclose(f);
  VkShaderModuleCreateInfo ci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = size;
  ci.pCode = code;
  VkShaderModule m;
  CHECK(vkCreateShaderModule(device, &ci, NULL, &m));
  return m;
}

/// One op: submits every dispatch, each in its own command buffer, then
/// waits once (the last submit's fence).
__attribute__((annotate("tpuprof:step"))) static void step(void) {
  CHECK(vkResetFences(device, 1, &fence));
  for (int i = 0; i < DISPATCHES; ++i) {
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cbs[i];
    submitted_ns[i] = monotonic_ns();
    CHECK(vkQueueSubmit(queue, 1, &si,
                        i == DISPATCHES - 1 ? fence : VK_NULL_HANDLE));
  }
  CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: vulkan_sizes SMALL.spv LARGE.spv\n");
    return 2;
  }
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, NULL, &instance));
  uint32_t num_physical = 1;
  VkPhysicalDevice physical;
  VkResult rc = vkEnumeratePhysicalDevices(instance, &num_physical, &physical);
  if ((rc != VK_SUCCESS && rc != VK_INCOMPLETE) || num_physical == 0) {
    fprintf(stderr, "vulkan_sizes: no Vulkan device\n");
    return 1;
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical, &props);
  uint32_t num_families = 16;
  VkQueueFamilyProperties families[16];
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &num_families, families);
  uint32_t family = 0;
  while (family < num_families &&
         !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
    ++family;
  if (family == num_families) {
    fprintf(stderr, "vulkan_sizes: no compute queue\n");
    return 1;
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  CHECK(vkCreateDevice(physical, &dci, NULL, &device));
  vkGetDeviceQueue(device, family, 0, &queue);

  // The buffer the kernels update, host-visible.
  VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = ELEMS * sizeof(float);
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer;
  CHECK(vkCreateBuffer(device, &bci, NULL, &buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(physical, &mem);
  uint32_t type = 0;
  VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  while (type < mem.memoryTypeCount &&
         (!(req.memoryTypeBits & (1u << type)) ||
          (mem.memoryTypes[type].propertyFlags & want) != want))
    ++type;
  VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = type;
  VkDeviceMemory memory;
  CHECK(vkAllocateMemory(device, &mai, NULL, &memory));
  CHECK(vkBindBufferMemory(device, buffer, memory, 0));
  float *data;
  CHECK(vkMapMemory(device, memory, 0, bci.size, 0, (void **)&data));
  for (int i = 0; i < ELEMS; ++i)
    data[i] = (float)i;

  VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
  VkDescriptorSetLayoutCreateInfo dlci = {
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dlci.bindingCount = 1;
  dlci.pBindings = &binding;
  VkDescriptorSetLayout set_layout;
  CHECK(vkCreateDescriptorSetLayout(device, &dlci, NULL, &set_layout));
  VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(int)};
  VkPipelineLayoutCreateInfo plci = {
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set_layout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &push;
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(device, &plci, NULL, &layout));

  VkShaderModule modules[2] = {load_shader(argv[1]), load_shader(argv[2])};
  VkComputePipelineCreateInfo cpci[2];
  for (int k = 0; k < 2; ++k) {
    memset(&cpci[k], 0, sizeof(cpci[k]));
    cpci[k].sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    cpci[k].stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci[k].stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci[k].stage.module = modules[k];
    cpci[k].stage.pName = kernel_names[k];
    cpci[k].layout = layout;
  }
  VkPipeline pipelines[2];
  CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 2, cpci, NULL,
                                 pipelines));

  VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo dpci = {
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 1;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &pool_size;
  VkDescriptorPool descriptor_pool;
  CHECK(vkCreateDescriptorPool(device, &dpci, NULL, &descriptor_pool));
  VkDescriptorSetAllocateInfo dsai = {
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  dsai.descriptorPool = descriptor_pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &set_layout;
  VkDescriptorSet set;
  CHECK(vkAllocateDescriptorSets(device, &dsai, &set));
  VkDescriptorBufferInfo dbi = {buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &dbi;
  vkUpdateDescriptorSets(device, 1, &write, 0, NULL);

  // The program's own measurement: a timestamp pair around each dispatch.
  VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qpci.queryCount = 2 * DISPATCHES + 1;
  VkQueryPool queries;
  CHECK(vkCreateQueryPool(device, &qpci, NULL, &queries));

  VkCommandPoolCreateInfo cpoolci = {
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpoolci.queueFamilyIndex = family;
  VkCommandPool command_pool;
  CHECK(vkCreateCommandPool(device, &cpoolci, NULL, &command_pool));
  VkCommandBufferAllocateInfo cbai = {
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = command_pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = DISPATCHES;
  CHECK(vkAllocateCommandBuffers(device, &cbai, cbs));
  for (int r = 0; r < RUNS; ++r)
    for (int k = 0; k < 2; ++k) {
      int i = 2 * r + k;
      int n = (8000 << (2 * r)) * (k + 1); // 8000 .. 256000 iterations
      VkCommandBufferBeginInfo begin = {
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      CHECK(vkBeginCommandBuffer(cbs[i], &begin));
      vkCmdResetQueryPool(cbs[i], queries, 2 * i, 2);
      vkCmdResetQueryPool(cbs[i], queries, 2 * DISPATCHES, 1);
      vkCmdBindPipeline(cbs[i], VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[k]);
      vkCmdBindDescriptorSets(cbs[i], VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0,
                              1, &set, 0, NULL);
      vkCmdPushConstants(cbs[i], layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                         sizeof(n), &n);
      vkCmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries,
                          2 * i);
      vkCmdDispatch(cbs[i], (ELEMS >> r) / 64, 1, 1);
      vkCmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                          queries, 2 * i + 1);
      // lavapipe takes a timestamp at its next flush, which a write at
      // another stage than top-of-pipe does: this one makes the pair's end
      // be taken at once, not at whatever the buffer does next.
      vkCmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                          queries, 2 * DISPATCHES);
      CHECK(vkEndCommandBuffer(cbs[i]));
    }
  VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CHECK(vkCreateFence(device, &fci, NULL, &fence));

  double period = props.limits.timestampPeriod;
  for (int round = 0; round < ROUNDS; ++round) {
    step();
    uint64_t ts[2 * DISPATCHES];
    CHECK(vkGetQueryPoolResults(device, queries, 0, 2 * DISPATCHES, sizeof(ts),
                                ts, sizeof(uint64_t),
                                VK_QUERY_RESULT_64_BIT |
                                    VK_QUERY_RESULT_WAIT_BIT));
    for (int i = 0; i < DISPATCHES; ++i)
      printf("kernel %s %d %llu %llu %.0f %.0f\n", kernel_names[i % 2],
             round * DISPATCHES + i, (unsigned long long)submitted_ns[i],
             (unsigned long long)submitted_ns[i], (double)ts[2 * i] * period,
             (double)ts[2 * i + 1] * period);
  }
  printf("device %s, result %g\n", props.deviceName, (double)data[1]);

  CHECK(vkDeviceWaitIdle(device));
  vkDestroyFence(device, fence, NULL);
  vkDestroyCommandPool(device, command_pool, NULL);
  vkDestroyQueryPool(device, queries, NULL);
  vkDestroyDescriptorPool(device, descriptor_pool, NULL);
  for (int k = 0; k < 2; ++k) {
    vkDestroyPipeline(device, pipelines[k], NULL);
    vkDestroyShaderModule(device, modules[k], NULL);
  }
  vkDestroyPipelineLayout(device, layout, NULL);
  vkDestroyDescriptorSetLayout(device, set_layout, NULL);
  vkUnmapMemory(device, memory);
  vkDestroyBuffer(device, buffer, NULL);
  vkFreeMemory(device, memory, NULL);
  vkDestroyDevice(device, NULL);
  vkDestroyInstance(instance, NULL);
  return 0;
}
