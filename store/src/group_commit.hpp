// Group commit, shared by both backends: the queue of submissions and the one writer thread that
// takes everything queued, has the backend write it in one transaction, and then runs the
// callbacks, so hundreds of rooms share each commit (and each fsync). Not installed.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "bc/store.hpp"

namespace bc::store::detail {

class GroupCommit {
 public:
  using Batch = std::deque<std::pair<std::vector<Write>, Done>>;
  // Writes `batch` in one transaction and says whether it committed. `entry_ok[i]` (all 1 on the
  // call) is set to 0 for a submission that failed on its own while the others committed;
  // `writes` counts the rows written.
  using Commit =
      std::function<bool(const Batch& batch, std::vector<char>& entry_ok, std::size_t& writes)>;

  explicit GroupCommit(Commit commit) : commit_(std::move(commit)) {}
  ~GroupCommit() { stop(); }
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;

  // The writer thread; without it (an in-memory store) submit_inline writes on the caller's.
  void start() {
    thread_ = std::thread([this] { run(); });
  }
  // Writes what is queued, then ends the thread. The backend's connection must still be open.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    queue_cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  bool stopping() const {
    std::lock_guard lock(mutex_);
    return stopping_;
  }

  void submit(std::vector<Write> writes, Done done) {
    {
      std::lock_guard lock(mutex_);
      queue_.emplace_back(std::move(writes), std::move(done));
    }
    queue_cv_.notify_one();
  }
  // Commits on this thread and answers before returning (no hand-off to a writer and back).
  void submit_inline(std::vector<Write> writes, Done done) {
    Batch one;
    one.emplace_back(std::move(writes), std::move(done));
    commit(one);
  }
  void flush() {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
  }

  Stats stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
  }
  // Changes the counters under the lock (prunes and measures add theirs).
  template <class F>
  void update_stats(F&& f) {
    std::lock_guard lock(mutex_);
    f(stats_);
  }

 private:
  void run() {
    for (;;) {
      Batch batch;
      {
        std::unique_lock lock(mutex_);
        queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and everything is written
        batch.swap(queue_);
        busy_ = true;
      }
      commit(batch);
      {
        std::lock_guard lock(mutex_);
        busy_ = false;
      }
      idle_cv_.notify_all();
    }
  }

  void commit(Batch& batch) {
    std::vector<char> entry_ok(batch.size(), 1);
    std::size_t writes = 0;
    const bool committed = commit_(batch, entry_ok, writes);
    std::uint64_t failed = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const bool ok = committed && entry_ok[i] != 0;
      if (!ok) ++failed;
      if (batch[i].second) batch[i].second(ok);
    }
    std::lock_guard lock(mutex_);
    stats_.writes += writes;
    ++stats_.commits;
    stats_.failures += failed;
  }

  Commit commit_;
  mutable std::mutex mutex_;
  std::condition_variable queue_cv_;
  std::condition_variable idle_cv_;
  Batch queue_;
  bool stopping_ = false;
  bool busy_ = false;
  Stats stats_;
  std::thread thread_;
};

}  // namespace bc::store::detail
