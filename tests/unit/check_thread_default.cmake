# Runs print_num_threads with EINOPS_NUM_THREADS unset and then set to each value the variable's
# rule ignores (einops/threads.hpp): every run must print the same positive count.
#   cmake -DPROGRAM=path/to/print_num_threads -P check_thread_default.cmake
set(ignored_values "abc" "" "0" "-3" "+3" " 3" "3x" "2.5" "99999999999999999999999")

execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=EINOPS_NUM_THREADS "${PROGRAM}"
                OUTPUT_VARIABLE default_count OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT default_count MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "print_num_threads without EINOPS_NUM_THREADS: '${default_count}' (exit ${status})")
endif()
foreach(value IN LISTS ignored_values)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "EINOPS_NUM_THREADS=${value}" "${PROGRAM}"
                  OUTPUT_VARIABLE count OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT count STREQUAL default_count)
    message(FATAL_ERROR "EINOPS_NUM_THREADS='${value}' gave '${count}' threads (exit ${status}), "
                        "not the default ${default_count}: the variable must be ignored")
  endif()
endforeach()
message(STATUS "default ${default_count} threads; ignored values leave it")
