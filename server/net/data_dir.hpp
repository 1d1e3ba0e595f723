// The data directory: one server at a time (a lock file), and the retention policy in words.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "bc/store.hpp"

namespace bc::server {

// An exclusive lock (flock) on data_dir/bombcheckers.lock, held while this object lives; the
// holder's pid is written in the file for the message of the one refused.
class DataDirLock {
 public:
  explicit DataDirLock(int fd) : fd_(fd) {}
  DataDirLock(DataDirLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  DataDirLock& operator=(DataDirLock&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  DataDirLock(const DataDirLock&) = delete;
  ~DataDirLock();

 private:
  int fd_;
};

// The lock, or nullopt and why for a person (another process holds it, or the file cannot be made).
std::optional<DataDirLock> lock_data_dir(const std::filesystem::path& dir, std::string& why);

// "unstarted games 1 h, abandoned games 7 days, finished games kept" (the start log, compact).
std::string retention_text(const store::Retention& keep);

}  // namespace bc::server
