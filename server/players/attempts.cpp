#include "server/players/attempts.hpp"

#include <algorithm>
#include <cmath>

namespace bc::server {

Attempts::Attempts(double burst, std::chrono::milliseconds every, std::size_t max_keys)
    : burst_(burst), every_(every), max_keys_(max_keys) {}

double Attempts::refilled(const Bucket& b, Clock::time_point now) const {
  const double gained = std::chrono::duration<double>(now - b.at).count() /
                        std::chrono::duration<double>(every_).count();
  return std::min(burst_, b.tokens + std::max(0.0, gained));
}

bool Attempts::take(const std::string& key, Clock::time_point now, int* wait) {
  std::lock_guard lock(mu_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      std::erase_if(buckets_, [&](const auto& kv) { return refilled(kv.second, now) >= burst_; });
    }
    if (buckets_.size() >= max_keys_) {
      // Every remembered key is still limited: a flood of new keys is refused as a whole rather
      // than forgetting the keys it is meant to limit.
      if (wait) *wait = static_cast<int>(std::ceil(std::chrono::duration<double>(every_).count()));
      return false;
    }
    it = buckets_.emplace(key, Bucket{burst_, now}).first;
  }
  Bucket& b = it->second;
  b.tokens = refilled(b, now);
  b.at = now;
  if (b.tokens < 1.0) {
    if (wait) {
      *wait = static_cast<int>(
          std::ceil((1.0 - b.tokens) * std::chrono::duration<double>(every_).count()));
    }
    return false;
  }
  b.tokens -= 1.0;
  return true;
}

}  // namespace bc::server
