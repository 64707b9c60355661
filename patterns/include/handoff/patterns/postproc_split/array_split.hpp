#pragma once
// How seed 000 example 3 cuts the result: np.array_split(c, sections). Every chunk is contiguous;
// when count does not divide evenly, the first count % sections chunks are one element longer.
// More sections than elements gives empty chunks at the end, as NumPy does.

#include <cstddef>
#include <span>
#include <vector>

namespace handoff::patterns::postproc_split {

struct chunk {
  std::size_t offset = 0;  // first element
  std::size_t count = 0;
  bool operator==(const chunk&) const = default;
};

// sections == 0 is std::invalid_argument unless count is 0 too (then there is nothing to split).
std::vector<chunk> array_split(std::size_t count, std::size_t sections);

// The seed's number of sections for a chunk size: c.size // chunk_size, at least 1.
std::size_t sections_for_chunk_size(std::size_t count, std::size_t chunk_elements);

// The overlapped variant's pipeline units: each chunk cut (like array_split) into pieces of about
// count / (pieces_per_worker x workers) elements, but none shorter than min_piece_elements unless
// its chunk is. Small pieces start the first sum early and keep every worker busy to the end even
// when the chunks do not share out evenly (ten chunks on four workers); each piece still belongs to
// exactly one chunk, in order, so per-chunk partial sums can be assembled from them.
// Every piece costs the coordinator a copy to queue, an event to wait on and a request and reply
// to pass, and the copy engine a fixed cost (40 MB in 20 copies ran at 51 GB/s on an H200, in 40 at
// 47, against 55 whole), so pieces stay few: enough for each worker to have several. The last
// `workers` pieces are cut again, into up to `workers` parts each (none under the minimum): once
// the last copy has landed nothing overlaps the pool's last sums, so they are shared out in parts
// every worker can take. On an H200 (10^7 floats, 4 workers, five passes of each in one process)
// that took a batch from 907-937 us to 848-883 us, against a 724 us floor.
inline constexpr std::size_t pieces_per_worker = 4;
inline constexpr std::size_t min_piece_elements = std::size_t{1} << 17;

struct piece_plan {
  std::vector<chunk> pieces;
  std::vector<std::size_t> chunk_of_piece;
};
piece_plan pipeline_pieces(std::span<const chunk> chunks, std::size_t workers);

}  // namespace handoff::patterns::postproc_split
