// Budgets per client address, shared by all that address's connections: a flooder cannot get a
// fresh budget by reconnecting or by opening more connections (issue 13). Thread-safe: sessions
// run on different I/O threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/room/rate_limit.hpp"
#include "server/wire/limits.hpp"

namespace bc::server {

class AddressLimiter {
 public:
  using Clock = TokenBucket::Clock;
  // Message: WebSocket messages; Join: joins; Api: HTTP /api/ requests; Create: creates.
  // Metrics: /metrics requests.
  enum class Kind : std::uint8_t { Message, Join, Api, Create, Analyse, Metrics };

  explicit AddressLimiter(const Limits& limits);

  // Takes one token of `kind` from `address`'s bucket: false if it has none (or true if that
  // kind has no limit). An empty address (not known) is not limited.
  bool take(std::string_view address, Kind kind, Clock::time_point now = Clock::now(),
            double tokens = 1.0);
  // Addresses with a bucket (for tests: idle ones are pruned).
  std::size_t size() const;

 private:
  struct Entry {
    TokenBucket messages;
    TokenBucket joins;
    TokenBucket api;
    TokenBucket creates;
    TokenBucket analyses;
    TokenBucket metrics;
    Clock::time_point last;
  };
  void prune(Clock::time_point now);  // under mu_

  const double message_rate_;
  const double message_burst_;
  const double join_rate_;  // per second
  const double join_burst_;
  const double api_rate_;
  const double api_burst_;
  const double create_rate_;  // per second
  const double create_burst_;
  const double analyse_rate_;  // per second
  const double analyse_burst_;
  const double metrics_rate_;  // per second
  const double metrics_burst_;
  // An entry idle this long has refilled all its buckets: dropping it changes nothing.
  const Clock::duration idle_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
  Clock::time_point next_prune_;
};

}  // namespace bc::server
