#pragma once
// An executable doubles as its own worker program: started with --handoff-worker=ROLE it plays that
// role instead of doing its usual job. Workers are therefore new programs (spawn semantics), never
// forks of a process that may hold a CUDA context. Roles register from the executable's own sources
// with HANDOFF_WORKER_ROLE, so each executable carries exactly the roles it links.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace handoff::transport {

inline constexpr std::string_view worker_flag = "--handoff-worker=";
// Follows the role flag in worker_command: the pid of the process that started the worker.
inline constexpr std::string_view worker_parent_flag = "--handoff-parent=";

// A role's main: its arguments are those after the role flag. Its return value is the exit code.
// An exception escaping it is printed to stderr and becomes exit code worker_uncaught_exit_code.
using worker_entry = int (*)(std::span<const std::string> arguments);
inline constexpr int worker_uncaught_exit_code = 70;
// The process that started the worker was gone before the worker could tie its life to it.
inline constexpr int worker_orphaned_exit_code = 71;

void register_worker_role(std::string_view name, worker_entry entry);

struct worker_role_registrar {
  worker_role_registrar(std::string_view name, worker_entry entry) {
    register_worker_role(name, entry);
  }
};

#define HANDOFF_WORKER_ROLE_CONCAT_INNER(a, b) a##b
#define HANDOFF_WORKER_ROLE_CONCAT(a, b) HANDOFF_WORKER_ROLE_CONCAT_INNER(a, b)
#define HANDOFF_WORKER_ROLE(name, entry)                                               \
  static const ::handoff::transport::worker_role_registrar HANDOFF_WORKER_ROLE_CONCAT( \
      handoff_worker_role_, __LINE__)(name, entry)

// The exit code of the role, or nothing when argv asks for no role. Every role dies with the
// process that started it (SIGKILL on its death), and exits at once with
// worker_orphaned_exit_code when --handoff-parent names a process that is no longer its parent.
std::optional<int> run_worker_role_if_requested(int argc, char** argv);

// The command line that starts this program in a role, as a child of this process.
std::vector<std::string> worker_command(std::string_view role,
                                        const std::vector<std::string>& arguments = {});

}  // namespace handoff::transport
