// How often one key (an address, an account name) may try something: a token bucket per key, in
// a table of bounded size. Any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace bc::server {

class Attempts {
 public:
  // `burst` tries at once, then one every `every`; at most `max_keys` keys are remembered (the
  // table is swept of full buckets when it reaches them, and refuses new keys while still full).
  Attempts(double burst, std::chrono::milliseconds every, std::size_t max_keys = 100'000);
  using Clock = std::chrono::steady_clock;
  // Takes a try for `key`; false (and nothing taken) when it has none left. `wait`: the seconds
  // until the next try, when refused.
  bool take(const std::string& key, Clock::time_point now, int* wait = nullptr);

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  double refilled(const Bucket& b, Clock::time_point now) const;
  const double burst_;
  const std::chrono::milliseconds every_;
  const std::size_t max_keys_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace bc::server
