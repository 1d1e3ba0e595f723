// `bombcheckers serve`: the game server. Flags, each with an environment twin; flags win.
#include <arpa/inet.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "bot_flags.hpp"
#include "commands.hpp"
#include "flags.hpp"
#include "retention_flags.hpp"
#include "server/cluster/redis.hpp"
#include "server/net/lan.hpp"
#include "server/net/log_format.hpp"
#include "server/net/origin.hpp"
#include "server/net/server.hpp"

namespace bc::app {
namespace {

namespace fs = std::filesystem;

bool valid_host(const std::string& h) {
  if (h == "localhost") return true;
  unsigned char buf[sizeof(in6_addr)];
  return inet_pton(AF_INET, h.c_str(), buf) == 1 || inet_pton(AF_INET6, h.c_str(), buf) == 1;
}

std::optional<spdlog::level::level_enum> parse_level(std::string_view s) {
  if (s == "trace") return spdlog::level::trace;
  if (s == "debug") return spdlog::level::debug;
  if (s == "info") return spdlog::level::info;
  if (s == "warn" || s == "warning") return spdlog::level::warn;
  if (s == "error") return spdlog::level::err;
  if (s == "critical") return spdlog::level::critical;
  if (s == "off") return spdlog::level::off;
  return std::nullopt;
}

fs::path default_web_root() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path beside = exe.parent_path().parent_path() / "web";  // build/bombcheckers -> web/
    if (fs::is_regular_file(beside / "index.html", ec)) return beside;
  }
  fs::path here = fs::current_path(ec) / "web";
  if (fs::is_directory(here, ec)) return here;
  return exe.empty() ? fs::path("web") : exe.parent_path().parent_path() / "web";
}

// What the flags set: the server's configuration and how `serve` itself logs and shows its link.
struct Settings {
  server::ServerConfig cfg;
  spdlog::level::level_enum level = spdlog::level::info;
  bool json_logs = false;
  bool web_root_given = false;
  int qr = -1;  // -1: only when stderr is a terminal
};

using Setting = std::optional<std::string>;

std::optional<bool> yes_no(std::string_view v) {
  if (v == "1" || v == "true" || v == "yes") return true;
  if (v == "0" || v == "false" || v == "no") return false;
  return std::nullopt;
}

Setting set_host(Settings& s, std::string_view v) {
  if (!valid_host(std::string(v))) return "not an IPv4 or IPv6 address";
  s.cfg.host = std::string(v);
  return std::nullopt;
}

Setting set_port(Settings& s, std::string_view v) {
  auto p = parse_whole(v, 0, 65535);
  if (!p) return "the port must be a whole number from 0 to 65535";
  s.cfg.port = static_cast<std::uint16_t>(*p);
  return std::nullopt;
}

Setting set_web_root(Settings& s, std::string_view v) {
  if (!fs::is_directory(fs::path(v))) return "no such directory";
  s.cfg.web_root = fs::path(v);
  s.web_root_given = true;
  return std::nullopt;
}

// A path of the configuration (the data directory, the puzzle collection).
template <fs::path server::ServerConfig::*Field>
Setting set_path(Settings& s, std::string_view v) {
  if (v.empty()) return "empty path";
  s.cfg.*Field = fs::path(v);
  return std::nullopt;
}

Setting set_store(Settings& s, std::string_view v) {
  if (!store::is_postgres_url(v)) {
    return "a postgres:// or postgresql:// URL (SQLite, the default, lives in --data-dir)";
  }
  s.cfg.store = std::string(v);
  return std::nullopt;
}

Setting set_cluster(Settings& s, std::string_view v) {
  if (!server::redis_address(v)) return "a redis://[[user]:password@]host[:port] URL";
  s.cfg.cluster = std::string(v);
  return std::nullopt;
}

