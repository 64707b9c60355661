#pragma once
// The context-probe worker: creates a CUDA context, then reports "ok <device count>" (or
// "error <name>") on stdout. The process-start ceiling times a spawn up to that line.

#include <string>

namespace handoff::bench {

int run_context_probe();

std::string context_probe_success_line(int device_count);

}  // namespace handoff::bench
