#include "server/net/data_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bc::server {

DataDirLock::~DataDirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

std::optional<DataDirLock> lock_data_dir(const std::filesystem::path& dir, std::string& why) {
  const auto file = dir / "bombcheckers.lock";
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = "cannot open " + file.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char pid[32] = {};
    const auto n = ::pread(fd, pid, sizeof pid - 1, 0);
    ::close(fd);
    std::string holder(pid, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    why = err == EWOULDBLOCK
              ? "the data directory " + dir.string() + " is in use by another bombcheckers" +
                    (holder.empty() ? std::string() : " (pid " + holder + ")") +
                    "; stop it first, or give this one another --data-dir"
              : "cannot lock " + file.string() + ": " + std::strerror(err);
    return std::nullopt;
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // Only the message of a refused second server would lack the pid.
  }
  return DataDirLock(fd);
}

namespace {

std::string span_text(std::int64_t ms) {
  constexpr std::int64_t kHour = 60LL * 60 * 1000;
  constexpr std::int64_t kDay = 24 * kHour;
  if (ms <= 0) return "kept";
  if (ms % kDay == 0) return std::to_string(ms / kDay) + (ms == kDay ? " day" : " days");
  if (ms % kHour == 0) return std::to_string(ms / kHour) + " h";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

}  // namespace

std::string retention_text(const store::Retention& keep) {
  return "retired rooms' unstarted games " + span_text(keep.unstarted_ms) + ", abandoned games " +
         span_text(keep.abandoned_ms) + ", finished games " + span_text(keep.finished_ms);
}

}  // namespace bc::server
