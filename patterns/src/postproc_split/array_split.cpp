#include "handoff/patterns/postproc_split/array_split.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace handoff::patterns::postproc_split {

std::vector<chunk> array_split(std::size_t count, std::size_t sections) {
  if (sections == 0) {
    if (count == 0) return {};
    throw std::invalid_argument("array_split: " + std::to_string(count) +
                                " elements cannot be split into 0 chunks");
  }
  std::vector<chunk> chunks(sections);
  const std::size_t base = count / sections;
  const std::size_t longer = count % sections;
  std::size_t offset = 0;
  for (std::size_t index = 0; index < sections; ++index) {
    chunks[index] = {offset, base + (index < longer ? 1 : 0)};
    offset += chunks[index].count;
  }
  return chunks;
}

std::size_t sections_for_chunk_size(std::size_t count, std::size_t chunk_elements) {
  if (chunk_elements == 0) throw std::invalid_argument("sections_for_chunk_size: chunk size 0");
  return std::max<std::size_t>(1, count / chunk_elements);
}

piece_plan pipeline_pieces(std::span<const chunk> chunks, std::size_t workers) {
  if (workers == 0) throw std::invalid_argument("pipeline_pieces: 0 workers");
  std::size_t count = 0;
  for (const auto& whole : chunks)
    count += whole.count;
  const std::size_t copy_target =
      std::max(min_copy_elements, (count + copies_per_batch - 1) / copies_per_batch);
  const std::size_t pieces_at_most = std::min(workers, max_pieces_per_copy);
  piece_plan plan;
  for (std::size_t chunk_index = 0; chunk_index < chunks.size(); ++chunk_index) {
    const auto& whole = chunks[chunk_index];
    const std::size_t copies =
        std::max<std::size_t>(1, (whole.count + copy_target - 1) / copy_target);
    for (const auto& copy : array_split(whole.count, copies)) {
      const std::size_t copy_index = plan.copies.size();
      plan.copies.push_back({whole.offset + copy.offset, copy.count});
      const std::size_t pieces =
          std::clamp<std::size_t>(copy.count / min_piece_elements, 1, pieces_at_most);
      for (const auto& piece : array_split(copy.count, pieces)) {
        plan.pieces.push_back({whole.offset + copy.offset + piece.offset, piece.count});
        plan.copy_of_piece.push_back(copy_index);
        plan.chunk_of_piece.push_back(chunk_index);
      }
    }
  }
  return plan;
}

}  // namespace handoff::patterns::postproc_split
