#===- cmake/TpuprofInstall.cmake - what `cmake --install` installs --------===#
#
# Every install() rule of the project, in one place (docs/install.md):
#
#   bin/                          the tools
#   lib/                          libtpuprof_rt.so/.a, libTpuProfMLIRPasses.a,
#                                 TpuProfilePlugin.so, TpuProfileMLIRPlugin.so
#   lib/cmake/tpuprof/            find_package(tpuprof)
#   lib/pkgconfig/tpuprof.pc      pkg-config tpuprof
#   lib/python3/dist-packages/    the Python package `tpuprof`
#   include/tpuprof/              public headers
#   share/man/man1, man7          man pages (docs/man)
#   share/doc/tpuprof/            docs/*.md, README.md, examples/
#
# Nothing installed holds an absolute path to the prefix: the CMake package,
# the .pc file, the Python package and the tools' RPATH all find their
# neighbours relative to themselves, so a prefix can be moved or copied.
#
#===----------------------------------------------------------------------===#
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TPUPROF_INSTALL_CMAKEDIR "" CACHE STRING
    "Where find_package(tpuprof) files go, relative to the prefix (default: LIBDIR/cmake/tpuprof)")
set(TPUPROF_INSTALL_PYTHONDIR "lib/python3/dist-packages" CACHE STRING
    "Where the Python package goes, relative to the prefix")
