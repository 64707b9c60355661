target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/in_process_rows.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/independent_tasks_bench.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/process_rows.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/stage_marks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/task_floors.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/task_inputs.cpp)
