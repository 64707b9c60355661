// The main of a test program whose tests start the program itself again in worker roles: the
// roles are registered by the test sources, and a worker run never reaches GoogleTest.

#include <gtest/gtest.h>

#include "handoff/context_release.hpp"
#include "handoff/transport/process/worker_role.hpp"

int main(int argc, char** argv) {
  if (const auto exit_code = handoff::transport::run_worker_role_if_requested(argc, argv)) {
    return *exit_code;
  }
  testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  handoff::release_ipc_contexts();
  return status;
}
