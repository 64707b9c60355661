#pragma once
// The coordinators' checks of what pool_prep's workers send back: the ready record, the header of
// a map worker's result, and a ring worker's reply after its share of a batch. Host code only, so
// that fuzz/worker_replies_fuzzer.cpp drives them as map_pool and shared_gpu_pool do.

#include <cstdint>
#include <string>

#include "protocol.hpp"

namespace handoff::patterns::pool_prep {

// A worker that is not up is process_error with its reason; what names the step that failed
// ("could not start", "could not attach its ring").
void check_ready(const protocol::ready_record& ready, const std::string& worker, const char* what);

// A map worker's reply to chunk `chunk` of count elements, length bytes long with its header
// (read first, when length is at least its size): a reply shorter than its header, for another
// chunk, with a payload of another size or with a stage time no stage can take (possible_seconds)
// is channel_corrupted; a failure the worker reports is chunk_failed.
void check_map_reply_length(std::uint64_t length, const std::string& worker);
void check_map_reply(const protocol::map_reply_header& header, std::uint64_t length,
                     std::uint64_t chunk, std::uint64_t count, const std::string& worker);

// A ring worker's reply for a batch of `chunks` chunks: a failure it reports is chunk_failed;
// another chunk count or a time no stage can take is channel_corrupted.
void check_ring_reply(const protocol::ring_reply& reply, std::uint64_t chunks,
                      const std::string& worker);

}  // namespace handoff::patterns::pool_prep
