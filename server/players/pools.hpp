// Quick pairing (docs/PLAYERS.md, "Pools"): signed-in players wait in a pool of one variant and
// time control; every wave (a few seconds, or at once when a pool fills) pairs them by rating
// (bc/players/pairing.hpp) and starts a rated game for each pair. Runs on a strand of its own;
// the members are connections, told through PoolMember.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bc/core.hpp"
#include "server/game/clock.hpp"
#include "server/wire/identity.hpp"

namespace bc::server {

// A pool: its id ("bomb-3+2"), its game and the perf it is rated in.
struct PoolSpec {
  std::string id;
  VariantId variant = VariantId::Bomb;
  TimeControl clock;
  std::string perf;
};
// Every pool: each variant by each of the presets a client offers.
const std::vector<PoolSpec>& pool_specs();
const PoolSpec* find_pool(std::string_view id);
// `welcome`'s `players`: {"accounts":true,"pools":[{"id","variant","clock","perf"}]}.
std::string players_welcome_json();

// A connection waiting in a pool, as the pools see it. Calls come from the pools' strand; each
// posts to the connection's own.
class PoolMember {
 public:
  virtual ~PoolMember() = default;
  // A pair was made: this member makes the room (a rated create keeping the other seat for
  // `opponent`), and calls `made` with the room's id ("" if it could not).
  virtual void pool_create(const PoolSpec& pool, const Identity& opponent_id,
                           std::function<void(std::string room)> made) = 0;
  // A pair was made and its room is `room`: this member joins it.
  virtual void pool_join(const PoolSpec& pool, std::string room) = 0;
  // Out of the pool without a game (the pair's room could not be made): why, in words.
  virtual void pool_dropped(std::string why) = 0;
  // How many wait in its pool now (after a wave, when it changed).
  virtual void pool_waiting(const std::string& pool, std::size_t waiting) = 0;
};

class Pools : public std::enable_shared_from_this<Pools> {
 public:
  struct Params {
    std::chrono::milliseconds wave_every{3000};
    std::size_t full = 20;  // a pool this size waves at once
  };
  Pools(boost::asio::any_io_executor executor, Params params);
  Pools(const Pools&) = delete;
  Pools& operator=(const Pools&) = delete;

  void start();
  void stop();

  // `member` (connection `id`, player `who`) waits in `pool` (a valid id); it leaves any other.
  // `waiting` is called back (on the pools' strand) with the pool's size after it entered.
  void enter(std::uint64_t id, std::string pool, Identity who, std::weak_ptr<PoolMember> member,
             std::function<void(std::size_t waiting)> waiting);
  void leave(std::uint64_t id);
  // How many wait in each pool (tests, metrics): by pool id. Only on the strand or after stop.
  std::size_t waiting(const std::string& pool) const;

  // One wave now (tests): pairs every pool that can be.
  void wave_now();

 private:
  struct Waiting {
    std::uint64_t id;
    Identity who;
    double rating;
    std::int64_t since_ms;
    std::weak_ptr<PoolMember> member;
  };
  void schedule();
  void wave(const std::string& pool);

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::steady_timer timer_;
  Params params_;
  bool stopped_ = false;
  std::unordered_map<std::string, std::vector<Waiting>> pools_;
  std::unordered_map<std::uint64_t, std::string> where_;        // connection -> its pool
  std::unordered_map<std::string, std::string> last_opponent_;  // player -> the last one paired
  std::unordered_map<std::string, std::size_t> told_;           // pool -> the count last told
};

}  // namespace bc::server
