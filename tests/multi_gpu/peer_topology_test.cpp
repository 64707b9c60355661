// Whether a peer gather can run is decided from the topology matrix alone, so topologies that no
// test machine has are tested here, without a GPU.

#include <gtest/gtest.h>

#include "handoff/patterns/multi_gpu/peer_access.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

TEST(PeerTopology, FullyConnectedDevicesCanGatherToTheHub) {
  const std::vector<std::vector<bool>> all = {
      {true, true, true}, {true, true, true}, {true, true, true}};
  EXPECT_EQ(peer_access_unavailable_reason(all, 0, 3), "");
}

TEST(PeerTopology, AMissingLinkIsNamedEitherWay) {
  const std::vector<std::vector<bool>> no_0_to_2 = {
      {true, true, false}, {true, true, true}, {true, true, true}};
  const auto reason = peer_access_unavailable_reason(no_0_to_2, 0, 3);
  EXPECT_NE(reason.find("GPU 0 cannot access GPU 2"), std::string::npos) << reason;
  const std::vector<std::vector<bool>> no_2_to_0 = {
      {true, true, true}, {true, true, true}, {false, true, true}};
  EXPECT_NE(peer_access_unavailable_reason(no_2_to_0, 0, 3).find("GPU 2 cannot access GPU 0"),
            std::string::npos);
}

TEST(PeerTopology, OnlyTheHubsLinksMatter) {
  const std::vector<std::vector<bool>> no_1_to_2 = {
      {true, true, true}, {true, true, false}, {true, false, true}};
  EXPECT_EQ(peer_access_unavailable_reason(no_1_to_2, 0, 3), "");
}

TEST(PeerTopology, OneDeviceNeedsNoPeerAndAShortMatrixIsUnavailable) {
  EXPECT_EQ(peer_access_unavailable_reason({{true}}, 0, 1), "");
  EXPECT_NE(peer_access_unavailable_reason({{true}}, 0, 2), "");
}

TEST(PeerTopology, HubPairsGoBothWays) {
  const auto pairs = hub_pairs(0, 3);
  const std::vector<std::pair<int, int>> expected = {{0, 1}, {1, 0}, {0, 2}, {2, 0}};
  EXPECT_EQ(pairs, expected);
}

}  // namespace
}  // namespace handoff::patterns::multi_gpu
