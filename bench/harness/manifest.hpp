#pragma once
// The environment manifest: what ran, on what, built how. It goes into the JSON "context" so that
// every results file says which machine and which source produced it.

#include <map>
#include <string>
#include <vector>

#include "family_registry.hpp"

namespace handoff::bench {

std::map<std::string, std::string> collect_manifest(const bench_environment& environment);
void add_manifest_to_context(const std::map<std::string, std::string>& manifest);
void add_skipped_to_context(const std::vector<family_plan>& plan);

}  // namespace handoff::bench
