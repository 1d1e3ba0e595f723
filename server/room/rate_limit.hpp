// A token bucket: `rate` tokens a second up to `burst`; each message takes one.
#pragma once

#include <algorithm>
#include <chrono>

namespace bc::server {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;
  TokenBucket(double rate, double burst, Clock::time_point now = Clock::now())
      : rate_(rate), burst_(burst), tokens_(burst), last_(now) {}

  bool take(Clock::time_point now = Clock::now(), double n = 1.0) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    if (elapsed > 0) {
      tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
      last_ = now;
    }
    if (tokens_ < n) return false;
    tokens_ -= n;
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

}  // namespace bc::server
