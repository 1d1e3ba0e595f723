// How a server is configured (serve's flags): address, store, cluster, threads, origins, proxies,
// TLS, limits and retention. Free of Boost, so that the app and tests include it cheaply.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bc/store.hpp"
#include "server/host/trusted_proxies.hpp"
#include "server/players/passwords.hpp"
#include "server/wire/limits.hpp"

namespace bc::server {

struct ServerConfig {
  std::string host = "0.0.0.0";
  std::uint16_t port = 8080;  // 0: any free port (see Server::port)
  std::filesystem::path web_root = "web";
  std::filesystem::path data_dir =
      "data";           // the store: data_dir/bombcheckers.db (created if needed)
  bool memory = false;  // a throwaway in-memory store instead (tests, benchmarks)
  // A postgres:// or postgresql:// URL: the store is that PostgreSQL database instead of
  // data_dir's SQLite file (data_dir is then not used, nor locked).
  std::string store;
  // serve --cluster: Redis's redis:// URL (empty: one node, no Redis), this node's id, and the
  // lease's time to live and renewal period (docs/CLUSTER.md). Needs a PostgreSQL store.
  std::string cluster;
  std::string cluster_password;  // serve --redis-password-file: wins over the URL's password
  std::string node_id;
  std::chrono::milliseconds lease_ttl{5000};
  std::chrono::milliseconds lease_renew{1500};
  int threads = 1;
  bool handle_signals = false;  // SIGINT / SIGTERM stop the server
  // Origins ("https://example.org", normalized by normalize_origin) whose pages may open /ws,
  // besides the server's own Host; empty: any origin (the default).
  std::vector<std::string> allowed_origins;
  // serve --trusted-proxy: a connection from one of these gives each request the client address
  // its X-Forwarded-For names (forwarded_client); from anyone else that header is ignored. Empty
  // (the default): every connection's address is its peer's.
  TrustedProxies trusted_proxies;
  // TLS (PEM files): both set, the port serves https:// and wss:// (plain http:// is redirected);
  // both empty, plain HTTP. start() refuses one without the other, or files it cannot use.
  std::filesystem::path tls_cert;
  std::filesystem::path tls_key;
  Limits limits;
  // What the store keeps of retired rooms, and for how long (docs/PROTOCOL.md, "Retention").
  store::Retention retention;
  // Players (docs/PLAYERS.md): off (serve --no-accounts), the server has no guests, accounts,
  // ratings or pools, as before them. `password_cost` Minimal only for tests.
  bool accounts = true;
  // The puzzle collection (docs/PUZZLES.md); empty: the web root's data/puzzles.json.
  std::filesystem::path puzzles;
  PasswordCost password_cost = PasswordCost::Interactive;
  std::chrono::milliseconds pool_wave{3000};  // serve --pool-wave-ms
  // Bots (docs/BOTS.md): may a bot challenge a bot (serve --bots-challenge-bots); the empty line a
  // quiet stream sends after this long (serve --stream-keepalive-ms).
  bool bots_challenge_bots = false;
  std::chrono::milliseconds stream_keepalive{7000};

  bool tls() const { return !tls_cert.empty() || !tls_key.empty(); }
};

}  // namespace bc::server
