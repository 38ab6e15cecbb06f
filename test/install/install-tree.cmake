# cmake -DBUILD_DIR=... -DSTAGE=... -DTREE=... -P install-tree.cmake
# Installs BUILD_DIR into STAGE, then renames STAGE to TREE: tests run on a
# prefix that is not where it was installed (relocatable).
file(REMOVE_RECURSE "${STAGE}" "${TREE}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${STAGE}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${STAGE} failed (${rc})")
endif()
file(RENAME "${STAGE}" "${TREE}")
