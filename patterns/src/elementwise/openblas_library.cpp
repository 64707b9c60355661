#include "openblas_library.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <string>
#include <system_error>
#include <thread>

#include "handoff/transport/process_state.hpp"
#include "handoff/transport/shared_library.hpp"

namespace handoff::patterns::elementwise {
namespace {

const std::string library_name = "libopenblas.so.0";

std::vector<pid_t> threads_of_this_process() {
  std::vector<pid_t> threads;
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    const auto name = task.path().filename().string();
    pid_t thread = 0;
    if (std::from_chars(name.data(), name.data() + name.size(), thread).ec == std::errc()) {
      threads.push_back(thread);
    }
  }
  std::sort(threads.begin(), threads.end());
  return threads;
}

bool is_running(pid_t thread) {
  return transport::process_state_letter(thread) == 'R';
}

openblas_library load() {
  try {
    const auto before = threads_of_this_process();
    void* library = transport::open_shared_library(library_name, HANDOFF_OPENBLAS_LIBRARY_DIR);
    openblas_library api{};
    transport::resolve_symbol(library, library_name, "cblas_sgemm", api.sgemm);
    for (const pid_t thread : threads_of_this_process()) {
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
