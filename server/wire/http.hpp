// The bodies of the HTTP API's own answers (docs/PROTOCOL.md, "HTTP"): health and errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bc::server {

// HTTP API bodies.
struct Health {
  bool accepting = true;
  std::size_t rooms = 0;
  std::int64_t connections = 0;
  std::int64_t uptime_seconds = 0;
  // serve --cluster: this node's id, whether Redis answered its last renewal (a node without it
  // takes no rooms: unhealthy, 503), and the live nodes.
  struct Cluster {
    std::string node;
    bool redis = false;
    std::size_t nodes = 0;
  };
  std::optional<Cluster> cluster;
};
std::string health_json(const Health& h);
std::string http_error_json(std::string_view code, std::string_view message);

}  // namespace bc::server
