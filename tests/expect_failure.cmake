# Runs COMMAND (a ;-list) and passes only if it exits non-zero and its output matches EXPECT.
# For checks that must be able to fail: a harness whose failure path never fires proves nothing.
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE output ERROR_VARIABLE output
  RESULT_VARIABLE exit_code)
message("${output}")
if(exit_code EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit, got 0")
endif()
if(NOT output MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected output matching '${EXPECT}'")
endif()
message(STATUS "failed as expected (exit ${exit_code})")