// The Redis password from a file (its first line), so that it is in no command line or
// environment a process listing shows.
Setting set_redis_password_file(Settings& s, std::string_view v) {
  std::ifstream in{std::string(v)};
  std::string line;
  if (!in || !std::getline(in, line)) return "a readable file whose first line is the password";
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (line.empty()) return "a file whose first line is the password (it is empty)";
  s.cfg.cluster_password = std::move(line);
  return std::nullopt;
}

Setting set_node_id(Settings& s, std::string_view v) {
  if (v.empty() || v.size() > 64 ||
      v.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
          std::string_view::npos)
    return "1 to 64 letters, digits, '-', '_' or '.'";
  s.cfg.node_id = std::string(v);
  return std::nullopt;
}

Setting set_log_level(Settings& s, std::string_view v) {
  auto l = parse_level(v);
  if (!l) return "the level must be trace, debug, info, warn, error, critical or off";
  s.level = *l;
  return std::nullopt;
}

Setting set_threads(Settings& s, std::string_view v) {
  auto t = parse_whole(v, 1, 256);
  if (!t) return "the number of threads must be from 1 to 256";
  s.cfg.threads = static_cast<int>(*t);
  return std::nullopt;
}

Setting set_log_format(Settings& s, std::string_view v) {
  if (v != "text" && v != "json") return "the log format must be text or json";
  s.json_logs = v == "json";
  return std::nullopt;
}

// A comma-separated list (the flags' values joined, or the variable's).
Setting set_allowed_origins(Settings& s, std::string_view list) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    auto o = server::normalize_origin(item);
    if (!o) {
      return std::string(item) +
             ": an origin is scheme://host[:port], like https://games.example.org";
    }
    s.cfg.allowed_origins.push_back(*o);
  }
  return std::nullopt;
}

Setting set_trusted_proxies(Settings& s, std::string_view list) {
  std::string error;
  auto t = server::TrustedProxies::parse(list, error);
  if (!t) return error;
  s.cfg.trusted_proxies = std::move(*t);
  return std::nullopt;
}

Setting set_tls_cert(Settings& s, std::string_view v) {
  if (v.empty()) return "needs a file name";
  s.cfg.tls_cert = std::string(v);
  return std::nullopt;
}

Setting set_tls_key(Settings& s, std::string_view v) {
  if (v.empty()) return "needs a file name";
  s.cfg.tls_key = std::string(v);
  return std::nullopt;
}

// A whole number in [lo, hi] into `out`; `zero` says what 0 means, for the message ("no limit").
template <class T>
Setting set_whole(T& out, std::string_view v, long long lo, long long hi,
                  std::string_view zero = {}) {
  auto n = parse_whole(v, lo, hi);
  if (!n) {
    return "a whole number from " + std::to_string(lo) +
           (zero.empty() ? std::string() : " (" + std::string(zero) + ")") + " to " +
           std::to_string(hi);
  }
  out = static_cast<T>(*n);
  return std::nullopt;
}

// A per-address limit of Limits, 0 = no limit.
template <std::size_t server::Limits::*Field>
Setting set_per_address(Settings& s, std::string_view v) {
  return set_whole(s.cfg.limits.*Field, v, 0, 1000000, "no limit");
}

// A per-address rate of Limits (N a second, 0 = no limit) and its bucket's burst, Burst x N.
template <double server::Limits::*Rate, double server::Limits::*BurstField, int Burst>
Setting set_rate(Settings& s, std::string_view v) {
  auto e = set_whole(s.cfg.limits.*Rate, v, 0, 1000000, "no limit");
  s.cfg.limits.*BurstField = Burst * s.cfg.limits.*Rate;
  return e;
}

Setting set_memory(Settings& s, std::string_view v) {
  auto b = yes_no(v);
  if (!b) return "use 1 or 0";
  s.cfg.memory = *b;
  return std::nullopt;
}

Setting set_no_accounts(Settings& s, std::string_view v) {
  auto b = yes_no(v);
  if (!b) return "use 1 or 0";
  s.cfg.accounts = !*b;
  return std::nullopt;
}

