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
  for (const auto& piece : chunks)
    count += piece.count;
  const std::size_t target =
      std::max(min_piece_elements,
               (count + pieces_per_worker * workers - 1) / (pieces_per_worker * workers));
  piece_plan uniform;
  for (std::size_t index = 0; index < chunks.size(); ++index) {
    const auto& whole = chunks[index];
    const std::size_t sections = std::max<std::size_t>(1, (whole.count + target - 1) / target);
    for (const auto& part : array_split(whole.count, sections)) {
      uniform.pieces.push_back({whole.offset + part.offset, part.count});
      uniform.chunk_of_piece.push_back(index);
    }
  }
  const std::size_t tail_begins = uniform.pieces.size() - std::min(workers, uniform.pieces.size());
  piece_plan plan;
  for (std::size_t index = 0; index < uniform.pieces.size(); ++index) {
    const auto& piece = uniform.pieces[index];
    const std::size_t parts =
        index < tail_begins ? 1
                            : std::clamp<std::size_t>(piece.count / min_piece_elements, 1, workers);
    for (const auto& part : array_split(piece.count, parts)) {
      plan.pieces.push_back({piece.offset + part.offset, part.count});
      plan.chunk_of_piece.push_back(uniform.chunk_of_piece[index]);
    }
  }
  return plan;
}

}  // namespace handoff::patterns::postproc_split
