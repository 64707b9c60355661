# postproc_split: the split and the sums on their own, the whole orchestration with the host
# stand-in (CI), and every variant on the device.
handoff_add_gtest(handoff_postproc_split_unit_tests cpu
  SOURCES postproc_split/split_plan_test.cpp
  LIBRARIES handoff_patterns)
handoff_add_worker_gtest(handoff_postproc_split_host_tests cpu
  SOURCES postproc_split/split_host_test.cpp)
handoff_add_worker_gtest(handoff_postproc_split_gpu_tests gpu
  SOURCES postproc_split/split_gpu_test.cpp)
