#include "openblas_library.hpp"

#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>

#include "handoff/transport/process_state.hpp"
#include "handoff/transport/shared_library.hpp"

namespace handoff::patterns::elementwise {
namespace {

const std::string library_name = "libopenblas.so.0";

bool is_running(pid_t thread) {
  return transport::process_state_letter(thread) == 'R';
}

openblas_library load() {
  try {
    const auto before = transport::process_threads(::getpid());
    void* library = transport::open_shared_library(library_name, HANDOFF_OPENBLAS_LIBRARY_DIR);
    openblas_library api{};
    transport::resolve_symbol(library, library_name, "cblas_sgemm", api.sgemm);
    for (const int thread : transport::process_threads(::getpid())) {
      if (!std::binary_search(before.begin(), before.end(), thread)) api.threads.push_back(thread);
    }
    return api;
  } catch (const transport::library_load_error& error) {
    throw openblas_error(std::string("OpenBLAS: ") + error.what());
  }
}

}  // namespace

bool openblas_library::wait_until_asleep(std::chrono::milliseconds limit) const {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (std::any_of(threads.begin(), threads.end(), is_running)) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

const openblas_library& openblas() {
  static const openblas_library api = load();
  return api;
}

}  // namespace handoff::patterns::elementwise
