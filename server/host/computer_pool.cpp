#include "server/host/computer_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace bc::server {

using SteadyClock = std::chrono::steady_clock;

void ComputerPool::Lane::push(Waiting w) {
  auto& q = by_address[w.job.address];
  if (q.empty()) turn.push_back(w.job.address);
  q.push_back(std::move(w));
  ++size;
}

ComputerPool::Waiting ComputerPool::Lane::pop() {
  // The address at the front of the turn gives its oldest search and goes to the back.
  std::string address = std::move(turn.front());
  turn.pop_front();
  auto it = by_address.find(address);
  Waiting w = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) {
    by_address.erase(it);
  } else {
    turn.push_back(std::move(address));
  }
  --size;
  return w;
}

std::optional<ComputerPool::Waiting> ComputerPool::Lane::pop_newest(const std::string& address) {
  auto it = by_address.find(address);
  if (it == by_address.end()) return std::nullopt;
  Waiting w = std::move(it->second.back());
  it->second.pop_back();
  if (it->second.empty()) {
    by_address.erase(it);
    turn.erase(std::find(turn.begin(), turn.end(), address));
  }
  --size;
  return w;
}

ComputerPool::ComputerPool(unsigned threads, std::size_t queue_max, Metrics& metrics)
    : queue_max_(std::max<std::size_t>(1, queue_max)), metrics_(metrics) {
  threads = std::max(1u, threads);
  threads_.reserve(threads + 1);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(false); });
  threads_.emplace_back([this] { work(true); });
}

ComputerPool::~ComputerPool() {
  drain();
}

bool ComputerPool::closing() const {
  return closing_.load();
}

std::size_t ComputerPool::queued() const {
  std::lock_guard lock(mu_);
  return quick_.size + slow_.size;
}

void ComputerPool::publish_depth() {
  metrics_.computer_queued.store(static_cast<std::int64_t>(quick_.size + slow_.size),
                                 std::memory_order_relaxed);
}

void ComputerPool::forget(const std::string& address) {
  auto it = waiting_of_.find(address);
  if (it != waiting_of_.end() && --it->second == 0) waiting_of_.erase(it);
}

std::optional<ComputerJob> ComputerPool::make_room(ComputerJob& job, bool& admit) {
  admit = true;
  if (quick_.size + slow_.size < queue_max_) return std::nullopt;
  const std::string* heaviest = nullptr;
  std::size_t most = 0;
  for (const auto& [address, n] : waiting_of_) {
    if (n > most) {
      most = n;
      heaviest = &address;
    }
  }
  const auto mine = waiting_of_.find(job.address);
  const std::size_t own = mine == waiting_of_.end() ? 0 : mine->second;
  std::optional<ComputerJob> out;
  if (heaviest != nullptr && most > own + 1) {
    const std::string address = *heaviest;
    auto w = slow_.pop_newest(address);
    if (!w) w = quick_.pop_newest(address);
    forget(address);
    out = std::move(w->job);
  } else {
    admit = false;
    out = std::move(job);
  }
  // A flood of these would flood the log too: one line per 10 s at most, with the count.
  ++full_since_log_;
  const auto now = SteadyClock::now();
  if (now - last_full_log_ >= std::chrono::seconds(10)) {
    spdlog::warn(
        "computer: {} search(es) waiting, the limit: {} put off by {} s since the last such "
        "line (the latest: room {}, address {})",
        queue_max_, full_since_log_, kComputerRetry.count(), out->room,
        out->address.empty() ? "unknown" : out->address);
    last_full_log_ = now;
    full_since_log_ = 0;
  }
  return out;
}

void ComputerPool::submit(ComputerJob job) {
  std::optional<ComputerJob> put_off;
  {
    std::lock_guard lock(mu_);
    if (closing_.load()) return;
    bool admit = true;
    put_off = make_room(job, admit);
    if (admit) {
      ++waiting_of_[job.address];
      const bool quick = job.quick;
      (quick ? quick_ : slow_).push(Waiting{std::move(job), SteadyClock::now()});
    }
    publish_depth();
  }
  cv_.notify_all();
  if (put_off) {
    metrics_.computer_dropped_full.fetch_add(1, std::memory_order_relaxed);
    if (put_off->dropped) put_off->dropped(ComputerDrop::QueueFull);
  }
}

void ComputerPool::work(bool quick_only) {
  for (;;) {
    Waiting w;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] {
        return closing_.load() || quick_.size > 0 || (!quick_only && slow_.size > 0);
      });
      if (closing_.load()) return;
      w = quick_.size > 0 ? quick_.pop() : slow_.pop();
      forget(w.job.address);
      publish_depth();
    }
    if (w.job.watched && !w.job.watched()) {
      metrics_.computer_dropped_unwatched.fetch_add(1, std::memory_order_relaxed);
      spdlog::debug("room {}: nobody is watching, its computer's search is put off", w.job.room);
      if (w.job.dropped) w.job.dropped(ComputerDrop::Unwatched);
      continue;
    }
    metrics_.computer_wait.observe(SteadyClock::now() - w.since);
    metrics_.computer_searches.fetch_add(1, std::memory_order_relaxed);
    metrics_.computer_running.fetch_add(1, std::memory_order_relaxed);
    w.job.run();
    metrics_.computer_running.fetch_sub(1, std::memory_order_relaxed);
  }
}

void ComputerPool::close() {
  Lane quick;
  Lane slow;
  {
    std::lock_guard lock(mu_);
    closing_.store(true);
    std::swap(quick, quick_);
    std::swap(slow, slow_);
    waiting_of_.clear();
    publish_depth();
  }
  cv_.notify_all();
  // `quick` and `slow` go here, outside the lock: their jobs hold rooms.
}

void ComputerPool::drain() {
  close();
  for (auto& t : threads_) {
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  }
}

}  // namespace bc::server
