/*===- runtime/cupti_check/builtin_types.h - Empty ----------------*- C -*-===*\
|*                                                                            *|
|* CUPTI's cupti_callbacks.h includes CUDA's builtin_types.h; nothing the     *|
|* layout check reads needs it (see cuda.h here).                             *|
\*===----------------------------------------------------------------------===*/
