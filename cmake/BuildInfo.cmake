# The environment manifest records which source and which build produced a result.
execute_process(
  COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE HANDOFF_GIT_COMMIT
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(
  COMMAND git status --porcelain
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE handoff_git_dirty
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
# A copy of the tree without .git (the lent GPU machine gets one) carries the commit in a file
# that ci/carry-deps writes.
if(NOT HANDOFF_GIT_COMMIT AND EXISTS ${PROJECT_SOURCE_DIR}/.deps/git-commit)
  file(STRINGS ${PROJECT_SOURCE_DIR}/.deps/git-commit HANDOFF_GIT_COMMIT LIMIT_COUNT 1)
  set(handoff_git_dirty "")
endif()
# ci/gpu passes the commit that ci/carry-deps recorded: the lent machine's copy may sit inside some
# other checkout, whose HEAD would be reported instead.
if(HANDOFF_GIT_COMMIT_OVERRIDE)
  set(HANDOFF_GIT_COMMIT "${HANDOFF_GIT_COMMIT_OVERRIDE}")
  set(handoff_git_dirty "")
endif()
if(NOT HANDOFF_GIT_COMMIT)
  set(HANDOFF_GIT_COMMIT "unknown")
elseif(handoff_git_dirty)
  string(APPEND HANDOFF_GIT_COMMIT "-dirty")
endif()
set(HANDOFF_COMPILER "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}; nvcc ${CMAKE_CUDA_COMPILER_VERSION}")
