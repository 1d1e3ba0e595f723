// Counters and a latency histogram, updated lock-free from any thread and rendered in the
// Prometheus text format at /metrics.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "bc/store.hpp"
#include "server/wire/errors.hpp"
#include "server/wire/limits.hpp"

namespace bc::server {

class Histogram {
 public:
  // Upper bounds in seconds; a final +Inf bucket is implied.
  static constexpr std::array<double, 14> kBounds{0.00005, 0.0001, 0.00025, 0.0005, 0.001,
                                                  0.0025,  0.005,  0.01,    0.025,  0.05,
                                                  0.1,     0.25,   0.5,     1.0};
  void observe(std::chrono::nanoseconds d);
  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  void render(std::string& out, std::string_view name, std::string_view help) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> buckets_{};
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_ns_{0};
};

// Messages not sent to a congested connection (its queue past send_queue_coalesce): states
// replaced by a newer one, chats dropped.
enum class Shed : std::uint8_t { State, Chat };

struct RoomCounts {
  std::array<std::uint64_t, 3> by_status{};  // waiting, playing, finished
};

class Metrics {
 public:
  std::atomic<std::int64_t> ws_open{0};
  std::atomic<std::int64_t> http_open{0};
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> messages_received{0};
  std::atomic<std::uint64_t> actions_accepted{0};
  std::atomic<std::uint64_t> games_finished{0};
  std::atomic<std::uint64_t> rooms_created{0};
  std::atomic<std::uint64_t> rooms_retired{0};
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> slow_clients_dropped{0};
  std::atomic<std::uint64_t> flooders_closed{0};
  std::atomic<std::uint64_t> oversized_closed{0};
  Histogram move_to_broadcast;
  std::array<std::atomic<std::uint64_t>, 5> http_responses{};  // by status class 1xx..5xx
  std::atomic<std::uint64_t> api_rate_limited{0};  // /api/ requests refused by an address's bucket
  std::atomic<std::uint64_t> records_refused{0};   // game records refused: too many under way
  std::atomic<std::uint64_t> origin_refused{0};    // /ws upgrades refused with 403
  std::atomic<std::uint64_t> accept_errors{0};     // failed accepts (out of descriptors, ...)
  std::atomic<std::uint64_t> address_refused{0};   // connections over max_connections_per_address
  // Requests (WebSocket upgrades too) of a trusted proxy whose client came from X-Forwarded-For.
  std::atomic<std::uint64_t> forwarded_requests{0};
  std::atomic<std::uint64_t> rooms_evicted{0};     // idle rooms retired to make room for a create
  std::atomic<std::uint64_t> shutdown_notices{0};  // server_restarting notices sent
  std::atomic<std::uint64_t> tls_handshake_failures{0};  // TLS connections whose handshake failed
  // The computer's searches (ComputerPool): waiting for a thread, running, started, and put off
  // (nobody watching their room; the queue full), and how long each started one waited.
  std::atomic<std::int64_t> computer_queued{0};
  std::atomic<std::int64_t> computer_running{0};
  std::atomic<std::uint64_t> computer_searches{0};
  std::atomic<std::uint64_t> computer_dropped_unwatched{0};
  std::atomic<std::uint64_t> computer_dropped_full{0};
  Histogram computer_wait;

  void http_status(unsigned status) {
    if (status >= 100 && status < 600)
      http_responses[status / 100 - 1].fetch_add(1, std::memory_order_relaxed);
  }

  void limited(Limited l) {
    limited_[static_cast<std::size_t>(l)].fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t limited(Limited l) const {
    return limited_[static_cast<std::size_t>(l)].load(std::memory_order_relaxed);
  }
  void shed(Shed s, std::uint64_t n = 1) {
    shed_[static_cast<std::size_t>(s)].fetch_add(n, std::memory_order_relaxed);
  }
  std::uint64_t shed(Shed s) const {
    return shed_[static_cast<std::size_t>(s)].load(std::memory_order_relaxed);
  }
  // A spectator's join or leave whose state went to the joiner alone (the count follows later).
  std::atomic<std::uint64_t> spectator_updates_coalesced{0};

  void refused(ErrorCode c) {
    refusals_[static_cast<std::size_t>(c)].fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t refusals(ErrorCode c) const {
    return refusals_[static_cast<std::size_t>(c)].load(std::memory_order_relaxed);
  }
  std::string prometheus(const RoomCounts& rooms) const;

 private:
  std::array<std::atomic<std::uint64_t>, kErrorCodeCount> refusals_{};
  std::array<std::atomic<std::uint64_t>, kLimitedCount> limited_{};
  std::array<std::atomic<std::uint64_t>, 2> shed_{};
};

// The store's bc_store_* metrics: its files' bytes now, its rows and free pages as last measured
// (the maintenance thread, every store_maintenance_interval), what retention pruned, its commits.
std::string store_prometheus(const store::Store& store);

}  // namespace bc::server
