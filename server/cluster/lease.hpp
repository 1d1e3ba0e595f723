// Room ownership by leases in Redis (docs/CLUSTER.md, "Leases"): bc:owner:ROOM holds the node
// id of the one node that runs the room, with a time to live. A node acquires a free room with
// SET NX PX, renews all its rooms with one script per batch (compare and PEXPIRE: only a lease it
// still holds), and releases with compare and DEL. Its liveness is bc:node:ID, a heartbeat key
// with the same time to live. Calls block on Redis: the cluster's command thread only.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "server/cluster/redis.hpp"

namespace bc::server {

std::string owner_key(const std::string& room);
std::string node_key(const std::string& node);

class Leases {
 public:
  // `incarnation`: what this run of the node writes in its heartbeat key, so that the others
  // can tell a node that restarted within a lease from one that never stopped.
  Leases(Redis& redis, std::string node, std::chrono::milliseconds ttl,
         std::string incarnation = "1")
      : redis_(redis), node_(std::move(node)), ttl_(ttl), incarnation_(std::move(incarnation)) {}

  struct Owner {
    std::optional<std::string> node;  // none: the room is free
    bool alive = false;               // its node's heartbeat is there
  };
  // Who holds `room` (nullopt: Redis failed).
  std::optional<Owner> owner(const std::string& room);
  // True: this node holds it now (also when it already did); false: another does.
  std::optional<bool> acquire(const std::string& room);
  // Extends the leases of `rooms` this node still holds; the ones it lost (expired, or taken by
  // another node). nullopt: Redis failed, nothing is known.
  std::optional<std::vector<std::string>> renew(const std::vector<std::string>& rooms);
  // Compare and delete: a lease another node took meanwhile stays. False: Redis failed.
  bool release(const std::vector<std::string>& rooms);
  // Sets this node's heartbeat key; the incarnations of the nodes of `others` in order ("" for a
  // node whose heartbeat is gone). nullopt: Redis failed.
  std::optional<std::vector<std::string>> heartbeat(const std::vector<std::string>& others);
  // Deletes the heartbeat key (a clean stop).
  bool leave();
  std::chrono::milliseconds ttl() const { return ttl_; }

 private:
  Redis& redis_;
  std::string node_;
  std::chrono::milliseconds ttl_;
  std::string incarnation_;
};

}  // namespace bc::server
