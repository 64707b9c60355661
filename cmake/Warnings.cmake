# One interface target carries the warning flags, so every handoff target opts in by linking it.
add_library(handoff_warnings INTERFACE)
set(handoff_cxx_warnings -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
target_compile_options(handoff_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:${handoff_cxx_warnings}>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
if(HANDOFF_WARNINGS_AS_ERRORS)
  target_compile_options(handoff_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
