// A token bucket: `rate` tokens a second up to `burst`; each message takes one.
#pragma once

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace bc::server {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;
  TokenBucket(double rate, double burst, Clock::time_point now = Clock::now())
      : rate_(rate), burst_(burst), tokens_(burst), last_(now) {}

  bool take(Clock::time_point now = Clock::now()) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    if (elapsed > 0) {
      tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
      last_ = now;
    }
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }
  // Refilled to its burst by `now`: forgetting it changes nothing.
  bool full(Clock::time_point now) const {
    return tokens_ + std::chrono::duration<double>(now - last_).count() * rate_ >= burst_;
  }

 private:
  double rate_;
  double burst_;
  double tokens_;
  Clock::time_point last_;
};

// One token bucket per client address, shared by all of that address's connections (any thread),
// so that opening more connections gets a client no further. Full buckets are forgotten now and
// then, which keeps the map as small as the set of recently busy addresses.
class AddressBuckets {
 public:
  using Clock = TokenBucket::Clock;
  AddressBuckets(double rate, double burst) : rate_(rate), burst_(burst) {}

  bool take(const std::string& address, Clock::time_point now = Clock::now()) {
    if (rate_ <= 0) return true;  // no limit
    std::lock_guard lock(mu_);
    if (buckets_.size() >= next_prune_) {
      std::erase_if(buckets_, [now](const auto& kv) { return kv.second.full(now); });
      next_prune_ = std::max<std::size_t>(1024, 2 * buckets_.size());
    }
    auto it = buckets_.try_emplace(address, rate_, burst_, now).first;
    return it->second.take(now);
  }
  std::size_t size() const {
    std::lock_guard lock(mu_);
    return buckets_.size();
  }

 private:
  double rate_;
  double burst_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, TokenBucket> buckets_;
  std::size_t next_prune_ = 1024;
};

}  // namespace bc::server
