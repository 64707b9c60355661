target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/batched_reduction.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/cpu_variants.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/datasets.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/device_datasets.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/device_floor.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/few_workers_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/graph_reductions.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/per_dataset_work.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/pool_session.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/seed_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/seed_task.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/stage_marks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/streamed_reductions.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/task_case.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/task_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/task_worker.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/independent_tasks/variants.cpp)
