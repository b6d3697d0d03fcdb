# Checks that the SIMD kernels in the built library still hold their L2 prefetches (x86
# `prefetcht1`): the outer reductions' next-pass prefetch and the transposes' next-block
# prefetch. A compiler once dropped every one of them from the reduce kernels without a warning
# or a wrong result (kernels/prefetch.hpp); only the speed showed it.
#   cmake -DOBJDUMP=objdump "-DOBJECTS=a.o|b.o|..." -P check_prefetches.cmake
string(REPLACE "|" ";" objects "${OBJECTS}")
foreach(kernel reduce_simd copy_simd)
  set(object "")
  foreach(candidate IN LISTS objects)
    if(candidate MATCHES "/${kernel}\\.cpp\\.o(bj)?$")
      set(object "${candidate}")
    endif()
  endforeach()
  if(object STREQUAL "")
    message(FATAL_ERROR "no ${kernel} object among the library's objects")
  endif()
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${object}" OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${object} failed (${status})")
  endif()
  string(REGEX MATCHALL "prefetcht1" found "${listing}")
  list(LENGTH found count)
  if(count EQUAL 0)
    message(FATAL_ERROR "${kernel}: no prefetcht1 in ${object}: the kernels' L2 prefetches were compiled away")
  endif()
  message(STATUS "${kernel}: ${count} L2 prefetches")
endforeach()
