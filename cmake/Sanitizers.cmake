# Sanitizer builds of the host code (the asan and tsan presets; ci/sanitize runs them).
#
# HANDOFF_SANITIZE names the sanitizers for every C++ file and every link: "address,undefined"
# (ASan with UBSan, which stops at its first report) or "thread" (TSan). CUDA files
# (kernels/src/*.cu) are compiled as usual: device code cannot be instrumented this way, and the CPU
# tests run none of it. HANDOFF_GPU_TESTS=OFF leaves out the test programs that need a GPU, which
# these builds would only compile to skip.
set(HANDOFF_SANITIZE "" CACHE STRING
  "Sanitizers for the host code: empty (none), address,undefined or thread")
set_property(CACHE HANDOFF_SANITIZE PROPERTY STRINGS "" "address,undefined" "thread")
option(HANDOFF_GPU_TESTS "Build the test programs that need a GPU (labels gpu and multigpu)" ON)

if(HANDOFF_SANITIZE STREQUAL "address,undefined")
  set(handoff_sanitizer_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  # GCC 12 with -fsanitize=address warns that std::regex's std::function members "may be used
  # uninitialized" (https://gcc.gnu.org/bugzilla/show_bug.cgi?id=105616), in libstdc++'s headers, so
  # this warning alone is off here; the ci build still treats it as an error.
  target_compile_options(handoff_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  # GCC links ASan and UBSan as two shared runtimes, which both export the sanitizer interface
  # (__sanitizer_set_report_path among it); so linked, UBSan ignores UBSAN_OPTIONS=log_path and
  # writes to stderr (seen with GCC 12.2). Linked into the program it honours log_path, and
  # ci/sanitize finds its reports, a worker's too, in files as it finds ASan's.
  set(handoff_sanitizer_link_flags -static-libubsan)
elseif(HANDOFF_SANITIZE STREQUAL "thread")
  # GCC 12's TSan misses locks taken with pthread_mutex_clocklock; transport/CMakeLists.txt and
  # transport/src/tsan_clocklock.cpp handle that.
  set(handoff_sanitizer_flags -fsanitize=thread)
elseif(NOT HANDOFF_SANITIZE STREQUAL "")
  message(FATAL_ERROR "HANDOFF_SANITIZE must be empty, address,undefined or thread, not "
                      "'${HANDOFF_SANITIZE}'")
endif()

if(HANDOFF_SANITIZE)
  # -g1: line tables only, so that reports name file and line at little cost in build time.
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:${handoff_sanitizer_flags};-fno-omit-frame-pointer;-g1>")
  add_link_options(
    "$<$<LINK_LANGUAGE:CXX>:${handoff_sanitizer_flags};${handoff_sanitizer_link_flags}>")
  # The test presets send every report, a worker process's too, to a file here (ci/sanitize).
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/sanitizer-reports)
  message(STATUS "handoff: host code built with -fsanitize=${HANDOFF_SANITIZE}")
endif()
