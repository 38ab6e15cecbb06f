/*===- runtime/vulkan_abi.h - The Vulkan ABI the backend uses -----*- C -*-===*\
|*                                                                            *|
|* Vulkan's types, constants and the struct offsets device_vulkan.c reads or *|
|* fills, spelled from the documented ABI (vulkan_core.h, LP64) so that      *|
|* building the runtime needs no Vulkan headers. unittests/Runtime's         *|
|* VulkanAbiTest checks every one against the headers.                       *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_VULKAN_ABI_H
#define TPUPROF_RUNTIME_VULKAN_ABI_H

#include <stdint.h>

typedef int32_t vk_result;
typedef void *vk_handle; // Dispatchable and (64-bit) non-dispatchable alike.
typedef void (*vk_void_fn)(void);

enum {
  VKABI_SUCCESS = 0,
  VKABI_NOT_READY = 1,
  VKABI_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO = 11,
  VKABI_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT = 1000184000,
  VKABI_QUERY_TYPE_TIMESTAMP = 2,
  VKABI_QUERY_RESULT_64_BIT = 0x1,
  VKABI_QUERY_RESULT_WITH_AVAILABILITY_BIT = 0x4,
  VKABI_PIPELINE_STAGE_TOP_OF_PIPE_BIT = 0x1,
  VKABI_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT = 0x2000,
  VKABI_PIPELINE_BIND_POINT_COMPUTE = 1,
  VKABI_TIME_DOMAIN_DEVICE_EXT = 0,
  VKABI_TIME_DOMAIN_CLOCK_MONOTONIC_EXT = 1,
  VKABI_MAX_EXTENSION_NAME_SIZE = 256,
};

/// Byte offsets of the fields read from Vulkan's structs (LP64).
enum {
  VKABI_PROPS_SIZE = 824,             // VkPhysicalDeviceProperties
  VKABI_PROPS_DEVICE_NAME = 20,       // .deviceName[256]
  VKABI_PROPS_TIMESTAMP_PERIOD = 720, // .limits.timestampPeriod (float)
  VKABI_QUEUE_FAMILY_SIZE = 24,       // VkQueueFamilyProperties
  VKABI_QUEUE_FAMILY_VALID_BITS = 8,  // .timestampValidBits
  VKABI_EXTENSION_SIZE = 260,         // VkExtensionProperties
  VKABI_DEVICE_CI_EXT_COUNT = 48, // VkDeviceCreateInfo.enabledExtensionCount
  VKABI_DEVICE_CI_EXT_NAMES = 56, // .ppEnabledExtensionNames
  VKABI_DEVICE_CI_SIZE = 72,
  VKABI_CB_AI_POOL = 16,             // VkCommandBufferAllocateInfo.commandPool
  VKABI_CB_AI_COUNT = 28,            // .commandBufferCount
  VKABI_PIPELINE_CI_SIZE = 96,       // VkComputePipelineCreateInfo
  VKABI_PIPELINE_CI_ENTRY = 24 + 32, // .stage.pName
  VKABI_SUBMIT_SIZE = 72,            // VkSubmitInfo
  VKABI_SUBMIT_CB_COUNT = 40,        // .commandBufferCount
  VKABI_SUBMIT_CBS = 48,             // .pCommandBuffers
};

typedef struct vk_query_pool_ci {
  uint32_t type;
  const void *next;
  uint32_t flags, query_type, query_count, statistics;
} vk_query_pool_ci;

typedef struct vk_calibrated_ts_info {
  uint32_t type;
  const void *next;
  uint32_t domain;
} vk_calibrated_ts_info;

#endif // TPUPROF_RUNTIME_VULKAN_ABI_H
