# Runs RUNNER on CORPUS (with BACKEND, builtin by default) and requires a non-zero exit status
# and the last line EXPECTED_SUMMARY.
if(NOT DEFINED BACKEND)
  set(BACKEND builtin)
endif()
execute_process(COMMAND "${RUNNER}" --backend "${BACKEND}" --verbose --corpus "${CORPUS}"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message("${output}${errors}")
if(NOT status MATCHES "^[0-9]+$" OR status EQUAL 0 OR status EQUAL 2)
  message(FATAL_ERROR "expected the runner to report failures (exit 1), got '${status}'")
endif()
string(STRIP "${output}" output)
string(REGEX MATCH "[^\n]*$" last_line "${output}")
if(NOT last_line STREQUAL EXPECTED_SUMMARY)
  message(FATAL_ERROR "expected the summary '${EXPECTED_SUMMARY}', got '${last_line}'")
endif()
