# Runs handoff_bench --handoff-smoke over one filter and checks the JSON it wrote: it exited 0,
# every benchmark handoff_bench lists for that filter ran (the list comes from the variant tables:
# handoff_bench refuses a smoke run in which a variant has no row), none errored, and every one
# carries a `wrong` counter equal to 0.
# With too few GPUs it prints HANDOFF-SKIPPED (ctest's skip marker) with the reason, unless
# HANDOFF_REQUIRE_GPU asks for at least NEED_GPUS, in which case it fails. LAUNCHER, when given, is
# the command the benchmark runs under (mpirun and its flags), and LISTER the handoff_bench that
# counts the GPUs, since a launched program cannot answer outside its launcher.
cmake_minimum_required(VERSION 3.25)

if(NOT LISTER)
  set(LISTER ${BENCH})
endif()
execute_process(COMMAND ${LISTER} --handoff-list-families
  OUTPUT_VARIABLE listing RESULT_VARIABLE listed)
if(NOT listed EQUAL 0)
  message(FATAL_ERROR "handoff_bench --handoff-list-families failed (${listed}):\n${listing}")
endif()
string(REGEX MATCH "gpus: ([0-9]+)" _ "${listing}")
set(gpus ${CMAKE_MATCH_1})
string(REGEX MATCH "gpu_reason: ([^\n]*)" _ "${listing}")
set(gpu_reason "${CMAKE_MATCH_1}")

set(required "$ENV{HANDOFF_REQUIRE_GPU}")
if(required STREQUAL "")
  set(required 0)
elseif(NOT required MATCHES "^[0-9]+$")
  message(FATAL_ERROR "HANDOFF_REQUIRE_GPU must be a number of GPUs, got '${required}'")
endif()

if(gpus LESS NEED_GPUS)
  set(shortfall "needs ${NEED_GPUS} GPU(s), found ${gpus}")
  if(gpu_reason)
    string(APPEND shortfall ": ${gpu_reason}")
  endif()
  if(required GREATER_EQUAL NEED_GPUS)
    message(FATAL_ERROR "HANDOFF_REQUIRE_GPU=${required} but ${shortfall}")
  endif()
  message("HANDOFF-SKIPPED: ${shortfall}")
  return()
endif()

set(list_command ${BENCH} --handoff-smoke "--benchmark_filter=${FILTER}" --benchmark_list_tests=true)
if(LAUNCHER)
  # Open MPI refuses to start ranks as root unless asked twice; the GPU machines run as root.
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
endif()
execute_process(COMMAND ${LAUNCHER} ${list_command}
  OUTPUT_VARIABLE listed_rows RESULT_VARIABLE list_exit_code)
if(NOT list_exit_code EQUAL 0)
  message(FATAL_ERROR "handoff_bench could not list its smoke rows (${list_exit_code}):\n${listed_rows}")
endif()
string(REGEX REPLACE "\n$" "" listed_rows "${listed_rows}")
string(REPLACE "\n" ";" expected_rows "${listed_rows}")
list(FILTER expected_rows INCLUDE REGEX "/manual_time$")
list(REMOVE_DUPLICATES expected_rows)  # every rank of a launched program lists them
if(NOT expected_rows)
  message(FATAL_ERROR "handoff_bench lists no smoke row for filter ${FILTER}")
endif()

file(REMOVE ${OUTPUT})
execute_process(
  COMMAND ${LAUNCHER} ${BENCH} --handoff-smoke "--benchmark_filter=${FILTER}"
          --benchmark_out=${OUTPUT} --benchmark_out_format=json
  RESULT_VARIABLE exit_code)
if(NOT exit_code EQUAL 0)
  message(FATAL_ERROR "handoff_bench exited with ${exit_code}")
endif()

file(READ ${OUTPUT} results)
string(JSON count LENGTH "${results}" benchmarks)
if(count EQUAL 0)
  message(FATAL_ERROR "no benchmark ran for filter ${FILTER}")
endif()
set(names "")
math(EXPR last "${count} - 1")
foreach(index RANGE ${last})
  string(JSON name GET "${results}" benchmarks ${index} name)
  string(JSON error ERROR_VARIABLE no_error GET "${results}" benchmarks ${index} error_message)
  if(NOT no_error)
    message(FATAL_ERROR "${name} failed: ${error}")
  endif()
  string(JSON wrong ERROR_VARIABLE no_wrong GET "${results}" benchmarks ${index} wrong)
  if(no_wrong)
    message(FATAL_ERROR "${name} has no `wrong` counter: every benchmark must verify what it timed")
  endif()
  if(NOT wrong MATCHES "^-?0(\\.0*)?([eE][+-]?[0-9]+)?$")
    message(FATAL_ERROR "${name}: wrong = ${wrong}")
  endif()
  list(APPEND names "${name}")
  message(STATUS "verified ${name}: wrong = ${wrong}")
endforeach()

foreach(row IN LISTS expected_rows)
  if(NOT row IN_LIST names)
    message(FATAL_ERROR "${row} is listed for the smoke run but did not run")
  endif()
endforeach()
message(STATUS "bench_smoke: ${count} benchmarks verified")
