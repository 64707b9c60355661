#pragma once
// Which process measured a row, and the memory layout it measured under. A row's figure moves
// between processes with where the stack, the heap and the code land (Mytkowicz et al., ASPLOS
// 2009), so every process shifts its stack and heap by a random amount of its own, as STABILIZER
// re-randomises layout, and a comparison treats processes as the level that varies: every row
// carries its process's token, so that rows merged from separate processes can be told apart
// from passes of one.

#include <cstddef>
#include <string>

namespace handoff::bench {

struct process_identity {
  std::string token;  // unique to this process: random, then the pid
  std::size_t stack_offset = 0;
  std::size_t heap_offset = 0;
};

// Drawn once per process; HANDOFF_LAYOUT_SEED=N draws the same offsets again (the token stays
// unique).
const process_identity& this_process();

// Holds heap_offset bytes for the life of the process, so that every later allocation lands
// elsewhere than in another process.
void shift_the_heap(std::size_t bytes);

}  // namespace handoff::bench
