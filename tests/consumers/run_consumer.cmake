# cmake -P script: builds a consumer project one way (MODE) and runs it.
#   package       install BUILD_DIR into a scratch prefix, find_package(einops CONFIG) against it
#   pkgconfig     the same install, then one compiler command with `pkg-config --cflags --libs einops`
#   component     the same install, find_package(einops COMPONENTS <COMPONENT>), einops::<COMPONENT>
#   subdirectory, fetchcontent   the project's sources (SOURCE_TREE) built inside the consumer,
#                 which sets no build type: einops must leave the parent's build type, its flags
#                 and its cache as they were, and look up no framework the parent did not ask for
# Arguments: MODE, BUILD_DIR, SOURCE_TREE, PROJECT_DIR, WORK_DIR, GENERATOR, COMPILER,
# CONSUMER_FLAGS (e.g. sanitizers, ';'-separated), SUBPROJECT_ARGS (cache settings for the
# sub-build, ';'-separated), COMPONENT (component mode), ADAPTER (an adapter target the
# sub-build's consumer links, e.g. eigen), SHARED (the sub-build makes a shared libeinops: its
# exports are checked by check_exports.cmake with NM), EXPECTED_VERSION, EXPECT_CAUGHT (the
# consumer must report the EinopsError it caught).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# The cache entries of the frameworks and tools that einops can look up; a parent that asked for
# none of them must find none in its cache.
set(framework_entries Torch_DIR Caffe2_DIR gflags_DIR glog_DIR OpenCV_DIR Eigen3_DIR xtensor_DIR xtl_DIR dlpack_DIR
                      benchmark_DIR CLI11_DIR GTest_DIR nlohmann_json_DIR PNG_LIBRARY_RELEASE)
set(asked_entries "")
if(ADAPTER STREQUAL "eigen")
  set(asked_entries Eigen3_DIR)
endif()

list(JOIN CONSUMER_FLAGS " " flags)
set(consumer ${WORK_DIR}/build/consumer)
set(installed_modes package pkgconfig component)
if(MODE IN_LIST installed_modes)
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
elseif(MODE IN_LIST installed_modes)
  set(mode_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
  if(MODE STREQUAL "component")
    list(APPEND mode_args -DEINOPS_COMPONENT=${COMPONENT})
  else()
    list(APPEND mode_args -DEINOPS_CONSUME=package)
  endif()
  run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${COMPILER}
      "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}" ${mode_args})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target consumer)
  # Only the framework of the component asked for is looked up.
  if(MODE STREQUAL "component")
    file(STRINGS ${WORK_DIR}/build/CMakeCache.txt cache)
    set(component_entries_torch Torch_DIR Caffe2_DIR)
    set(component_entries_opencv OpenCV_DIR)
    set(component_entries_eigen Eigen3_DIR)
    set(component_entries_xtensor xtensor_DIR xtl_DIR)
    set(component_entries_dlpack dlpack_DIR)
    foreach(other torch opencv eigen xtensor dlpack)
      if(NOT other STREQUAL COMPONENT)
        foreach(entry ${component_entries_${other}})
          if(";${cache};" MATCHES ";${entry}:")
            message(FATAL_ERROR "the ${COMPONENT} component looked up ${other} (${entry} in the consumer's cache)")
          endif()
        endforeach()
      endif()
    endforeach()
  endif()
else()
  # A parent that sets no build type (an empty CMAKE_BUILD_TYPE), with its own choices in
  # SUBPROJECT_ARGS, and compile_commands.json to see its target's flags.
  run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${COMPILER}
      "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
      -DEINOPS_CONSUME=${MODE} -DEINOPS_SOURCE_DIR=${SOURCE_TREE} -DEINOPS_ADAPTER=${ADAPTER} ${SUBPROJECT_ARGS})
  file(STRINGS ${WORK_DIR}/build/CMakeCache.txt cache)
  if(NOT "CMAKE_BUILD_TYPE:STRING=" IN_LIST cache)
    list(FILTER cache INCLUDE REGEX "^CMAKE_BUILD_TYPE:")
    message(FATAL_ERROR "the ${MODE} consumer's build type was changed by einops: ${cache}")
  endif()
  foreach(entry ${framework_entries})
    if(NOT entry IN_LIST asked_entries AND ";${cache};" MATCHES ";${entry}:")
      message(FATAL_ERROR "the ${MODE} consumer asked for no such package, but einops looked up ${entry}")
    endif()
  endforeach()
  foreach(entry ${asked_entries})
    if(NOT ";${cache};" MATCHES ";${entry}:")
      message(FATAL_ERROR "the ${MODE} consumer asked for the ${ADAPTER} adapter, but ${entry} is not in its cache")
    endif()
  endforeach()
  # The consumer's own translation unit compiles with the flags it chose (none): no optimisation
  # level and no NDEBUG from einops.
  file(READ ${WORK_DIR}/build/compile_commands.json commands)
  string(REGEX MATCH "\"command\": \"[^\"]*main[_a-z]*\\.cpp\"" consumer_command "${commands}")
  if(NOT consumer_command)
    message(FATAL_ERROR "the consumer's compile command is not in compile_commands.json")
  endif()
  if(consumer_command MATCHES " -O[0-9gs]| -DNDEBUG")
    message(FATAL_ERROR "einops changed the ${MODE} consumer's flags: ${consumer_command}")
  endif()
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target consumer)
  # Inside another project, einops adds no tests and no install rules of its own (EINOPS_INSTALL
  # and EINOPS_BUILD_TESTS default to ON only when einops is the top-level project).
  file(GLOB_RECURSE own_tests ${WORK_DIR}/build/*/CTestTestfile.cmake)
  if(own_tests)
    message(FATAL_ERROR "the ${MODE} consumer configured einops' own tests: ${own_tests}")
  endif()
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/build --prefix ${WORK_DIR}/consumer-prefix)
  if(EXISTS ${WORK_DIR}/consumer-prefix/include/einops)
    message(FATAL_ERROR "the ${MODE} consumer installed einops' headers: EINOPS_INSTALL should be OFF")
  endif()
  if(SHARED)
    run(${CMAKE_COMMAND} -DLIBRARY_DIR=${WORK_DIR}/build/einops -DNM=${NM} -DHEADERS=${SOURCE_TREE}/include/einops
        -DVERSION=${EXPECTED_VERSION} -P ${CMAKE_CURRENT_LIST_DIR}/check_exports.cmake)
    message(STATUS "${last_output}")
  endif()
endif()
run(${consumer})
set(expected "consumer ${EXPECTED_VERSION}: \\(3, 2\\) 0 3 1 4 2 5")
if(EXPECT_CAUGHT)
  string(APPEND expected "; EinopsError caught")
endif()
if(NOT last_output MATCHES "${expected}")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()
message(STATUS "${last_output}")
