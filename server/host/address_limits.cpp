#include "server/host/address_limits.hpp"

#include <algorithm>

namespace bc::server {

namespace {

AddressLimiter::Clock::duration refill_time(double rate, double burst) {
  if (rate <= 0) return {};
  return std::chrono::duration_cast<AddressLimiter::Clock::duration>(
      std::chrono::duration<double>(burst / rate));
}

constexpr auto kPruneEvery = std::chrono::seconds(10);

}  // namespace

AddressLimiter::AddressLimiter(const Limits& limits)
    : message_rate_(limits.address_rate_per_second),
      message_burst_(std::max(1.0, limits.address_rate_burst)),
      join_rate_(static_cast<double>(limits.joins_per_address_per_minute) / 60.0),
      join_burst_(
          static_cast<double>(std::max<std::size_t>(1, limits.joins_per_address_per_minute))),
      api_rate_(limits.api_rate_per_second),
      api_burst_(std::max(1.0, limits.api_burst)),
      create_rate_(static_cast<double>(limits.creates_per_address_per_minute) / 60.0),
      create_burst_(
          std::max(1.0, 3.0 * static_cast<double>(limits.creates_per_address_per_minute))),
      analyse_rate_(static_cast<double>(limits.analyses_per_address_per_minute) / 60.0),
      analyse_burst_(
          std::max(kHistoryCost, static_cast<double>(limits.analyses_per_address_per_minute))),
      metrics_rate_(limits.metrics_rate_per_second),
      metrics_burst_(std::max(1.0, limits.metrics_burst)),
      idle_(std::max({refill_time(message_rate_, message_burst_),
                      refill_time(join_rate_, join_burst_), refill_time(api_rate_, api_burst_),
                      refill_time(create_rate_, create_burst_),
                      refill_time(analyse_rate_, analyse_burst_),
                      refill_time(metrics_rate_, metrics_burst_)}) +
            std::chrono::seconds(1)),
      next_prune_(Clock::now() + kPruneEvery) {}

bool AddressLimiter::take(std::string_view address, Kind kind, Clock::time_point now,
                          double tokens) {
  const double rate = kind == Kind::Message   ? message_rate_
                      : kind == Kind::Join    ? join_rate_
                      : kind == Kind::Api     ? api_rate_
                      : kind == Kind::Create  ? create_rate_
                      : kind == Kind::Analyse ? analyse_rate_
                                              : metrics_rate_;
  const bool limited = rate > 0;
  if (!limited || address.empty()) return true;
  std::lock_guard lock(mu_);
  if (now >= next_prune_) prune(now);
  auto it = entries_.find(std::string(address));
  if (it == entries_.end()) {
    it = entries_
             .emplace(std::string(address),
                      Entry{TokenBucket(message_rate_, message_burst_, now),
                            TokenBucket(join_rate_, join_burst_, now),
                            TokenBucket(api_rate_, api_burst_, now),
                            TokenBucket(create_rate_, create_burst_, now),
                            TokenBucket(analyse_rate_, analyse_burst_, now),
                            TokenBucket(metrics_rate_, metrics_burst_, now), now})
             .first;
  }
  it->second.last = now;
  auto& bucket = kind == Kind::Message   ? it->second.messages
                 : kind == Kind::Join    ? it->second.joins
                 : kind == Kind::Api     ? it->second.api
                 : kind == Kind::Create  ? it->second.creates
                 : kind == Kind::Analyse ? it->second.analyses
                                         : it->second.metrics;
  return bucket.take(now, tokens);
}

std::size_t AddressLimiter::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

void AddressLimiter::prune(Clock::time_point now) {
  std::erase_if(entries_, [&](const auto& kv) { return now - kv.second.last > idle_; });
  next_prune_ = now + kPruneEvery;
}

}  // namespace bc::server
