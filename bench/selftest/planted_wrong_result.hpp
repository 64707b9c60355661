#pragma once
// A benchmark that plants one wrong element in its output. It exists to prove that the shared
// verification step can fail: with it, handoff_bench must report the mismatch and exit non-zero.

namespace handoff::bench {

void register_planted_wrong_result();

}  // namespace handoff::bench
