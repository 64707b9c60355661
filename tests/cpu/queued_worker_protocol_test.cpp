// The queued worker's command line, as its coordinator encodes it and the worker decodes it: a
// count that is not one is a named error, never a wrapped-around huge value.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "queued_worker/protocol.hpp"

namespace handoff::patterns::queued_worker::protocol {
namespace {

std::vector<std::string> arguments_with(std::size_t index, std::string value) {
  auto arguments = worker_arguments{}.encode();
  arguments.at(index) = std::move(value);
  return arguments;
}

TEST(QueuedWorkerProtocol, ArgumentsRoundTrip) {
  worker_arguments sent;
  sent.max_item_elements = 1 << 20;
  sent.depth = 3;
  sent.pause_after_items = 7;
  const auto received = worker_arguments::decode(sent.encode());
  EXPECT_EQ(received.max_item_elements, sent.max_item_elements);
  EXPECT_EQ(received.depth, 3u);
  EXPECT_EQ(received.pause_after_items, 7u);
}

TEST(QueuedWorkerProtocol, ANegativeOrMalformedCountIsANamedError) {
  for (const char* bad : {"-1", "", "12x", "99999999999999999999999", " 4"}) {
    try {
      worker_arguments::decode(arguments_with(2, bad));
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("argument 2"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace handoff::patterns::queued_worker::protocol