Setting set_qr(Settings& s, std::string_view v) {
  auto b = yes_no(v);
  if (!b) return "use 1 or 0";
  s.qr = *b ? 1 : 0;
  return std::nullopt;
}

const Flag<Settings> kServeFlags[] = {
    {"--host", "BOMBCHECKERS_HOST", "ADDR",
     "address to listen on (default 0.0.0.0: every interface)", set_host},
    {"--port", "BOMBCHECKERS_PORT", "N",
     "port for HTTP and WebSocket, 0 = any free port (default 8080)", set_port},
    {"--web-root", "BOMBCHECKERS_WEB_ROOT", "DIR",
     "the web client's files (default: web/ beside the build folder, else ./web)", set_web_root},
    {"--data-dir", "BOMBCHECKERS_DATA_DIR", "DIR", "where games are kept (default ./data)",
     set_path<&server::ServerConfig::data_dir>},
    {"--store", "BOMBCHECKERS_STORE", "URL",
     "keep games in PostgreSQL, postgres://[user@]host[:port]/database (default: SQLite\n"
     "                           in --data-dir); a password goes better in ~/.pgpass or "
     "PGPASSWORD than in the URL",
     set_store},
    {"--cluster", "BOMBCHECKERS_CLUSTER", "URL",
     "run as one node of a cluster: rooms owned by leases in this Redis,\n"
     "                           redis://[[user]:password@]host[:port]\n"
     "                           (needs --store postgres://...; docs/CLUSTER.md; default: one "
     "node)",
     set_cluster},
    {"--redis-password-file", "BOMBCHECKERS_REDIS_PASSWORD_FILE", "FILE",
     "cluster: Redis's password, the file's first line (wins over a password in the URL)",
     set_redis_password_file},
    {"--node-id", "BOMBCHECKERS_NODE_ID", "ID",
     "this node's id in the cluster, unique (default: the host name and a random suffix)",
     set_node_id},
    {"--lease-ms", "BOMBCHECKERS_LEASE_MS", "MS",
     "cluster: how long a room's lease lasts unrenewed, i.e. the takeover time after a node dies\n"
     "                           (1000..60000, default 5000; renewed at 3/10 of it)",
     [](Settings& s, std::string_view v) -> Setting {
       int ms = 0;
       auto e = set_whole(ms, v, 1000, 60000);
       s.cfg.lease_ttl = std::chrono::milliseconds(ms);
       s.cfg.lease_renew = std::chrono::milliseconds(ms * 3 / 10);
       return e;
     }},
    {"--log-level", "BOMBCHECKERS_LOG_LEVEL", "LEVEL",
     "trace, debug, info, warn, error, critical or off (default info)", set_log_level},
    {"--threads", "BOMBCHECKERS_THREADS", "N",
     "I/O threads, 1..256 (default: half the cores, at least 1)", set_threads},
    {"--log-format", "BOMBCHECKERS_LOG_FORMAT", "FORMAT",
     "text, or json: one {\"ts\",\"level\",\"msg\"} object per line (default text)",
     set_log_format},
    {"--allowed-origin", "BOMBCHECKERS_ALLOWED_ORIGINS", "ORIGIN",
     "a web origin (https://host[:port]) allowed to open /ws besides the server's own address;\n"
     "                           repeatable; the variable takes a comma-separated list (default: "
     "any origin)",
     set_allowed_origins, true},
    {"--tls-cert", "BOMBCHECKERS_TLS_CERT", "FILE",
     "TLS certificate chain (PEM): serve https:// and wss:// on the port, redirect http://;\n"
     "                           needs --tls-key (default: plain HTTP)",
     set_tls_cert},
    {"--tls-key", "BOMBCHECKERS_TLS_KEY", "FILE",
     "the certificate's private key (PEM, unencrypted)", set_tls_key},
    {"--trusted-proxy", "BOMBCHECKERS_TRUSTED_PROXY", "LIST",
     "reverse proxies whose X-Forwarded-For names the client: IP addresses and\n"
     "                           CIDR ranges, comma-separated (127.0.0.1,10.0.0.0/8,fd00::/8), "
     "repeatable;\n"
     "                           list only proxies you run (default: none; a client is its peer "
     "address)",
     set_trusted_proxies, true},
    {"--max-connections-per-address", "BOMBCHECKERS_MAX_CONNECTIONS_PER_ADDRESS", "N",
     "open connections one client IP may have, 0 = no limit (default 128;\n"
     "                           a reverse proxy's clients share its address, unless "
     "--trusted-proxy)",
     set_per_address<&server::Limits::max_connections_per_address>},
    {"--max-rooms-per-address", "BOMBCHECKERS_MAX_ROOMS_PER_ADDRESS", "N",
     "rooms one client IP may hold at once, 0 = no limit (default 32)",
     set_per_address<&server::Limits::max_rooms_per_address>},
    {"--api-rate", "BOMBCHECKERS_API_RATE", "N",
     "/api/ requests per second one client IP may make, in bursts of 4 x N; 0 = no limit\n"
     "                           (default 10; behind a reverse proxy, raise it as the others)",
     set_rate<&server::Limits::api_rate_per_second, &server::Limits::api_burst, 4>},
    {"--metrics-rate", "BOMBCHECKERS_METRICS_RATE", "N",
     "/metrics requests per second one client IP may make, in bursts of 5 x N; 0 = no limit\n"
     "                           (default 20; a bucket of its own, apart from /api/)",
     set_rate<&server::Limits::metrics_rate_per_second, &server::Limits::metrics_burst, 5>},
    {"--max-messages-per-address", "BOMBCHECKERS_MAX_MESSAGES_PER_ADDRESS", "N",
     "messages a second from all of one client IP's connections together, bursts of 2N,\n"
     "                           0 = no limit (default 60; each connection also has its own 20)",
     [](Settings& s, std::string_view v) -> Setting {
       auto e = set_whole(s.cfg.limits.address_rate_per_second, v, 0, 1000000, "no limit");
       s.cfg.limits.address_rate_burst = 2.0 * s.cfg.limits.address_rate_per_second;
       return e;
     }},
    {"--max-joins-per-address", "BOMBCHECKERS_MAX_JOINS_PER_ADDRESS", "N",
     "joins (re-joins with a token too) a minute from one client IP, 0 = no limit (default 60)",
     set_per_address<&server::Limits::joins_per_address_per_minute>},
    {"--max-creates-per-address", "BOMBCHECKERS_MAX_CREATES_PER_ADDRESS", "N",
     "rooms one client IP may create a minute, in bursts of 3N, 0 = no limit (default 10)",
     set_per_address<&server::Limits::creates_per_address_per_minute>},
    {"--max-analyses-per-address", "BOMBCHECKERS_MAX_ANALYSES_PER_ADDRESS", "N",
     "analyses (position values) one client IP may ask for a minute, a game's history counting\n"
     "                           5, 0 = no limit (default 30)",
     set_per_address<&server::Limits::analyses_per_address_per_minute>},
    {"--max-spectators-per-address", "BOMBCHECKERS_MAX_SPECTATORS_PER_ADDRESS", "N",
     "connections of one client IP watching one room, 0 = no limit (default 16)",
     set_per_address<&server::Limits::spectators_per_room_per_address>},
    {"--computer-threads", "BOMBCHECKERS_COMPUTER_THREADS", "N",
     "threads for the computer's searches, 0 = half the cores, at least 1 (default 0;\n"
     "                           one more thread runs the quick levels 1..4 only)",
     [](Settings& s, std::string_view v) {
       return set_whole(s.cfg.limits.computer_threads, v, 0, 256, "half the cores");
     }},
    {"--computer-queue", "BOMBCHECKERS_COMPUTER_QUEUE", "N",
     "computer searches that may wait for a thread (default 1000; past it the busiest\n"
     "                           address's newest search is put off by 2 s)",
     [](Settings& s, std::string_view v) {
       return set_whole(s.cfg.limits.computer_queue_max, v, 1, 1000000);
     }},
    {"--abort-after", "BOMBCHECKERS_ABORT_AFTER", "SECONDS",
     "clocked games: each side's first turn must come within this, or the game is aborted\n"
     "                           (default 30)",
     [](Settings& s, std::string_view v) -> Setting {
       int seconds = 0;
       auto e = set_whole(seconds, v, 1, 86400);
       s.cfg.limits.abort_after = std::chrono::seconds(seconds);
       return e;
     }},
    {"--claim-after", "BOMBCHECKERS_CLAIM_AFTER", "SECONDS",
     "clocked games: how long a player may be gone before the opponent may claim the game,\n"
     "                           0 = by the time control: 20 s for blitz, 60 s up to 25 min, else "
     "120 s (default 0)",
     [](Settings& s, std::string_view v) -> Setting {
       int seconds = 0;
       auto e = set_whole(seconds, v, 0, 86400, "by the time control");
       s.cfg.limits.claim_after = std::chrono::seconds(seconds);
       return e;
     }},
    keep_unstarted_flag<Settings>(),
    keep_abandoned_flag<Settings>(),
    keep_finished_flag<Settings>(),
    bots_challenge_bots_flag<Settings>(),
    stream_keepalive_flag<Settings>(),
    {"--memory", "BOMBCHECKERS_MEMORY", "",
     "keep games in memory only, not in the data directory (lost on restart)", set_memory},
    {"--no-accounts", "BOMBCHECKERS_NO_ACCOUNTS", "",
     "no players: no guests, accounts, ratings or pools (docs/PLAYERS.md)", set_no_accounts},
    {"--puzzles", "BOMBCHECKERS_PUZZLES", "FILE",
     "the puzzle collection (docs/PUZZLES.md; default the web root's data/puzzles.json)",
     set_path<&server::ServerConfig::puzzles>},
    {"--watch-lag", "BOMBCHECKERS_WATCH_LAG", "N",
     "turns the values a watcher of a live game may see lag behind it, at least 2, 0 = off\n"
     "                           (docs/PROTOCOL.md, \"Values for watchers\"; default 4)",
     [](Settings& s, std::string_view v) -> Setting {
       int n = 0;
       if (auto e = set_whole(n, v, 0, 1000, "off")) return e;
       if (n == 1) return "wants 0 (off) or at least 2: 1 shows a position a turn away";
       s.cfg.limits.watch_lag = n;
       return std::nullopt;
     }},
    {"--pool-wave-ms", "BOMBCHECKERS_POOL_WAVE_MS", "MS",
     "how often the quick-pairing pools pair their players (default 3000)",
     [](Settings& s, std::string_view v) -> Setting {
       int ms = 0;
       auto e = set_whole(ms, v, 100, 60000, "");
       s.cfg.pool_wave = std::chrono::milliseconds(ms);
       return e;
     }},
    {"--qr", "BOMBCHECKERS_QR", "",
     "print a QR code of the first LAN address (default: only when stderr is a terminal;\n"
     "                           BOMBCHECKERS_QR=0: never)",
     set_qr},
};

