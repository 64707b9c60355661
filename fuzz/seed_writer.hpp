#pragma once
// What the seed-corpus programs of ci/fuzz --seed share: the corpus directory named on the command
// line, and writing one seed into it.

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>

class seed_writer {
 public:
  // The writer for the one directory argv names (created if need be); nothing, after printing
  // the usage, for any other command line.
  static std::optional<seed_writer> from_arguments(int argc, char** argv) {
    if (argc != 2) {
      std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
      return std::nullopt;
    }
    std::filesystem::create_directories(argv[1]);
    return seed_writer(argv[1]);
  }

  void write(const std::string& name, std::span<const std::byte> bytes) const {
    std::ofstream(corpus_ / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }

 private:
  explicit seed_writer(std::filesystem::path corpus) : corpus_(std::move(corpus)) {}
  std::filesystem::path corpus_;
};
