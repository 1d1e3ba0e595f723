// The game server: one port for HTTP and WebSocket (docs/PROTOCOL.md). This header is free of Boost
// so that the app and tests include it cheaply; the network layer lives behind it.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/host/config.hpp"

namespace bc::server {

class Metrics;

class Server {
 public:
  explicit Server(ServerConfig config);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; an error message for a person if it cannot.
  std::optional<std::string> start();
  std::uint16_t port() const;
  // Runs the server on config.threads threads (this one included) until stop().
  void run();
  // Stops accepting, closes every connection (1001 going away) and makes run() return. Any thread.
  void stop();

  const Metrics& metrics() const;
  std::size_t room_count() const;
  // Rooms rebuilt from the store at start, and rooms whose logs did not replay.
  std::pair<std::size_t, std::size_t> restored() const;

 private:
  std::optional<std::string> open_store();

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The machine's non-loopback IPv4 and IPv6 addresses (getifaddrs), for the "open this URL" log.
std::vector<std::string> lan_addresses();

}  // namespace bc::server