void serve_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: bombcheckers serve [options]\n\n"
               "Runs the game server: the web client, the JSON API and the game WebSocket on one\n"
               "port. Every option can also be set by its environment variable; a flag wins.\n\n");
  print_flags<Settings>(out, kServeFlags);
}

// The QR code of the first LAN address, for a phone on the same network: on request, or when
// stderr is a terminal (and the logs are not JSON).
void show_qr(const Settings& s, std::uint16_t port) {
  const bool tty = isatty(STDERR_FILENO) == 1;
  if (!(s.qr == 1 || (s.qr == -1 && tty && !s.json_logs))) return;
  const auto urls = server::lan_urls(s.cfg.host, port, s.cfg.tls());
  if (urls.empty()) {
    if (s.qr == 1)
      spdlog::info("no LAN address to show a QR code for (listening on {})", s.cfg.host);
    return;
  }
  const std::string code = server::qr_terminal(urls.front(), tty);
  std::fprintf(stderr, "\nScan to open %s:\n%s\n", urls.front().c_str(), code.c_str());
  std::fflush(stderr);
}

}  // namespace

int cmd_serve(Args args) {
  Settings s;
  s.cfg.handle_signals = true;
  // Half the cores: a move's hand-offs between a room's strand and its members' connections then
  // wake another thread less often, and the store's writer, the computer's searches and the
  // kernel's network work keep cores of their own. On 2 cores one I/O thread spent 105-109 µs per
  // action at 4,000 actions/s against two threads' 143 µs, with a lower p99 (issue 30).
  const unsigned cores = std::thread::hardware_concurrency();
  s.cfg.threads = static_cast<int>(std::clamp(cores / 2, 1u, 256u));
  s.cfg.data_dir = fs::path("data");
  if (auto done = read_command_flags<Settings>("serve", kServeFlags, args, s, serve_usage))
    return *done;
  if (!s.web_root_given) s.cfg.web_root = default_web_root();
  if (s.cfg.memory && !s.cfg.store.empty())
    return usage_error("serve", "--memory and --store: choose one place for the games");
  if (!s.cfg.cluster.empty() && s.cfg.store.empty()) {
    return usage_error("serve",
                       "--cluster needs a shared store: add --store postgres://... (every node "
                       "on the same database)");
  }
  if (s.cfg.cluster.empty() && !s.cfg.node_id.empty())
    return usage_error("serve", "--node-id is for a cluster node: add --cluster redis://...");
  if (s.cfg.tls_cert.empty() != s.cfg.tls_key.empty()) {
    return usage_error("serve", !s.cfg.tls_cert.empty()
                                    ? "--tls-cert: TLS also needs the private key (--tls-key)"
                                    : "--tls-key: TLS also needs the certificate (--tls-cert)");
  }
  server::ServerConfig& cfg = s.cfg;

  // Logs go to stderr; stdout carries only the "listening on" line that scripts and tests read.
  auto logger = s.json_logs ? spdlog::stderr_logger_mt("bombcheckers")
                            : spdlog::stderr_color_mt("bombcheckers");
  if (s.json_logs) logger->set_formatter(server::json_log_formatter());
  spdlog::set_default_logger(logger);
  spdlog::set_level(s.level);

  server::Server srv(cfg);
  if (auto err = srv.start()) {
    spdlog::error("{}", *err);
    return 1;
  }
  const std::string shown_host =
      cfg.host.find(':') != std::string::npos ? "[" + cfg.host + "]" : cfg.host;
  std::printf("listening on %s://%s:%u\n", cfg.tls() ? "https" : "http", shown_host.c_str(),
              static_cast<unsigned>(srv.port()));
  std::fflush(stdout);
  spdlog::info("{} threads; stop with Ctrl-C", cfg.threads);
  if (!cfg.allowed_origins.empty()) {
    std::string list;
    for (const auto& o : cfg.allowed_origins) list += (list.empty() ? "" : ", ") + o;
    spdlog::info("WebSocket upgrades only from the server's own address and {}", list);
  }
  if (!cfg.trusted_proxies.empty()) {
    spdlog::info("client addresses from X-Forwarded-For of connections from {}",
                 cfg.trusted_proxies.to_string());
  }
  show_qr(s, srv.port());
  srv.run();
  spdlog::info("stopped");
  return 0;
}

}  // namespace bc::app
