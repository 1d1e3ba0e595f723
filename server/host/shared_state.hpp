// What every connection of one server shares: configuration, metrics, the room registry and the
// set of live WebSocket sessions (so that shutdown can close them).
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "bc/store.hpp"
#include "server/host/address_limits.hpp"
#include "server/host/config.hpp"
#include "server/host/metrics.hpp"
#include "server/host/puzzles.hpp"
#include "server/host/records.hpp"
#include "server/host/registry.hpp"
#include "server/players/accounts.hpp"
#include "server/players/pools.hpp"

namespace bc::server {

// What the server sees of a WebSocket session whatever its stream: the room's Peer, and shutdown.
class WebSocketPeer : public Peer {
 public:
  // Server shutdown: a `server_restarting` notice, then close with 1001 (going away). Any thread.
  virtual void shutdown() = 0;
  // Cluster relay (server/cluster/cluster.hpp), any thread: the owner answered the join this
  // connection relayed (`joined`: it is a member there), or took it out of the room.
  virtual void relay_answered(bool joined) = 0;
  virtual void relay_detached() = 0;
};

class Cluster;
class Bots;    // server/bots/bots.hpp
class Tokens;  // server/players/tokens.hpp
struct SharedState;

// One connection's place in its address's count (Limits::max_connections_per_address), held by
// whichever object owns the connection (TLS detection, HTTP session, WebSocket session) and given
// back when the last of them lets go.
//
// A connection from a trusted proxy (ServerConfig::trusted_proxies) has a slot that is not counted:
// its requests come from many clients, each named by X-Forwarded-For. The HTTP session gives each
// request its client's address, and a WebSocket upgrade takes a counted slot for its client.
class AddressSlot {
 public:
  AddressSlot(std::shared_ptr<SharedState> state, std::string address, bool proxy = false)
      : state_(std::move(state)), address_(std::move(address)), proxy_(proxy) {}
  ~AddressSlot();
  AddressSlot(const AddressSlot&) = delete;
  AddressSlot& operator=(const AddressSlot&) = delete;
  // The peer's address (a trusted proxy's own, for a proxy's connection).
  const std::string& address() const { return address_; }
  // A trusted proxy's connection: not counted against its address.
  bool proxy() const { return proxy_; }

 private:
  std::shared_ptr<SharedState> state_;
  std::string address_;
  const bool proxy_;
};
using AddressTicket = std::shared_ptr<const AddressSlot>;

struct SharedState {
  SharedState(net::io_context& ioc, ServerConfig cfg);

  const ServerConfig config;
  const Limits& limits;
  Metrics metrics;
  Registry registry;
  RecordWorks records;  // /api/games/...: store reads and replays, off the I/O threads
  // Messages, joins and /api/ requests of each address, all its connections together.
  AddressLimiter address_limits;
  store::Store* store = nullptr;  // owned by the Server; set before listening
  // Players (docs/PLAYERS.md); both null with accounts off. Set with the store.
  std::unique_ptr<Accounts> accounts;
  std::shared_ptr<Pools> pools;
  // Bots (docs/BOTS.md): their tokens and their service; null with accounts off or a cluster.
  std::shared_ptr<Tokens> tokens;
  std::shared_ptr<Bots> bots;
  // serve --cluster: this node's part of the cluster (server/cluster/cluster.hpp); null without it.
  std::shared_ptr<Cluster> cluster;
  std::filesystem::path web_root;  // canonical
  // The puzzle collection, read once at start (docs/PUZZLES.md); never null once started.
  std::shared_ptr<const PuzzleCollection> puzzles = std::make_shared<const PuzzleCollection>();
  std::shared_ptr<const std::string> welcome;
  std::atomic<MemberId> next_member{1};
  std::atomic<bool> stopping{false};
  const Clock::time_point started = Clock::now();

  void add(MemberId id, std::weak_ptr<WebSocketPeer> s);
  void remove(MemberId id);
  // The live session with this id, if any (the relay delivers to it).
  std::shared_ptr<WebSocketPeer> session(MemberId id);
  void close_all_sessions();

  // A new connection from `address`: its slot, or null when the address has its limit open.
  static AddressTicket admit(const std::shared_ptr<SharedState>& self, std::string address);
  // A new connection from a trusted proxy at `address`: an uncounted slot (AddressSlot::proxy).
  static AddressTicket admit_proxy(const std::shared_ptr<SharedState>& self, std::string address);

 private:
  friend class AddressSlot;
  std::mutex mu_;
  std::unordered_map<MemberId, std::weak_ptr<WebSocketPeer>> sessions_;
  std::unordered_map<std::string, std::size_t> connections_by_address_;  // under mu_
};

}  // namespace bc::server
