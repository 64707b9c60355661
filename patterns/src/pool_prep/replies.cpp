#include "replies.hpp"

#include "handoff/patterns/pool_prep/batch.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/channels/channel_errors.hpp"

namespace handoff::patterns::pool_prep {

using transport::channel_corrupted;

void check_ready(const protocol::ready_record& ready, const std::string& worker, const char* what) {
  if (!ready.ok) {
    throw transport::process_error("worker " + worker + " " + what + ": " + ready.error.get());
  }
}

void check_map_reply_length(std::uint64_t length, const std::string& worker) {
  if (length < sizeof(protocol::map_reply_header)) {
    throw channel_corrupted("worker " + worker + " sent a reply of " + std::to_string(length) +
                            " bytes, shorter than its header");
  }
}

void check_map_reply(const protocol::map_reply_header& header, std::uint64_t length,
                     std::uint64_t chunk, std::uint64_t count, const std::string& worker) {
  if (header.chunk != chunk || header.count != count) {
    throw channel_corrupted("worker " + worker + " answered for chunk " +
                            std::to_string(header.chunk) + " of " + std::to_string(header.count) +
                            " elements; it was given chunk " + std::to_string(chunk) + " of " +
                            std::to_string(count));
  }
  if (!header.ok) {
    throw chunk_failed("worker " + worker + " failed on chunk " + std::to_string(chunk) + ": " +
                           header.error.get(),
                       worker);
  }
  const std::uint64_t payload = count * sizeof(float);
  if (length - sizeof(header) != payload) {
    throw channel_corrupted("worker " + worker + " returned " +
                            std::to_string(length - sizeof(header)) + " bytes for chunk " +
                            std::to_string(chunk) + "; expected " + std::to_string(payload));
  }
  for (const double seconds : {header.prep, header.h2d, header.kernel, header.d2h}) {
    if (!possible_seconds(seconds)) {
      throw channel_corrupted("worker " + worker + " answered chunk " + std::to_string(chunk) +
                              " with a stage time of " + std::to_string(seconds) + " s");
    }
  }
}

void check_ring_reply(const protocol::ring_reply& reply, std::uint64_t chunks,
                      const std::string& worker) {
  if (!reply.ok) throw chunk_failed("worker " + worker + " failed: " + reply.error.get(), worker);
  if (reply.chunks_prepared != chunks) {
    throw channel_corrupted("worker " + worker + " prepared pieces of " +
                            std::to_string(reply.chunks_prepared) + " chunks; the batch has " +
                            std::to_string(chunks));
  }
  if (!possible_seconds(reply.prep)) {
    throw channel_corrupted("worker " + worker + " took " + std::to_string(reply.prep) +
                            " s to prepare its share, by its own clock");
  }
}

}  // namespace handoff::patterns::pool_prep
