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

// The overlapped variant's pipeline. c comes back in copies: each chunk cut (like array_split)
// into copies of about count / copies_per_batch elements, none shorter than min_copy_elements
// unless its chunk is. The pool sums pieces: each copy cut into up to max_pieces_per_copy (and no
// more than `workers`) pieces, none shorter than min_piece_elements unless its copy is, so that
// several workers take a part of each copy as soon as it lands. Each piece lies in one copy and
// one chunk, in order, so per-chunk partial sums can be assembled from the pieces' sums.
// The two are cut apart because they cost different things. A copy has a fixed cost on the copy
// engine (the same bytes cut into more copies ran slower), so copies stay few, however many
// workers there are. A piece costs a request and a reply. One core sums freshly copied floats at a
// fraction of the bus's rate, so a copy summed by one worker ends long after the next has landed
// and the last one's sum is the batch's tail; four workers on each copy keep up with the bus, and
// more pieces only add messages. Against the plan before (copies = pieces, the last ones cut
// finer), this one was faster with four workers, but eight workers cutting each copy into seven
// pieces were far slower, hence the cap on pieces a copy; with it, neither worker count was slower
// than before, and eight pieces a copy were slower than four.
// (figures: docs/design/measured-along-the-way.md, "How the overlapped split cuts its copies")
inline constexpr std::size_t copies_per_batch = 16;
inline constexpr std::size_t min_copy_elements = std::size_t{1} << 17;
inline constexpr std::size_t max_pieces_per_copy = 4;
inline constexpr std::size_t min_piece_elements = std::size_t{1} << 16;

struct piece_plan {
  std::vector<chunk> copies;
  std::vector<chunk> pieces;
  std::vector<std::size_t> copy_of_piece;
  std::vector<std::size_t> chunk_of_piece;
};
piece_plan pipeline_pieces(std::span<const chunk> chunks, std::size_t workers);

}  // namespace handoff::patterns::postproc_split
