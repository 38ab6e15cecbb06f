#===- tpuprofModel.cmake - tpuprof_add_model() for find_package(tpuprof) -===#
#
#   tpuprof_add_model(<name> <model.mlir> [SHARED] [NO_INSTRUMENT]
#                     [OPTIONS <tpuprof-compile options>...])
#
# Compiles the model at build time with tpuprof-compile into lib<name>.a
# (lib<name>.so with SHARED) and <name>.h, whose functions are
# <name>_<function> (docs/compile.md). <name> is a library target that
# brings the header's directory, the runtime (unless NO_INSTRUMENT) and libm:
#
#   tpuprof_add_model(mlp model/mlp.mlir OPTIONS --instrument-options=exclude=tosa.reshape)
#   target_link_libraries(app PRIVATE mlp)
#
#===----------------------------------------------------------------------===#

function(tpuprof_add_model name model)
  cmake_parse_arguments(PARSE_ARGV 2 arg "SHARED;NO_INSTRUMENT" "" "OPTIONS")
  if(NOT TPUPROF_COMPILE)
    message(FATAL_ERROR "tpuprof_add_model(${name}): this tpuprof has no "
                        "tpuprof-compile (it was built without MLIR)")
  endif()
  get_filename_component(model "${model}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tpuprof_models/${name}")
  file(MAKE_DIRECTORY "${dir}")
  if(arg_SHARED)
    set(artifact "${dir}/lib${name}.so")
  else()
    set(artifact "${dir}/lib${name}.a")
  endif()
  set(flags --prefix=${name} --header=${dir}/${name}.h)
  if(arg_NO_INSTRUMENT)
    list(APPEND flags --no-instrument)
  endif()
  add_custom_command(OUTPUT "${artifact}" "${dir}/${name}.h"
    COMMAND "${TPUPROF_COMPILE}" "${model}" -o "${artifact}" ${flags} ${arg_OPTIONS}
    DEPENDS "${model}" "${TPUPROF_COMPILE}"
    COMMENT "tpuprof-compile ${model}"
    VERBATIM)
  add_custom_target(${name}_tpuprof_compile DEPENDS "${artifact}" "${dir}/${name}.h")

  add_library(${name} INTERFACE)
  add_dependencies(${name} ${name}_tpuprof_compile)
  target_include_directories(${name} INTERFACE "${dir}")
  target_link_libraries(${name} INTERFACE "${artifact}" m)
  if(NOT arg_NO_INSTRUMENT)
    target_link_libraries(${name} INTERFACE tpuprof::rt)
  endif()
endfunction()
