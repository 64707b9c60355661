target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/batch_session.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/item_batch.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/item_lanes.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/protocol.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/result_feeder.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/seed_producer.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/seed_variant.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/seed_worker.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/session.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/slot_producer.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/slot_worker.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/slots_variant.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/streamed_variant.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/variants.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/worker_main.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/queued_worker/worker_process.cpp)
