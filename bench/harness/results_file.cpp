#include "results_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

namespace handoff::bench {
namespace {

mode_t process_umask() {
  // Read, not set and restored: umask(2) can only be read by changing it, which races with any
  // thread creating a file meanwhile.
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("Umask:"))
      return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  }
  return 022;
}

std::string errno_text(int error) {
  return std::strerror(error);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What stands at path, for a message: empty when nothing does or a regular file does.
std::string what_is_not_a_regular_file(const std::string& path) {
  struct stat facts {};
  if (::lstat(path.c_str(), &facts) != 0) {
    if (errno == ENOENT) return {};
    return "cannot be inspected (" + errno_text(errno) + ")";
  }
  if (S_ISREG(facts.st_mode)) return {};
  if (S_ISLNK(facts.st_mode)) return "is a symbolic link";
  if (S_ISDIR(facts.st_mode)) return "is a directory";
  if (S_ISCHR(facts.st_mode)) return "is a character device";
  if (S_ISBLK(facts.st_mode)) return "is a block device";
  if (S_ISFIFO(facts.st_mode)) return "is a named pipe";
  if (S_ISSOCK(facts.st_mode)) return "is a socket";
  return "is not a regular file";
}

// A staging file of this write's own: mkostemps creates it with O_EXCL, which never follows a link
// planted at the name, and its random part keeps two runs (or two writes) apart.
class staging_file {
 public:
  explicit staging_file(const std::string& target) {
    std::string pattern =
        directory_of(target) + "/." + base_name_of(target) + ".XXXXXX" + std::string(suffix);
    name_.assign(pattern.begin(), pattern.end());
    name_.push_back('\0');
    fd_ = ::mkostemps(name_.data(), static_cast<int>(suffix.size()), O_CLOEXEC);
    if (fd_ < 0) {
      throw results_file_error("cannot create a file in " + directory_of(target) + ": " +
                               errno_text(errno));
    }
  }
  staging_file(const staging_file&) = delete;
  staging_file& operator=(const staging_file&) = delete;
  ~staging_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(name());
  }

  const char* name() const noexcept { return name_.data(); }

  // The mode a file made by open(2) would have had: the target's own when it exists, else what the
  // process's umask leaves of 0666 (mkostemps makes its file 0600).
  void take_mode_of(const std::string& target) {
    struct stat facts {};
    const mode_t mode =
        ::stat(target.c_str(), &facts) == 0 ? (facts.st_mode & 07777) : (0666 & ~process_umask());
    if (::fchmod(fd_, mode) != 0) {
      throw results_file_error("setting the mode of " + std::string(name()) + ": " +
                               errno_text(errno));
    }
  }

  void write_synced(std::string_view text) {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t wrote = ::write(fd_, text.data() + done, text.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) throw results_file_error("writing " + std::string(name()) + ": " + cause());
      done += static_cast<std::size_t>(wrote);
    }
    if (::fsync(fd_) != 0)
      throw results_file_error("syncing " + std::string(name()) + ": " + cause());
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
      throw results_file_error("closing " + std::string(name()) + ": " + cause());
  }

  void rename_over(const std::string& target) {
    if (const auto what = what_is_not_a_regular_file(target); !what.empty()) {
      throw results_file_error(target + " " + what + "; it was left as it is");
    }
    if (::rename(name(), target.c_str()) != 0) {
      throw results_file_error("cannot replace " + target + ": " + errno_text(errno));
    }
    renamed_ = true;
  }

 private:
  static constexpr std::string_view suffix = ".writing";
  // A write into a file past RLIMIT_FSIZE fails with EFBIG; one that wrote nothing on a full disk
  // may return 0 without errno.
  static std::string cause() { return errno == 0 ? "nothing written" : errno_text(errno); }

  std::vector<char> name_;
  int fd_ = -1;
  bool renamed_ = false;
};

}  // namespace

void check_results_path(std::string_view flag, const std::string& path) {
  const std::string named = "handoff_bench: " + std::string(flag) + "=" + path;
  if (path.empty()) throw results_file_error(named + ": needs a file name");
  if (path.back() == '/') throw results_file_error(named + ": names a directory, not a file");
  const std::string directory = directory_of(path);
  struct stat facts {};
  if (::stat(directory.c_str(), &facts) != 0) {
    throw results_file_error(
        named + ": the directory " + directory + " " +
        (errno == ENOENT ? "does not exist" : "cannot be read (" + errno_text(errno) + ")"));
  }
  if (!S_ISDIR(facts.st_mode)) {
    throw results_file_error(named + ": " + directory + " is not a directory");
  }
  if (const auto what = what_is_not_a_regular_file(path); !what.empty()) {
    throw results_file_error(named + ": " + path + " " + what +
                             "; the results go only to a new or a regular file");
  }
  // Whether a file can be made there is known only by making one: permissions do not tell root,
  // a read-only mount or a full disk, and the check must come before anything is measured.
  try {
    staging_file probe(path);
    probe.write_synced("{}\n");
  } catch (const results_file_error& error) {
    throw results_file_error(named + ": " + error.what());
  }
}

void replace_file_atomically(const std::string& path, std::string_view text) {
  staging_file staging(path);
  staging.take_mode_of(path);
  staging.write_synced(text);
  staging.rename_over(path);
}

}  // namespace handoff::bench
