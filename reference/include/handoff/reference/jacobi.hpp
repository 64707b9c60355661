#pragma once
// The iterative pattern's workload: Jacobi iterations on the tridiagonal system
//   d x[i] - x[i-1] - x[i+1] = b[i],   with x[-1] = x[n] = 0,
// so one step is x_new[i] = ((b[i] + x[i-1]) + x[i+1]) / d. A diagonal |d| > 2 makes the matrix
// strictly diagonally dominant and the step a contraction by 2/|d| in the max norm.
//
// The default diagonal is 2.125 rather than a larger one such as 4. With d = 4 the iterates reach
// the float fixed point in about 25 steps, so iteration 100 would equal iteration 99 and a wrong
// iteration count could not be caught. At 2.125 the slowest modes shrink by only 0.94 a step, and
// after 100 steps one more or one fewer still moves the result far beyond the tolerance below.
// 2.125 is exact in float and in double, so every implementation divides by the same number.
//
// Every implementation, the kernel included, adds in the order written above, so the float
// variants round the same way.

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {

inline constexpr double jacobi_default_diagonal = 2.125;
inline constexpr int jacobi_default_iterations = 100;

// The float iterates against the double oracle: |x - x_ref| <= 1e-5 * max|x_ref| everywhere.
// Why this bound holds, and holds at every size: one float step rounds three times (two additions,
// one division), each by at most u = 2^-24 of a value no larger than about max|x|, so a step adds
// an error of at most about 3u max|x|. The step contracts every earlier error by 2/d in the max
// norm, so the errors sum to at most 3u max|x| / (1 - 2/d) = 51u max|x| ~ 3.0e-6 max|x| for
// d = 2.125, whatever the number of unknowns. 1e-5 is 168u: three times that worst case. Measured
// with the benchmark's seeds from 1027 to 2^22 unknowns, a correct float solve is off by at most
// 2.7e-7 max|x|, while one iteration too few or too many is off by 3.5e-4 to 4.9e-4 max|x| (and
// 1e-4 in root mean square), and a wrong neighbour by far more; the tests check both.
inline constexpr double jacobi_relative_tolerance = 1e-5;

// std::invalid_argument for no unknowns, fewer than one iteration, b and x0 of different lengths,
// or a diagonal that is not finite and larger than 2 in magnitude.
void check_jacobi_problem(std::size_t b_size, std::size_t x0_size, int iterations, double diagonal);

// The oracle: serial Jacobi in double precision, x after `iterations` steps from x0.
std::vector<double> jacobi_1d(std::span<const float> b, std::span<const float> x0, int iterations,
                              double diagonal = jacobi_default_diagonal);

// The same arithmetic, element for element (the tests check the results are identical), in
// cache-sized tiles on every core: each tile carries a halo of `iterations` elements on either side
// and runs all the steps while it stays in cache. At 2^26 unknowns the serial oracle streams 150 GB
// through memory and takes seconds; this takes a fraction of that, which keeps the benchmark's
// verification of the largest sizes affordable.
std::vector<double> jacobi_1d_tiled(std::span<const float> b, std::span<const float> x0,
                                    int iterations, double diagonal = jacobi_default_diagonal,
                                    unsigned max_threads = default_thread_count());

// The convergence check's norm, squared: the sum over i of (x_new[i] - x_old[i])^2, in double (the
// difference of two floats is exact there). std::invalid_argument when the lengths differ.
double update_norm_squared(std::span<const float> x_new, std::span<const float> x_old);

}  // namespace handoff::reference
