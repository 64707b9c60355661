# The Python package's native module (python/CMakeLists.txt) needs Python's headers and nanobind.
# HANDOFF_PYTHON: AUTO builds it where both are found and says why not elsewhere (a GPU machine
# that cannot install packages); ON makes their absence an error; OFF never builds it (the
# sanitizer builds: an instrumented module cannot be loaded by a plain interpreter). The bench
# preset builds it beside handoff_bench, so that the main job compiles the libraries once.
set(HANDOFF_PYTHON AUTO CACHE STRING "Build the Python package's native module: AUTO, ON or OFF")
set_property(CACHE HANDOFF_PYTHON PROPERTY STRINGS AUTO ON OFF)
set(HANDOFF_PYTHON_BUILT OFF)
if(NOT HANDOFF_PYTHON STREQUAL "OFF")
  # The project's environment first (ci/setup installs nanobind there), so that the module is
  # built for the interpreter that runs it.
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS ${PROJECT_SOURCE_DIR}/.venv/bin/python)
    set(Python_EXECUTABLE ${PROJECT_SOURCE_DIR}/.venv/bin/python)
  endif()
  find_package(Python 3.11 COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    execute_process(COMMAND ${Python_EXECUTABLE} -m nanobind --cmake_dir
      OUTPUT_VARIABLE handoff_nanobind_dir OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE handoff_nanobind_status ERROR_QUIET)
  endif()
  if(Python_FOUND AND handoff_nanobind_status EQUAL 0)
    find_package(nanobind CONFIG REQUIRED PATHS ${handoff_nanobind_dir} NO_DEFAULT_PATH)
    # The module is a shared object that links the harness and the libraries below it. Without
    # semantic interposition, position-independent code inlines and calls within the program as
    # the position-independent executable's code does, so handoff_bench, built beside the module,
    # runs the code it would run without it.
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-semantic-interposition>)
    set(HANDOFF_PYTHON_BUILT ON)
    message(STATUS "handoff: Python module _handoff_native: built for ${Python_EXECUTABLE}")
  elseif(HANDOFF_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "handoff: HANDOFF_PYTHON=ON, but no Python 3.11+ with its headers and "
      "nanobind was found (ci/setup installs nanobind into .venv)")
  else()
    message(STATUS "handoff: Python module _handoff_native: not built (needs Python 3.11+ "
      "with its headers and nanobind; ci/setup installs nanobind into .venv)")
  endif()
endif()
