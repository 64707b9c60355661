# tensor_transfer conformance over its variant table, one program per target: the host rows in CI,
# the device rows (all six variants) on a GPU. Both start themselves again as the receiver. The host
# program also forges frames at the host-path variants' receivers (frame_stream_test.cpp), and
# checks the receiver's checksum on a thread of its own (frame_reader_hashing_test.cpp).
handoff_add_worker_gtest(handoff_tensor_transfer_host_tests cpu
  SOURCES tensor_transfer/conformance_test.cpp tensor_transfer/host_rows.cpp
    tensor_transfer/frame_stream_test.cpp tensor_transfer/frame_reader_hashing_test.cpp)
handoff_add_worker_gtest(handoff_tensor_transfer_device_tests gpu
  SOURCES tensor_transfer/conformance_test.cpp tensor_transfer/device_rows.cpp)
