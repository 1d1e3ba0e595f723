// The session manager: finds, makes and retires rooms. Each room lives in a RoomHost, which runs
// the socket-free Room on its own strand and hands the Room's outgoing messages to the connections
// (Peers) of its members. Only the map of rooms is locked; room logic never is.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "bc/store.hpp"
#include "server/host/analysis.hpp"
#include "server/host/metrics.hpp"
#include "server/host/room_host.hpp"
#include "server/room/room.hpp"
#include "server/wire/limits.hpp"
#include "server/wire/views.hpp"

namespace bc::server {

// Room ids: 6 characters from an alphabet without 0/O, 1/I/L, easy to read aloud and type.
inline constexpr std::string_view kRoomIdAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
inline constexpr std::size_t kRoomIdLength = 6;
std::string make_room_id(std::uint64_t random_bits);
// Upper-cases and checks a room id from a client; nullopt if it cannot be one.
std::optional<std::string> normalize_room_id(std::string_view id);

class Registry {
 public:
  // one_thread: only one thread runs `ioc`, so rooms need no strands (serial_executor()).
  Registry(net::io_context& ioc, const Limits& limits, Metrics& metrics, bool one_thread = false);

  // From now on rooms write to `store`. Call before any room is made.
  void set_store(store::Store* store) { store_ = store; }
  // Rebuilds every unfinished room of the store by replaying its log. A room whose log does not
  // replay is logged (room id, first bad version) and left in the store untouched; the others
  // load. Returns the rooms loaded and the rooms that failed.
  std::pair<std::size_t, std::size_t> restore_all();

  // A new room with a fresh id, made by a client at `address` (empty: not counted); null when the
  // server holds max_rooms (`refused` = server_full) or the address its max_rooms_per_address and
  // none of its rooms can be retired (too_many_rooms). `id`: one reserved for it (the cluster's
  // lease taken first, Cluster::reserve), else a fresh one.
  std::shared_ptr<RoomHost> create(GameSetup setup, const std::string& address = {},
                                   ErrorCode* refused = nullptr, std::string id = {});
  std::shared_ptr<RoomHost> find(std::string_view id) const;
  // Cluster (server/cluster/cluster.hpp): a room whose lease this node just took, rebuilt from its
  // rows as restore_all() does (false: its log does not replay); one already here stays.
  bool adopt(const store::LoadedRoom& stored);
  // Cluster: the room stops running here without being retired in the store (its lease is lost,
  // or the node stops cleanly); its members are told to reconnect (Peer::moved).
  void hand_over(const std::string& id, std::string why);
  void hand_over_all(std::string why);
  // Cluster: told of every room made here (its lease) and retired here (its lease goes).
  void on_rooms(std::function<void(const std::string&)> created,
                std::function<void(const std::string&)> retired) {
    created_ = std::move(created);
    retired_ = std::move(retired);
  }
  net::io_context::executor_type executor() { return ioc_.get_executor(); }
  // A room id in use neither here nor in the store (takes mu_ briefly; the store outside it).
  std::string fresh_id();
  std::vector<RoomSummary> list() const;
  RoomCounts counts() const;
  std::size_t size() const;
  // Removes the rooms due for retirement (limits' TTLs) and retires them.
  std::size_t sweep(Clock::time_point now);
  // Retires every room (server shutdown).
  void close_all(std::string why);
  // Shutdown: abandons every search under way and starts no more (any thread)...
  void stop_computers();
  // ...and waits for the searches to end. Call after the I/O threads have stopped, before the
  // io_context is destroyed.
  void drain_computers();

 private:
  net::io_context& ioc_;
  bool one_thread_;
  const Limits& limits_;
  Metrics& metrics_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<RoomHost>> rooms_;
  // Creator's address of each room made by a client, and how many each address has (under mu_).
  std::unordered_map<std::string, std::string> address_of_room_;
  std::unordered_map<std::string, std::size_t> rooms_of_address_;
  void forget_address(const std::string& room);  // under mu_
  // At its limit: the address's oldest room with nobody in it and no game under way, taken out of
  // the map (under mu_); null if there is none.
  std::shared_ptr<RoomHost> evictable_room(const std::string& address);
  std::mt19937_64 rng_;
  std::function<void(const std::string&)> created_, retired_;
  // A room from its stored rows; why not in `error`.
  std::shared_ptr<RoomHost> rebuild(const store::LoadedRoom& stored, std::string& error);
  store::Store* store_ = nullptr;
  // Before the pool: the pool's threads (joined when it goes) may be running an analysis.
  Analyst analyst_;
  ComputerPool computers_;

 public:
  Analyst& analyst() { return analyst_; }
};

}  // namespace bc::server
