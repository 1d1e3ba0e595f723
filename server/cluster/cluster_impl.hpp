// The inside of a cluster node (server/cluster/cluster.hpp), shared by cluster.cpp (threads,
// leases, the room list) and relay.cpp (the relay's two ends).
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

#include "server/cluster/cluster.hpp"
#include "server/cluster/lease.hpp"
#include "server/cluster/redis.hpp"

namespace bc::server {

// One thread that runs posted tasks in order, and timed ones when due.
class TaskThread {
 public:
  using Task = std::function<void()>;
  void start();
  void post(Task t);
  void post_after(std::chrono::milliseconds delay, Task t);
  // Runs what is queued (not what is timed), then ends the thread.
  void stop();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;
  std::multimap<std::chrono::steady_clock::time_point, Task> timed_;
  bool stopping_ = false;
  std::thread thread_;
};

class RemotePeer;

struct Cluster::Impl {
  Impl(const ClusterConfig& cfg, const RedisAddress& where, std::string incarnation)
      : host(where.host),
        port(where.port),
        commands(where, cfg.redis_timeout),
        subscriber(where, cfg.redis_timeout),
        relay_commands(where, cfg.redis_timeout),
        leases(commands, cfg.node_id, cfg.lease_ttl, std::move(incarnation)) {}
  std::string host;
  int port = 6379;
  Redis commands;    // the command thread's
  Redis subscriber;  // the subscriber thread's
  // The relay's sending side has its own thread and connection: the worker also loads rooms from
  // the store (joins, takeovers, the orphan sweep), and a burst of those held relayed states and
  // requests back by up to a lease (the history checker's open clock charges).
  Redis relay_commands;
  Leases leases;
  TaskThread worker;
  TaskThread relay;
  std::thread reader;
  std::atomic<bool> stopping{false};
  bool started = false;  // the threads run (start() succeeded)

  // Command thread only.
  std::set<std::string> owned;  // rooms this node runs, by lease
  std::chrono::steady_clock::time_point last_renewed{};
  bool stopped = false;
  std::uint64_t ticks = 0;
  // Every other live node's run, as last read from this node's start on: a restart within a
  // lease is noticed even when this node began to relay to it just before.
  std::map<std::string, std::string> incarnations;
  std::vector<std::string> live;  // the nodes of bc:nodes but this one, as last read

  // Connection side of the relay: connections of this node relayed to each owner node.
  std::mutex relay_mu;
  std::map<std::string, std::set<MemberId>> relayed;

  // Owner side: relayed members here, by (their node, their connection id).
  std::mutex remote_mu;
  std::map<std::pair<std::string, MemberId>, std::shared_ptr<RemotePeer>> remotes;

  // What rooms here said to relayed members, per node, until the command thread publishes it.
  struct PendingOut {
    RelayOut out;
    std::vector<Peer::Text> keep;  // the texts indexed below stay alive (their addresses key it)
    std::unordered_map<const std::string*, int> index;
  };
  std::mutex out_mu;
  std::map<std::string, PendingOut> outs;
  bool flush_posted = false;

  // Metrics.
  std::atomic<std::uint64_t> relayed_in{0}, relayed_out{0}, publishes{0};
  // Requests published to a node nobody listened for (down): their clients told to reconnect.
  std::atomic<std::uint64_t> unheard{0};
  std::atomic<std::uint64_t> acquired{0}, lost{0}, released{0}, redis_errors{0};
  std::atomic<std::int64_t> renew_us{0};
  std::atomic<std::size_t> owned_count{0};
};

}  // namespace bc::server
