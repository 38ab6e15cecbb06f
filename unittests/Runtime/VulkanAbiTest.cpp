//===- unittests/Runtime/VulkanAbiTest.cpp - The Vulkan backend's ABI -----===//
//
// runtime/vulkan_abi.h spells the Vulkan constants, struct offsets and
// structs the Vulkan backend uses so that the runtime builds without Vulkan
// headers; here each one is compared with vulkan_core.h (libvulkan-dev,
// installed by scripts/install-deps.sh). The backend itself runs on
// lavapipe in test/device.
//
//===----------------------------------------------------------------------===//

#include "vulkan_abi.h"

#include <gtest/gtest.h>

#include <cstddef>

#if __has_include(<vulkan/vulkan_core.h>)
#include <vulkan/vulkan_core.h>

// As numbers: the two sides are different enum types (GCC's -Wenum-compare).
#define SAME(ours, theirs)                                                     \
  static_assert((long long)(ours) == (long long)(theirs), #ours)
#define SAME_STRUCT(ours, theirs)                                              \
  static_assert(sizeof(ours) == sizeof(theirs), #ours)

SAME(VKABI_SUCCESS, VK_SUCCESS);
SAME(VKABI_NOT_READY, VK_NOT_READY);
SAME(VKABI_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
     VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
SAME(VKABI_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
     VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT);
SAME(VKABI_QUERY_TYPE_TIMESTAMP, VK_QUERY_TYPE_TIMESTAMP);
SAME(VKABI_QUERY_RESULT_64_BIT, VK_QUERY_RESULT_64_BIT);
SAME(VKABI_QUERY_RESULT_WITH_AVAILABILITY_BIT,
     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
SAME(VKABI_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
SAME(VKABI_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
     VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
SAME(VKABI_PIPELINE_BIND_POINT_COMPUTE, VK_PIPELINE_BIND_POINT_COMPUTE);
SAME(VKABI_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_DEVICE_EXT);
SAME(VKABI_TIME_DOMAIN_CLOCK_MONOTONIC_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
SAME(VKABI_MAX_EXTENSION_NAME_SIZE, VK_MAX_EXTENSION_NAME_SIZE);

SAME(VKABI_PROPS_SIZE, sizeof(VkPhysicalDeviceProperties));
SAME(VKABI_PROPS_DEVICE_NAME, offsetof(VkPhysicalDeviceProperties, deviceName));
SAME(VKABI_PROPS_TIMESTAMP_PERIOD,
     offsetof(VkPhysicalDeviceProperties, limits) +
         offsetof(VkPhysicalDeviceLimits, timestampPeriod));
SAME(VKABI_QUEUE_FAMILY_SIZE, sizeof(VkQueueFamilyProperties));
SAME(VKABI_QUEUE_FAMILY_VALID_BITS,
     offsetof(VkQueueFamilyProperties, timestampValidBits));
SAME(VKABI_EXTENSION_SIZE, sizeof(VkExtensionProperties));
SAME(VKABI_DEVICE_CI_EXT_COUNT,
     offsetof(VkDeviceCreateInfo, enabledExtensionCount));
SAME(VKABI_DEVICE_CI_EXT_NAMES,
     offsetof(VkDeviceCreateInfo, ppEnabledExtensionNames));
SAME(VKABI_DEVICE_CI_SIZE, sizeof(VkDeviceCreateInfo));
SAME(VKABI_CB_AI_POOL, offsetof(VkCommandBufferAllocateInfo, commandPool));
SAME(VKABI_CB_AI_COUNT,
     offsetof(VkCommandBufferAllocateInfo, commandBufferCount));
SAME(VKABI_PIPELINE_CI_SIZE, sizeof(VkComputePipelineCreateInfo));
SAME(VKABI_PIPELINE_CI_ENTRY,
     offsetof(VkComputePipelineCreateInfo, stage) +
         offsetof(VkPipelineShaderStageCreateInfo, pName));
SAME(VKABI_SUBMIT_SIZE, sizeof(VkSubmitInfo));
SAME(VKABI_SUBMIT_CB_COUNT, offsetof(VkSubmitInfo, commandBufferCount));
SAME(VKABI_SUBMIT_CBS, offsetof(VkSubmitInfo, pCommandBuffers));

SAME_STRUCT(vk_query_pool_ci, VkQueryPoolCreateInfo);
SAME(offsetof(vk_query_pool_ci, query_type),
     offsetof(VkQueryPoolCreateInfo, queryType));
SAME(offsetof(vk_query_pool_ci, query_count),
     offsetof(VkQueryPoolCreateInfo, queryCount));
SAME_STRUCT(vk_calibrated_ts_info, VkCalibratedTimestampInfoEXT);
SAME(offsetof(vk_calibrated_ts_info, domain),
     offsetof(VkCalibratedTimestampInfoEXT, timeDomain));

TEST(VulkanAbi, MatchesTheHeaders) {
  // The comparisons are static_asserts: compiling this file is the test.
  SUCCEED();
}
#else
TEST(VulkanAbi, MatchesTheHeaders) {
  GTEST_SKIP() << "no vulkan/vulkan_core.h (libvulkan-dev): the Vulkan ABI "
                  "is not checked";
}
#endif
