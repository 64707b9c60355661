#pragma once
// The sum of x*x of independent_tasks on the device: one dataset with CUB's
// DeviceReduce::TransformReduce, or many datasets back to back with one launch: a block of 1024
// threads a dataset when none is longer than 16384 values, else one kernel that spreads every
// dataset over many blocks (CUB's LoadDirectStriped, BlockReduce and WarpReduce inside; the .cu
// says why not DeviceSegmentedReduce). Both accumulate in float, as cupy's sum(x**2) of float32
// data does. Each enqueues on a stream and returns at once; the caller allocates the temporary
// storage that the matching *_temp_bytes asks for (once, outside any timed region) and may reuse
// it for every launch of the same size on one stream at a time.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace handoff {

std::size_t sum_of_squares_temp_bytes(std::size_t count);

// *out = sum of values[i]^2; an empty dataset writes 0.
void launch_sum_of_squares(const float* values, std::size_t count, float* out, void* temp,
                           std::size_t temp_bytes, cudaStream_t stream);

// max_segment_values: the longest segment's length (the host knows it; the offsets live on the
// device). Too many segments of that length for one grid is std::invalid_argument.
std::size_t segmented_sum_of_squares_temp_bytes(std::size_t segments,
                                                std::size_t max_segment_values);
// Once, before the first launch that uses temp: zeroes the counts each launch leaves at zero.
void prepare_segmented_sum_of_squares_temp(void* temp, std::size_t temp_bytes, cudaStream_t stream);

// out[s] = sum of values[offsets[s] .. offsets[s+1])^2 for every segment s; offsets (segments + 1
// of them, non-decreasing, no segment longer than max_segment_values) live on the device. An
// empty segment writes 0. Less temporary storage than asked for is std::invalid_argument.
void launch_segmented_sum_of_squares(const float* values, const std::int64_t* offsets,
                                     std::size_t segments, std::size_t max_segment_values,
                                     float* out, void* temp, std::size_t temp_bytes,
                                     cudaStream_t stream);

}  // namespace handoff
