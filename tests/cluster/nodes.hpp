// The cluster tests' nodes: `bombcheckers serve --cluster` processes on one private PostgreSQL and
// one private Redis, and the clients' ways into them (tests/cluster/*_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include "../persist/tables.hpp"
#include "../support/postgres.hpp"
#include "../support/redis.hpp"

namespace bc::test {

using namespace std::chrono_literals;

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A node of the cluster.
inline Server node(const TempDir& dir, const std::string& store, const RedisServer& redis,
                   const std::string& id, std::vector<std::string> extra = {}) {
  // Games are played to their end as fast as they go, all from 127.0.0.1: no per-address limit.
  std::vector<std::string> args = {
      "--store", store, "--cluster", redis.url(), "--node-id", id, "--max-messages-per-address",
      "0"};
  for (auto& e : extra) args.push_back(std::move(e));
  return start(dir.path, args);
}

// Stops each node with SIGTERM: it must exit 0 (its rooms handed over, its leases released).
inline void stop_cleanly(std::initializer_list<Server*> nodes) {
  for (auto* s : nodes) {
    s->proc->signal(SIGTERM);
    EXPECT_EQ(s->proc->wait(10s), 0) << s->proc->stderr_text();
  }
}

// A client on `port` joins `room` (as a spectator without a token); its `joined`.
inline json join(std::unique_ptr<WsClient>& c, std::uint16_t port, const std::string& room,
                 const json& extra = json::object(), const std::string& target = "/ws",
                 std::chrono::milliseconds wait = kWait) {
  c = std::make_unique<WsClient>(port, target);
  c->expect("welcome");
  json msg = {{"type", "join"}, {"room", room}};
  msg.update(extra);
  c->send(msg);
  return c->expect("joined", wait);
}

// The room list of a node once it shows `room` (at most 5 s: owners write it every 1.5 s).
inline bool listed(std::uint16_t port, const std::string& room) {
  const auto until = Clock::now() + 5s;
  while (Clock::now() < until) {
    auto r = http_get(port, "/api/rooms");
    if (r.status == 200 && r.body.find("\"" + room + "\"") != std::string::npos) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

}  // namespace bc::test
