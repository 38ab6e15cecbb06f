/*===- runtime/cupti_check/cuda.h - Types CUPTI names -------------*- C -*-===*\
|*                                                                            *|
|* CUPTI's headers include <cuda.h> (CUDA's driver API header, in a package   *|
|* far larger than CUPTI's) for a few types they name. cupti_layout_check.c   *|
|* needs only their sizes and kinds, spelled here as cuda.h declares them:    *|
|* handles are pointers, CUdevice an int, the enums int-sized.                *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_CUPTI_CHECK_CUDA_H
#define TPUPROF_CUPTI_CHECK_CUDA_H

typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUfunc_st *CUfunction;
typedef struct CUmod_st *CUmodule;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;
typedef unsigned long long CUdeviceptr;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef enum CUgraphNodeType_enum {
  CU_GRAPH_NODE_TYPE_KERNEL = 0
} CUgraphNodeType;
typedef enum CUdevice_attribute_enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1
} CUdevice_attribute;
typedef struct CUuuid_st {
  char bytes[16];
} CUuuid;
typedef struct CUaccessPolicyWindow_st CUaccessPolicyWindow;

#endif // TPUPROF_CUPTI_CHECK_CUDA_H
