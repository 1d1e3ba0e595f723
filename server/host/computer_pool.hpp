// The threads that run the computer's searches, and their fair scheduler (issue 13): one address
// with many computer rooms must not starve the computer of everyone else.
//
// - Fair: each lane keeps a queue per address (the room creator's) and serves the addresses in
//   turn; within an address its rooms come in turn too, since a room queues at most one search
//   (it searches only on its own turn).
// - Quick searches apart: levels whose time cap is at most kQuickSearchCap (1..4) go to a quick
//   lane, served first by every thread and alone by one extra thread, so they never wait behind a
//   long search.
// - Unwatched rooms: a search whose room has nobody in it when its turn comes is dropped; the
//   room starts it again when someone comes back.
// - Bounded: at most `queue_max` searches wait. Past it, the newest search of the address with
//   the most waiting is dropped (or the new one, if that is its own address) and its room tries
//   again kComputerRetry later: the computer thinks longer, nothing fails.
//
// Searches run here, never on an I/O thread. The Registry owns the pool and drains it before the
// io_context goes away, since a finished search hands its turn back to a room's strand.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "server/host/metrics.hpp"

namespace bc::server {

// Levels whose time cap (bc::ai::level_time_cap) is at most this are quick.
inline constexpr std::chrono::milliseconds kQuickSearchCap{250};
// A room whose search found the queue full tries again this much later.
inline constexpr std::chrono::seconds kComputerRetry{2};

// Why a queued search was not run.
enum class ComputerDrop : std::uint8_t {
  Unwatched,  // nobody was in its room when its turn came
  QueueFull,  // the queue was at its bound
};

struct ComputerJob {
  std::string address;  // the room creator's address, the unit of fairness ("": not known)
  std::string room;
  bool quick = false;
  std::function<bool()> watched;              // (pool thread) false: dropped, not run
  std::function<void()> run;                  // (pool thread) the search and its hand-back
  std::function<void(ComputerDrop)> dropped;  // (any thread; must not block) not run after all
};

class ComputerPool {
 public:
  // `threads` run every search (at least 1); one more runs quick ones only.
  ComputerPool(unsigned threads, std::size_t queue_max, Metrics& metrics);
  ~ComputerPool();
  ComputerPool(const ComputerPool&) = delete;
  ComputerPool& operator=(const ComputerPool&) = delete;

  // Queues `job`; does nothing once closing.
  void submit(ComputerJob job);
  // From now on no search starts and queued ones are forgotten (server shutdown).
  void close();
  bool closing() const;
  // Set once closing: a search's stop flag (ai limits' `stop`), so a shutdown does not wait for it.
  const std::atomic<bool>* closing_flag() const { return &closing_; }
  // close(), then waits for the searches under way (each sees its stop flag soon).
  void drain();

  std::size_t queued() const;

 private:
  struct Waiting {
    ComputerJob job;
    std::chrono::steady_clock::time_point since;
  };
  // A queue per address, and the addresses with something queued in the order they are served.
  struct Lane {
    std::unordered_map<std::string, std::deque<Waiting>> by_address;
    std::deque<std::string> turn;
    std::size_t size = 0;
    void push(Waiting w);
    Waiting pop();  // requires size > 0
    std::optional<Waiting> pop_newest(const std::string& address);
  };
  void work(bool quick_only);
  // Under mu_, with the queue at its bound: drops the newest search of the address with the most
  // waiting, or `job` itself (`admit` = false) when its own address has about as many. Returns
  // what was dropped, for its callback outside the lock.
  std::optional<ComputerJob> make_room(ComputerJob& job, bool& admit);
  void forget(const std::string& address);  // under mu_: one search of it left the queue
  void publish_depth();                     // under mu_

  const std::size_t queue_max_;
  Metrics& metrics_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> closing_{false};  // written under mu_, read anywhere
  Lane quick_;
  Lane slow_;
  std::unordered_map<std::string, std::size_t> waiting_of_;  // per address, both lanes
  std::chrono::steady_clock::time_point last_full_log_{};
  std::uint64_t full_since_log_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace bc::server
