#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/sum_of_squares.hpp"

namespace handoff {
namespace {

struct square {
  __host__ __device__ float operator()(float value) const { return value * value; }
};

}  // namespace

std::size_t sum_of_squares_temp_bytes(std::size_t count) {
  std::size_t bytes = 0;
  HANDOFF_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
      nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), count,
      ::cuda::std::plus<float>{}, square{}, 0.0f));
  return bytes;
}

void launch_sum_of_squares(const float* values, std::size_t count, float* out, void* temp,
                           std::size_t temp_bytes, cudaStream_t stream) {
  if (count == 0) {
    // 0.0f is all zero bytes; a memset needs no temporary storage and captures into graphs.
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), stream));
    return;
  }
  HANDOFF_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
      temp, temp_bytes, values, out, count, ::cuda::std::plus<float>{}, square{}, 0.0f, stream));
  HANDOFF_CUDA_CHECK_LAUNCH();
}

// CUB's DeviceSegmentedReduce gives each segment one thread block, so 100 datasets of 10^4 values
// ran on 100 blocks, each reading its 40 KB alone, many times slower than the memory time of 4 MB
// (figures: docs/design/measured-along-the-way.md, "Segmented sums of squares in tiles"). Here
// every segment is cut into tiles of a fixed size, one block per tile (so the whole GPU reads),
// each block reduces its tile with CUB's BlockReduce into one partial sum, and the last block of a
// segment to finish (counted with an atomic) adds the segment's partials in tile order, so that the
// result does not depend on the blocks' timing. One launch, not two: a resident run is a few
// microseconds of GPU work, and each launch costs the host about as much. Only the grid layout is
// hand-written; the reductions are CUB's. Segments short enough for one block take a kernel of
// their own, below.
namespace {

constexpr int tile_threads = 256;
constexpr int values_per_thread = 8;
constexpr std::size_t tile_values = std::size_t{tile_threads} * values_per_thread;

struct tile_grid {
  std::uint64_t tiles_each;  // tiles of every segment, the longest one's count
  std::uint64_t blocks;      // one a tile
};

tile_grid tiles_for(std::size_t segments, std::size_t max_segment_values) {
  const std::uint64_t tiles_each =
      std::max<std::uint64_t>(1, (max_segment_values + tile_values - 1) / tile_values);
  constexpr std::uint64_t most_blocks = 0x7fffffff;  // gridDim.x
  if (segments > most_blocks / tiles_each) {
    throw std::invalid_argument("segmented sum of squares: " + std::to_string(segments) +
                                " segments of up to " + std::to_string(max_segment_values) +
                                " values are more tiles than one grid holds");
  }
  return {tiles_each, segments * tiles_each};
}

// The temporary storage: one partial sum a tile, then one finished-tile count a segment.
struct temp_layout {
  std::size_t counters_at;
  std::size_t bytes;
};

temp_layout layout_for(const tile_grid& grid, std::size_t segments) {
  const std::size_t partial_bytes = grid.blocks * sizeof(float);
  const std::size_t counters_at = (partial_bytes + 15) / 16 * 16;
  return {counters_at, counters_at + std::max<std::size_t>(1, segments) * sizeof(unsigned)};
}

__global__ void __launch_bounds__(tile_threads)
    sum_segments_of_squares(const float* values, const std::int64_t* offsets,
                            std::uint64_t tiles_each, float* partials, unsigned* finished_tiles,
                            float* out) {
  using block_reduce = cub::BlockReduce<float, tile_threads>;
  using warp_reduce = cub::WarpReduce<float>;
  __shared__ typename block_reduce::TempStorage block_storage;
  __shared__ typename warp_reduce::TempStorage warp_storage;
  __shared__ bool last_of_segment;
  const std::uint64_t block = blockIdx.x;
  const std::uint64_t segment = block / tiles_each;
  const std::uint64_t tile = block % tiles_each;
  const std::int64_t segment_end = offsets[segment + 1];
  const std::int64_t first = offsets[segment] + static_cast<std::int64_t>(tile * tile_values);
  float sum = 0.0f;
  // Strided by the block, so that each load instruction of a warp reads consecutive values.
#pragma unroll
  for (int step = 0; step < values_per_thread; ++step) {
    const std::int64_t at = first + step * tile_threads + threadIdx.x;
    if (at < segment_end) {
      const float value = values[at];
      sum += value * value;
    }
  }
  const float total = block_reduce(block_storage).Sum(sum);
  if (threadIdx.x == 0) {
    partials[block] = total;
    __threadfence();  // the partial is visible before the count says it is there
    last_of_segment = atomicAdd(&finished_tiles[segment], 1u) == tiles_each - 1;
  }
  __syncthreads();
  if (!last_of_segment || threadIdx.x >= 32) return;
  __threadfence();
  const float* own = partials + segment * tiles_each;
  float segment_sum = 0.0f;
  for (std::uint64_t index = threadIdx.x; index < tiles_each; index += 32)
    segment_sum += __ldcg(own + index);  // from L2: another block wrote it
  const float segment_total = warp_reduce(warp_storage).Sum(segment_sum);
  if (threadIdx.x == 0) {
    out[segment] = segment_total;
    finished_tiles[segment] = 0;  // ready for the next launch
  }
}

// Segments no longer than one block's values (independent_tasks' default batch: 100 datasets of
// 10^4 values) skip the tiles: one block of 1024 threads a segment loads every value of it at once
// into registers (CUB's guarded striped load: consecutive values to consecutive threads, so every
// warp load is coalesced), squares and sums them, and one BlockReduce gives the segment's sum,
// which thread 0 stores. A block's work ends at its reduction: no partials, fence, atomic or
// second read from L2, which in the tiled kernel above run one after another behind the loads of
// the last tile of every segment, and no count that a launch must leave at zero for the next.
// This is one block a segment, as CUB's DeviceSegmentedReduce is, but not its slowness: CUB's
// block of 256 threads walks its segment in tiles of 4096 values, so 10^4 values wait for three
// rounds of loads one after another; here they are one round. Fewer blocks than SMs (100 of an
// H100's 132) cost nothing at this size: what bounds a read of 4 MB is the bytes in flight, and
// these blocks put all of them in flight at once (40 KB an SM), as the 500 tiles did. The order
// of the additions is fixed (each thread's 16 values in turn, then CUB's tree), so the result is
// the same from run to run, as the tiled kernel's is.
constexpr int segment_threads = 1024;
constexpr int values_per_segment_thread = 16;
constexpr std::size_t one_block_values = std::size_t{segment_threads} * values_per_segment_thread;

__global__ void __launch_bounds__(segment_threads)
    sum_short_segments_of_squares(const float* values, const std::int64_t* offsets, float* out) {
  using block_reduce = cub::BlockReduce<float, segment_threads>;
  __shared__ typename block_reduce::TempStorage storage;
  const std::int64_t first = offsets[blockIdx.x];
  const int length = static_cast<int>(offsets[blockIdx.x + 1] - first);  // <= one_block_values
  float loaded[values_per_segment_thread];
  // Past the segment's end a thread reads nothing and holds 0, which adds nothing to its sum.
  cub::LoadDirectStriped<segment_threads>(static_cast<int>(threadIdx.x), values + first, loaded,
                                          length, 0.0f);
  float sum = 0.0f;
#pragma unroll
  for (const float value : loaded)
    sum += value * value;
  const float total = block_reduce(storage).Sum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

}  // namespace

std::size_t segmented_sum_of_squares_temp_bytes(std::size_t segments,
                                                std::size_t max_segment_values) {
  return layout_for(tiles_for(segments, max_segment_values), segments).bytes;
}

void prepare_segmented_sum_of_squares_temp(void* temp, std::size_t temp_bytes,
                                           cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(cudaMemsetAsync(temp, 0, temp_bytes, stream));
}

void launch_segmented_sum_of_squares(const float* values, const std::int64_t* offsets,
                                     std::size_t segments, std::size_t max_segment_values,
                                     float* out, void* temp, std::size_t temp_bytes,
                                     cudaStream_t stream) {
  if (segments == 0) return;
  const auto grid = tiles_for(segments, max_segment_values);
  const auto layout = layout_for(grid, segments);
  if (temp_bytes < layout.bytes) {
    throw std::invalid_argument("segmented sum of squares: " + std::to_string(temp_bytes) +
                                " bytes of temporary storage, " + std::to_string(layout.bytes) +
                                " needed");
  }
  // Still one launch either way: which kernel runs depends only on the longest segment, which the
  // caller states and the host knows without reading the offsets.
  if (max_segment_values <= one_block_values) {
    sum_short_segments_of_squares<<<static_cast<unsigned>(segments), segment_threads, 0, stream>>>(
        values, offsets, out);
    HANDOFF_CUDA_CHECK_LAUNCH();
    return;
  }
  auto* base = static_cast<std::byte*>(temp);
  sum_segments_of_squares<<<static_cast<unsigned>(grid.blocks), tile_threads, 0, stream>>>(
      values, offsets, grid.tiles_each, reinterpret_cast<float*>(base),
      reinterpret_cast<unsigned*>(base + layout.counters_at), out);
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff
