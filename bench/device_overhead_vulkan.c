/*===- bench/device_overhead_vulkan.c - Device timing's cost per dispatch -===*\
|*                                                                            *|
|* Dispatches a one-invocation Vulkan kernel in batches and prints the host  *|
|* time per dispatch of each batch: recording each dispatch in its own       *|
|* command buffer, submitting each, the vkQueueWaitIdle that waits for them  *|
|* and, with --own-profiling, a timestamp pair around each dispatch read     *|
|* after the wait, the way a program that profiles itself does. Built with   *|
|* the LLVM plugin by bench/device_overhead_vulkan.py, which runs it with    *|
|* device timing on and off.                                                 *|
|*                                                                            *|
|*   device_overhead_vulkan KERNEL.spv [--own-profiling] [--launches N]      *|
|*                          [--batch B]                                      *|
|* prints "batch_ns_per_launch <min> <median>" over the batches.              *|
\*===----------------------------------------------------------------------===*/

#include <vulkan/vulkan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(what)                                                            \
  do {                                                                         \
    VkResult rc_ = (what);                                                     \
    if (rc_ != VK_SUCCESS) {                                                   \
      fprintf(stderr, "device_overhead_vulkan: %s failed: %d\n", #what, rc_);  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int own = 0, launches = 20000, batch = 200;
  const char *spv = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--own-profiling"))
      own = 1;
    else if (!strcmp(argv[i], "--launches") && i + 1 < argc)
      launches = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
      batch = atoi(argv[++i]);
    else
      spv = argv[i];
  }
  if (!spv || batch <= 0 || launches < batch) {
    fprintf(stderr, "usage: device_overhead_vulkan KERNEL.spv "
                    "[--own-profiling] [--launches N] [--batch B]\n");
    return 2;
  }
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, NULL, &instance));
  uint32_t n = 1;
  VkPhysicalDevice physical;
  VkResult rc = vkEnumeratePhysicalDevices(instance, &n, &physical);
  if ((rc != VK_SUCCESS && rc != VK_INCOMPLETE) || n == 0) {
    fprintf(stderr, "device_overhead_vulkan: no Vulkan device\n");
    return 1;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device;
  CHECK(vkCreateDevice(physical, &dci, NULL, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);

  VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 64;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer;
  CHECK(vkCreateBuffer(device, &bci, NULL, &buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(physical, &mem);
  uint32_t type = 0;
  while (type < mem.memoryTypeCount && (!(req.memoryTypeBits & (1u << type)) ||
                                        !(mem.memoryTypes[type].propertyFlags &
                                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)))
    ++type;
  VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = type;
  VkDeviceMemory memory;
  CHECK(vkAllocateMemory(device, &mai, NULL, &memory));
  CHECK(vkBindBufferMemory(device, buffer, memory, 0));

  VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
  VkDescriptorSetLayoutCreateInfo dlci = {
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dlci.bindingCount = 1;
  dlci.pBindings = &binding;
  VkDescriptorSetLayout set_layout;
  CHECK(vkCreateDescriptorSetLayout(device, &dlci, NULL, &set_layout));
  VkPipelineLayoutCreateInfo plci = {
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set_layout;
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(device, &plci, NULL, &layout));
  static uint32_t code[1 << 14];
  FILE *f = fopen(spv, "rb");
  if (!f) {
    fprintf(stderr, "device_overhead_vulkan: cannot open %s\n", spv);
    return 1;
  }
  size_t size = fread(code, 1, sizeof(code), f);
  fclose(f);
  VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = size;
  smci.pCode = code;
  VkShaderModule module;
  CHECK(vkCreateShaderModule(device, &smci, NULL, &module));
  VkComputePipelineCreateInfo cpci = {
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = module;
  cpci.stage.pName = "main";
  cpci.layout = layout;
  VkPipeline pipeline;
  CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL,
                                 &pipeline));
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

  VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qpci.queryCount = 2u * (uint32_t)batch;
  VkQueryPool queries;
  CHECK(vkCreateQueryPool(device, &qpci, NULL, &queries));
  VkCommandPoolCreateInfo cpoolci = {
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpoolci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  VkCommandPool command_pool;
  CHECK(vkCreateCommandPool(device, &cpoolci, NULL, &command_pool));
  VkCommandBuffer *cbs = calloc((size_t)batch, sizeof(VkCommandBuffer));
  uint64_t *ts = calloc(2u * (size_t)batch, sizeof(uint64_t));
  VkCommandBufferAllocateInfo cbai = {
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = command_pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = (uint32_t)batch;
  CHECK(vkAllocateCommandBuffers(device, &cbai, cbs));

  int batches = launches / batch;
  double *per = calloc((size_t)batches, sizeof(double));
  uint64_t sink = 0;
  for (int b = 0; b < batches; ++b) {
    uint64_t t0 = now_ns();
    for (int i = 0; i < batch; ++i) {
      VkCommandBufferBeginInfo begin = {
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      CHECK(vkBeginCommandBuffer(cbs[i], &begin));
      vkCmdBindPipeline(cbs[i], VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cbs[i], VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0,
                              1, &set, 0, NULL);
      if (own) {
        vkCmdResetQueryPool(cbs[i], queries, 2u * (uint32_t)i, 2);
        vkCmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries,
                            2u * (uint32_t)i);
      }
      vkCmdDispatch(cbs[i], 1, 1, 1);
      if (own)
        vkCmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                            queries, 2u * (uint32_t)i + 1u);
      CHECK(vkEndCommandBuffer(cbs[i]));
      VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
      si.commandBufferCount = 1;
      si.pCommandBuffers = &cbs[i];
      CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    }
    CHECK(vkQueueWaitIdle(queue));
    if (own) {
      CHECK(vkGetQueryPoolResults(device, queries, 0, 2u * (uint32_t)batch,
                                  2u * (size_t)batch * sizeof(uint64_t), ts,
                                  sizeof(uint64_t), VK_QUERY_RESULT_64_BIT));
      for (int i = 0; i < batch; ++i)
        sink += ts[2 * i + 1] - ts[2 * i];
    }
    per[b] = (double)(now_ns() - t0) / batch;
  }
  qsort(per, (size_t)batches, sizeof(double), by_value);
  printf("batch_ns_per_launch %.0f %.0f\n", per[0], per[batches / 2]);
  fprintf(stderr, "device ns summed: %llu\n", (unsigned long long)sink);

  vkDeviceWaitIdle(device);
  vkDestroyCommandPool(device, command_pool, NULL);
  vkDestroyQueryPool(device, queries, NULL);
  vkDestroyDescriptorPool(device, descriptor_pool, NULL);
  vkDestroyPipeline(device, pipeline, NULL);
  vkDestroyShaderModule(device, module, NULL);
  vkDestroyPipelineLayout(device, layout, NULL);
  vkDestroyDescriptorSetLayout(device, set_layout, NULL);
  vkDestroyBuffer(device, buffer, NULL);
  vkFreeMemory(device, memory, NULL);
  vkDestroyDevice(device, NULL);
  vkDestroyInstance(instance, NULL);
  free(cbs);
  free(ts);
  free(per);
  return 0;
}
