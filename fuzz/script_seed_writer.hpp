#pragma once
// What the seed programs of the script-driven fuzzers (connection, map_message, worker_replies)
// share: a seed is a script of calls and the pieces they send, written into the corpus.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "connection_script.hpp"
#include "seed_writer.hpp"

class script_seed_writer {
 public:
  explicit script_seed_writer(const seed_writer& seeds) : seeds_(seeds) {}

  void operator()(const std::string& name, const std::vector<std::uint8_t>& calls,
                  const std::vector<std::vector<std::byte>>& pieces,
                  const std::vector<unsigned>& descriptors = {}) const {
    seeds_.write(name, fuzz_support::encode_script(calls, pieces, descriptors));
  }

 private:
  const seed_writer& seeds_;
};
