// The pieces of postproc_split that need no process: np.array_split's cut, the workers' chunk sum
// and the double-precision oracle it is checked against.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/reference/compensated_sum.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::postproc_split {
namespace {

std::vector<std::size_t> sizes_of(const std::vector<chunk>& chunks) {
  std::vector<std::size_t> sizes;
  for (const auto& piece : chunks)
    sizes.push_back(piece.count);
  return sizes;
}

TEST(ArraySplit, UnevenCountsPutTheLongerChunksFirstAsNumPyDoes) {
  // np.array_split(np.arange(10), 3) -> sizes 4, 3, 3
  const auto chunks = array_split(10, 3);
  EXPECT_EQ(sizes_of(chunks), (std::vector<std::size_t>{4, 3, 3}));
  EXPECT_EQ(chunks[1], (chunk{4, 3}));
  EXPECT_EQ(chunks[2], (chunk{7, 3}));
}

TEST(ArraySplit, ChunksAreContiguousAndCoverEveryElementOnce) {
  for (const std::size_t count : {std::size_t{1}, std::size_t{999}, std::size_t{10'000'000}}) {
    for (const std::size_t sections : {std::size_t{1}, std::size_t{7}, std::size_t{10}}) {
      const auto chunks = array_split(count, sections);
      ASSERT_EQ(chunks.size(), sections);
      std::size_t next = 0;
      for (const auto& piece : chunks) {
        EXPECT_EQ(piece.offset, next);
        next += piece.count;
      }
      EXPECT_EQ(next, count) << count << " in " << sections;
      EXPECT_LE(chunks.front().count - chunks.back().count, 1U);
    }
  }
}

TEST(ArraySplit, MoreSectionsThanElementsLeavesEmptyChunksAtTheEnd) {
  EXPECT_EQ(sizes_of(array_split(2, 5)), (std::vector<std::size_t>{1, 1, 0, 0, 0}));
  EXPECT_EQ(sizes_of(array_split(0, 3)), (std::vector<std::size_t>{0, 0, 0}));
}

TEST(ArraySplit, ZeroSectionsIsAnErrorUnlessThereIsNothingToSplit) {
  EXPECT_THROW(array_split(5, 0), std::invalid_argument);
  EXPECT_TRUE(array_split(0, 0).empty());
}

TEST(ArraySplit, TheSeedsSectionCountIsSizeOverChunkSizeAtLeastOne) {
  EXPECT_EQ(sections_for_chunk_size(10'000'000, 1'000'000), 10U);
  EXPECT_EQ(sections_for_chunk_size(std::size_t{1} << 26, 1'000'000), 67U);
  EXPECT_EQ(sections_for_chunk_size(999, 1'000'000), 1U);
  EXPECT_THROW(sections_for_chunk_size(10, 0), std::invalid_argument);
}

TEST(PipelinePieces,
     CutEveryChunkIntoCopiesOfASixteenthOfCAndEveryCopyIntoAPiecePerWorkerUpToFour) {
  const auto chunks = array_split(10'000'000, 10);
  const auto plan = pipeline_pieces(chunks, 4);
  // 10M / 16 = 625,000 per copy: each 1M chunk becomes 2 copies of 500,000, and each copy 4
  // pieces of 125,000.
  EXPECT_EQ(sizes_of(plan.copies), std::vector<std::size_t>(20, 500'000));
  ASSERT_EQ(plan.pieces.size(), 80U);
  ASSERT_EQ(plan.copy_of_piece.size(), plan.pieces.size());
  ASSERT_EQ(plan.chunk_of_piece.size(), plan.pieces.size());
  std::size_t next = 0;
  for (std::size_t index = 0; index < plan.pieces.size(); ++index) {
    const auto& piece = plan.pieces[index];
    EXPECT_EQ(piece.offset, next);
    EXPECT_EQ(piece.count, 125'000U);
    EXPECT_EQ(plan.copy_of_piece[index], index / 4);
    EXPECT_EQ(plan.chunk_of_piece[index], index / 8);
    const auto& copy = plan.copies[plan.copy_of_piece[index]];
    EXPECT_GE(piece.offset, copy.offset);
    EXPECT_LE(piece.offset + piece.count, copy.offset + copy.count);
    next += piece.count;
  }
  EXPECT_EQ(next, 10'000'000U);
  // More workers cut c neither into more copies nor into more pieces; fewer, into fewer pieces.
  const auto eight_workers = pipeline_pieces(chunks, 8);
  EXPECT_EQ(eight_workers.copies, plan.copies);
  EXPECT_EQ(eight_workers.pieces, plan.pieces);
  const auto two_workers = pipeline_pieces(chunks, 2);
  EXPECT_EQ(two_workers.copies, plan.copies);
  EXPECT_EQ(sizes_of(two_workers.pieces), std::vector<std::size_t>(40, 250'000));
}

TEST(PipelinePieces, NeverCutsBelowTheMinimumsNorLosesEmptyChunks) {
  // 2^20 / 16 would be 64Ki per copy: the copy minimum, 128Ki, wins, and on 4 workers each copy is
  // cut into 2 pieces of the piece minimum, 64Ki, not 4.
  const auto one_chunk = pipeline_pieces(array_split(std::size_t{1} << 20, 1), 4);
  EXPECT_EQ(sizes_of(one_chunk.copies), std::vector<std::size_t>(8, min_copy_elements));
  EXPECT_EQ(sizes_of(one_chunk.pieces), std::vector<std::size_t>(16, min_piece_elements));
  // One worker sums every copy whole.
  const auto one_worker = pipeline_pieces(array_split(std::size_t{1} << 20, 1), 1);
  EXPECT_EQ(one_worker.pieces, one_worker.copies);
  // Chunks smaller than a piece stay whole; empty chunks keep one empty copy and piece each.
  const auto small = pipeline_pieces(array_split(3, 5), 2);
  EXPECT_EQ(sizes_of(small.copies), (std::vector<std::size_t>{1, 1, 1, 0, 0}));
  EXPECT_EQ(sizes_of(small.pieces), (std::vector<std::size_t>{1, 1, 1, 0, 0}));
  EXPECT_EQ(small.copy_of_piece, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(small.chunk_of_piece, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_THROW(pipeline_pieces(array_split(3, 1), 0), std::invalid_argument);
}

TEST(ChunkSum, MatchesTheCompensatedReferenceAtEdgeAndLargeSizes) {
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{9},
                                  std::size_t{1027}, std::size_t{1} << 22}) {
    std::vector<float> values(count);
    reference::fill_seeded_nonzero(values, 0x51 + count);
    const double expected = reference::compensated_sum(values);
    const double actual = sum_chunk(values);
    EXPECT_LE(std::abs(actual - expected), 1e-9 * std::max(1.0, std::abs(expected)))
        << count << " elements";
  }
  EXPECT_EQ(sum_chunk(std::vector<float>{2.5f}), 2.5);
}

TEST(CompensatedSum, KeepsWhatCancellationWouldLose) {
  // Float accumulation loses the ones next to 1e8; a plain double sum loses the 1 next to 1e30.
  std::vector<float> values(1000, 1.0f);
  values.front() = 1e8f;
  values.back() = -1e8f;
  EXPECT_EQ(reference::compensated_sum(values), 998.0);
  std::vector<float> tiny_and_huge{1e30f, 1.0f, -1e30f};
  EXPECT_EQ(reference::compensated_sum(tiny_and_huge), 1.0);
}

}  // namespace
}  // namespace handoff::patterns::postproc_split
