# cmake -P script: compiles SOURCE. With EXPECTED set, the compilation must fail and the
# compiler's output must contain EXPECTED (einops' reason in words); without it, it must succeed.
execute_process(COMMAND ${COMPILER} ${FLAGS} ${SOURCE}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
if(DEFINED EXPECTED)
  if(result EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled, but should fail with: ${EXPECTED}")
  endif()
  string(FIND "${output}" "${EXPECTED}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${SOURCE} failed without the expected reason '${EXPECTED}':\n${output}")
  endif()
  message(STATUS "fails as expected: ${EXPECTED}")
else()
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${SOURCE} should compile:\n${output}")
  endif()
endif()
