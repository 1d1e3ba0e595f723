// A node of a cluster (serve --cluster redis://...; docs/CLUSTER.md): rooms are owned by leases
// in Redis (server/cluster/lease.hpp), one node runs each room, and a client connected to another
// node reaches it through a relay over Redis pub/sub (server/cluster/relay_codec.hpp). Redis is
// used on two threads of this class's own, never on an I/O thread or a room's strand: one sends
// commands (leases, heartbeats, publishes, the room list) and one reads this node's channel.
// Without
// --cluster none of this exists (SharedState::cluster is null).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/cluster/relay_codec.hpp"
#include "server/host/room_host.hpp"

namespace bc::server {

struct SharedState;

struct ClusterConfig {
  std::string url;       // redis://[[user]:password@]host[:port]
  std::string password;  // from serve --redis-password-file: wins over the URL's
  std::string node_id;   // unique among the nodes
  std::chrono::milliseconds lease_ttl{5000};
  std::chrono::milliseconds renew_every{1500};
  std::chrono::milliseconds redis_timeout{1000};
};

// A random id with the host's name, for --node-id's default.
std::string default_node_id();

// Where a join's room runs, as a node found it.
struct Placement {
  enum class Where : std::uint8_t {
    Local,        // here: the room is in the registry now
    Relay,        // on `owner`, which is alive
    Unknown,      // in no store: no such room
    Unavailable,  // Redis is unreachable, or the owner's lease did not expire in time
  } where = Where::Unavailable;
  std::string owner;
};

class Cluster {
 public:
  Cluster(ClusterConfig cfg, SharedState& state);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Connects, subscribes to this node's channel and starts the threads; an error for people.
  std::optional<std::string> start();
  // A clean stop, after the store's last commit: releases every lease (the next join elsewhere
  // takes the room at once), removes this node's heartbeat and room list entries, stops.
  void stop();

  const std::string& node_id() const { return cfg_.node_id; }
  bool redis_ok() const { return redis_ok_.load(); }
  std::size_t live_nodes() const { return live_nodes_.load(); }

  // Finds where `room` runs, taking it (and loading it from the store) if nobody holds it, or
  // waiting for a dead owner's lease to expire (at most the lease's time to live and a second).
  // `done` runs on the command thread.
  void resolve(std::string room, std::function<void(Placement)> done);
  // A fresh room id whose lease this node holds, for a create (nullopt: Redis unreachable, or
  // this node stopping). `done` runs on the command thread.
  void reserve(std::function<void(std::optional<std::string>)> done);
  // A room made here: its lease (made at once; a room id taken elsewhere meanwhile is retired).
  void claim(const std::string& room);
  // A room retired or handed over here: its lease and list entry go.
  void released(const std::string& room);
  // Hands every room this node runs to the others (a clean stop): their members are told to
  // reconnect; the leases go in stop(), once the store has committed.
  void hand_over_all();

  // The relay, on the connection's node: a frame for `owner`'s room, and a connection gone.
  void forward(const std::string& owner, RelayRequest r);
  void bye(const std::string& owner, MemberId conn);
  // The owner's side: what a room sends to a relayed member, batched per node (any thread).
  void send_out(const std::string& node, MemberId conn, Peer::Texts texts, bool handled,
                RelayEvent event);

  // /api/rooms of the whole cluster (JSON array text); `done` on the command thread.
  void list_rooms(std::function<void(std::optional<std::string>)> done);

  // Prometheus series of the cluster (bc_cluster_*), for /metrics.
  std::string prometheus() const;

  struct Impl;

 private:
  void resolve_step(std::string room, std::function<void(Placement)> done,
                    std::chrono::steady_clock::time_point deadline);
  Placement load(const std::string& room);
  void lose(const std::vector<std::string>& rooms, const char* why);
  void tick();
  void count_nodes();
  // Nodes this one depends on: owners it relays to, and nodes of its relayed members.
  std::vector<std::string> watched_nodes();
  // Drops what this node holds for `nodes` (relayed connections told to reconnect, their members
  // here out of their rooms and their nodes told to close them); `why` for the log.
  void nodes_gone(const std::vector<std::string>& nodes, std::string_view why = "is gone");
  void publish_summaries();
  // The room list in Redis: room id -> (owner node, summary), and the owners that are gone.
  struct RoomList {
    std::map<std::string, std::pair<std::string, std::string>> rooms;
    std::set<std::string> dead;
  };
  std::optional<RoomList> read_room_list();
  // Takes over (a few at a time) the listed rooms of nodes that died, once their leases expired,
  // so that their clocks run and they are listed even if nobody joins them.
  void adopt_orphans();
  void forget_summaries(const std::vector<std::string>& rooms);
  void flush_outs();
  void publish(const std::string& node, const RelayMessage& m);
  void read_loop();
  void handle(const std::string& text);
  // `asked`: a join for a room not here was put through resolve() once already.
  void handle_request(RelayRequest r, bool asked = false);
  void handle_bye(const RelayBye& b);
  void handle_out(const RelayOut& o);

  ClusterConfig cfg_;
  SharedState& state_;
  std::unique_ptr<Impl> impl_;
  std::atomic<bool> redis_ok_{false};
  std::atomic<std::size_t> live_nodes_{0};
};

}  // namespace bc::server