set(tpuprof_cmake_dir "${TPUPROF_INSTALL_CMAKEDIR}")
if(NOT tpuprof_cmake_dir)
  # Follows CMAKE_INSTALL_LIBDIR, which changes with the prefix (/usr: multiarch).
  set(tpuprof_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/tpuprof")
endif()
foreach(dir TPUPROF_INSTALL_CMAKEDIR TPUPROF_INSTALL_PYTHONDIR CMAKE_INSTALL_LIBDIR)
  if(IS_ABSOLUTE "${${dir}}")
    message(FATAL_ERROR "${dir} must be relative to the prefix (relocatable install)")
  endif()
endforeach()

# `to` relative to `from`, both relative to the prefix.
function(tpuprof_relative_dir out from to)
  file(RELATIVE_PATH rel "/prefix/${from}" "/prefix/${to}")
  string(REGEX REPLACE "/+$" "" rel "${rel}")
  if(rel STREQUAL "")
    set(rel ".")
  endif()
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()

#===-- Tools ---------------------------------------------------------------===#

set(tpuprof_tools tpuprof-events tpuprof-report)
if(TPUPROF_ENABLE_MLIR)
  list(APPEND tpuprof_tools tpuprof-annotate tpuprof-compile tpuprof-opt tpuprof-run)
  if(TARGET tpuprof-import)
    list(APPEND tpuprof_tools tpuprof-import)
  endif()
endif()
tpuprof_relative_dir(bin_to_lib "${CMAKE_INSTALL_BINDIR}" "${CMAKE_INSTALL_LIBDIR}")
# $ORIGIN finds libtpuprof_rt.so next door wherever the prefix is; the
# link path keeps LLVM's own directory for libLLVM.
set_target_properties(${tpuprof_tools} PROPERTIES
  INSTALL_RPATH "\$ORIGIN/${bin_to_lib}"
  INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS ${tpuprof_tools} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

#===-- Runtime, MLIR pass library and plugins ------------------------------===#

set_target_properties(tpuprof_rt PROPERTIES EXPORT_NAME rt)
set_target_properties(tpuprof_rt_static PROPERTIES EXPORT_NAME rt_static)
install(TARGETS tpuprof_rt tpuprof_rt_static EXPORT tpuprofTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# The MPI interposition library (docs/mpi.md), where MPI was found: preloaded
# by path, it finds libtpuprof_rt.so next door.
if(TARGET tpuprof_mpi)
  set_target_properties(tpuprof_mpi PROPERTIES INSTALL_RPATH "\$ORIGIN")
  install(TARGETS tpuprof_mpi LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()
install(EXPORT tpuprofTargets NAMESPACE tpuprof::
  DESTINATION "${tpuprof_cmake_dir}")
install(FILES
  ${TPUPROF_SOURCE_DIR}/include/tpuprof/tpuprof.h
  ${TPUPROF_SOURCE_DIR}/include/tpuprof/tpuprof.hpp
  ${TPUPROF_SOURCE_DIR}/include/tpuprof/format.h
  ${TPUPROF_SOURCE_DIR}/include/tpuprof/model.h
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tpuprof")

if(TPUPROF_ENABLE_MLIR)
  # For compilers that embed the passes: the static library, its headers
  # (with the TableGen'd .inc files) and its MLIR link interface, which the
  # package resolves against MLIR's own CMake package.
  set_target_properties(TpuProfMLIRPasses PROPERTIES EXPORT_NAME mlir_passes)
  install(TARGETS TpuProfMLIRPasses EXPORT tpuprofMLIRTargets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  install(EXPORT tpuprofMLIRTargets NAMESPACE tpuprof::
    DESTINATION "${tpuprof_cmake_dir}")
  foreach(dir Dialect/Probe Transforms Conversion)
    get_filename_component(parent "${dir}" DIRECTORY)
    install(DIRECTORY
      ${TPUPROF_SOURCE_DIR}/include/tpuprof/${dir}
      ${TPUPROF_BINARY_DIR}/include/tpuprof/${dir}
      DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tpuprof/${parent}"
      FILES_MATCHING PATTERN "*.h" PATTERN "*.h.inc" PATTERN "CMakeFiles" EXCLUDE)
  endforeach()
  # tpuprof/passes/mlir/Passes.h: the include path of earlier versions.
  install(FILES ${TPUPROF_SOURCE_DIR}/include/tpuprof/InitAllPasses.h
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tpuprof")
  install(FILES ${TPUPROF_SOURCE_DIR}/include/tpuprof/passes/mlir/Passes.h
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tpuprof/passes/mlir")
  install(TARGETS TpuProfilePlugin TpuProfileMLIRPlugin
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()

#===-- find_package(tpuprof) and pkg-config --------------------------------===#

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/tpuprofConfig.cmake.in
  ${TPUPROF_BINARY_DIR}/cmake/tpuprofConfig.cmake
  INSTALL_DESTINATION "${tpuprof_cmake_dir}"
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR
            TPUPROF_INSTALL_PYTHONDIR)
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(
  ${TPUPROF_BINARY_DIR}/cmake/tpuprofConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${TPUPROF_BINARY_DIR}/cmake/tpuprofConfig.cmake
  ${TPUPROF_BINARY_DIR}/cmake/tpuprofConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/tpuprofModel.cmake
  DESTINATION "${tpuprof_cmake_dir}")

set(TPUPROF_PC_DIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
tpuprof_relative_dir(TPUPROF_PC_PREFIX "${TPUPROF_PC_DIR}" ".")
configure_file(${CMAKE_CURRENT_LIST_DIR}/tpuprof.pc.in
               ${TPUPROF_BINARY_DIR}/cmake/tpuprof.pc @ONLY)
install(FILES ${TPUPROF_BINARY_DIR}/cmake/tpuprof.pc DESTINATION "${TPUPROF_PC_DIR}")

#===-- Python, man pages, docs, examples -----------------------------------===#

# The package finds the tools and the runtime relative to itself: the
# directories from its own install directory go into _layout.py.
set(python_pkg_dir "${TPUPROF_INSTALL_PYTHONDIR}/tpuprof")
tpuprof_relative_dir(TPUPROF_PY_BINDIR "${python_pkg_dir}" "${CMAKE_INSTALL_BINDIR}")
tpuprof_relative_dir(TPUPROF_PY_LIBDIR "${python_pkg_dir}" "${CMAKE_INSTALL_LIBDIR}")
configure_file(${TPUPROF_SOURCE_DIR}/python/tpuprof/_layout.py.in
               ${TPUPROF_BINARY_DIR}/python/tpuprof/_layout.py @ONLY)
install(DIRECTORY ${TPUPROF_SOURCE_DIR}/python/tpuprof
  DESTINATION "${TPUPROF_INSTALL_PYTHONDIR}"
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(FILES ${TPUPROF_BINARY_DIR}/python/tpuprof/_layout.py
  DESTINATION "${python_pkg_dir}")
# The JSON export's keys, which the package reads from their one definition.
install(FILES ${TPUPROF_SOURCE_DIR}/include/tpuprof/report/ExportKeys.def
  DESTINATION "${python_pkg_dir}")

install(DIRECTORY ${TPUPROF_SOURCE_DIR}/docs/man/
  DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" FILES_MATCHING PATTERN "*.1")
install(DIRECTORY ${TPUPROF_SOURCE_DIR}/docs/man/
  DESTINATION "${CMAKE_INSTALL_MANDIR}/man7" FILES_MATCHING PATTERN "*.7")
install(DIRECTORY ${TPUPROF_SOURCE_DIR}/docs/
  DESTINATION "${CMAKE_INSTALL_DOCDIR}" FILES_MATCHING PATTERN "*.md"
  PATTERN "man" EXCLUDE)
install(FILES ${TPUPROF_SOURCE_DIR}/README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY ${TPUPROF_SOURCE_DIR}/examples/
  DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples")
