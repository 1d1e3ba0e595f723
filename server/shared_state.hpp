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
#include "server/metrics.hpp"
#include "server/registry.hpp"
#include "server/server.hpp"

namespace bc::server {

class WebSocketPeer;

struct SharedState {
  SharedState(net::io_context& ioc, ServerConfig cfg);

  const ServerConfig config;
  const Limits& limits;
  Metrics metrics;
  Registry registry;
  store::Store* store = nullptr;  // owned by the Server; set before listening
  std::filesystem::path web_root;  // canonical
  std::shared_ptr<const std::string> welcome;
  std::atomic<MemberId> next_member{1};
  std::atomic<bool> stopping{false};
  const Clock::time_point started = Clock::now();

  void add(MemberId id, std::weak_ptr<WebSocketPeer> s);
  void remove(MemberId id);
  void close_all_sessions();

 private:
  std::mutex mu_;
  std::unordered_map<MemberId, std::weak_ptr<WebSocketPeer>> sessions_;
};

}  // namespace bc::server
