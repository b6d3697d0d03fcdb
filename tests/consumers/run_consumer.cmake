# cmake -P script: builds tests/consumers/project one way (MODE) and runs it.
#   package     install BUILD_DIR into a scratch prefix, find_package(einops CONFIG) against it
#   pkgconfig   the same install, then one compiler command with `pkg-config --cflags --libs einops`
#   subdirectory, fetchcontent   the project's sources (SOURCE_TREE) built inside the consumer
# Arguments: MODE, BUILD_DIR, SOURCE_TREE, PROJECT_DIR, WORK_DIR, GENERATOR, COMPILER,
# CONSUMER_FLAGS (e.g. sanitizers, ';'-separated), SUBPROJECT_ARGS (cache settings for the
# sub-build, ';'-separated), EXPECTED_VERSION.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

list(JOIN CONSUMER_FLAGS " " flags)
set(consumer ${WORK_DIR}/build/consumer)
if(MODE STREQUAL "package" OR MODE STREQUAL "pkgconfig")
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
endif()
if(MODE STREQUAL "pkgconfig")
  find_program(PKG_CONFIG pkg-config REQUIRED)
  file(GLOB pc_dirs LIST_DIRECTORIES true ${WORK_DIR}/prefix/lib*/pkgconfig ${WORK_DIR}/prefix/lib/*/pkgconfig)
  list(JOIN pc_dirs ":" pc_path)
  set(ENV{PKG_CONFIG_PATH} "${pc_path}")
  run(${PKG_CONFIG} --cflags --libs einops)
  string(STRIP "${last_output}" pc_flags)
  separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
  message(STATUS "pkg-config --cflags --libs einops: ${pc_flags}")
  file(MAKE_DIRECTORY ${WORK_DIR}/build)
  # The language standard is the consumer's own choice (C++20 or later); every other flag comes
  # from pkg-config.
  run(${COMPILER} -std=c++20 ${CONSUMER_FLAGS} ${PROJECT_DIR}/main.cpp -o ${consumer} ${pc_flags})
else()
  set(mode_args -DEINOPS_CONSUME=${MODE})
  if(MODE STREQUAL "package")
    list(APPEND mode_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  else()
    list(APPEND mode_args -DEINOPS_SOURCE_DIR=${SOURCE_TREE} ${SUBPROJECT_ARGS})
  endif()
  run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${COMPILER}
      -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}" ${mode_args})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target consumer)
  # Inside another project, einops adds no tests and no install rules of its own (EINOPS_INSTALL
  # and EINOPS_BUILD_TESTS default to ON only when einops is the top-level project).
  if(NOT MODE STREQUAL "package")
    file(GLOB_RECURSE own_tests ${WORK_DIR}/build/*/CTestTestfile.cmake)
    if(own_tests)
      message(FATAL_ERROR "the ${MODE} consumer configured einops' own tests: ${own_tests}")
    endif()
    run(${CMAKE_COMMAND} --install ${WORK_DIR}/build --prefix ${WORK_DIR}/consumer-prefix)
    if(EXISTS ${WORK_DIR}/consumer-prefix/include/einops)
      message(FATAL_ERROR "the ${MODE} consumer installed einops' headers: EINOPS_INSTALL should be OFF")
    endif()
  endif()
endif()
run(${consumer})
if(NOT last_output MATCHES "consumer ${EXPECTED_VERSION}: \\(3, 2\\) 0 3 1 4 2 5")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()
message(STATUS "${last_output}")
