// `bombcheckers serve`: the game server. Flags, each with an environment twin; flags win.
#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <string>
#include <thread>

#include "commands.hpp"
#include "server/lan.hpp"
#include "server/log_format.hpp"
#include "server/origin.hpp"
#include "server/server.hpp"

namespace bc::app {
namespace {

namespace fs = std::filesystem;

struct Flag {
  std::string_view name;
  std::string_view env;
  std::string_view value;  // shown as --name VALUE
  std::string_view help;
};

constexpr Flag kFlags[] = {
    {"--host", "BOMBCHECKERS_HOST", "ADDR", "address to listen on (default 0.0.0.0: every interface)"},
    {"--port", "BOMBCHECKERS_PORT", "N", "port for HTTP and WebSocket, 0 = any free port (default 8080)"},
    {"--web-root", "BOMBCHECKERS_WEB_ROOT", "DIR",
     "the web client's files (default: web/ beside the build folder, else ./web)"},
    {"--data-dir", "BOMBCHECKERS_DATA_DIR", "DIR", "where games are kept (default ./data)"},
    {"--log-level", "BOMBCHECKERS_LOG_LEVEL", "LEVEL",
     "trace, debug, info, warn, error, critical or off (default info)"},
    {"--threads", "BOMBCHECKERS_THREADS", "N", "I/O threads, 1..256 (default: the number of cores)"},
    {"--log-format", "BOMBCHECKERS_LOG_FORMAT", "FORMAT",
     "text, or json: one {\"ts\",\"level\",\"msg\"} object per line (default text)"},
    {"--allowed-origin", "BOMBCHECKERS_ALLOWED_ORIGINS", "ORIGIN",
     "a web origin (https://host[:port]) allowed to open /ws besides the server's own address;\n"
     "                           repeatable; the variable takes a comma-separated list (default: any origin)"},
    {"--tls-cert", "BOMBCHECKERS_TLS_CERT", "FILE",
     "TLS certificate chain (PEM): serve https:// and wss:// on the port, redirect http://;\n"
     "                           needs --tls-key (default: plain HTTP)"},
    {"--tls-key", "BOMBCHECKERS_TLS_KEY", "FILE",
     "the certificate's private key (PEM, unencrypted)"},
    {"--max-connections-per-address", "BOMBCHECKERS_MAX_CONNECTIONS_PER_ADDRESS", "N",
     "open connections one client IP may have, 0 = no limit (default 128;\n"
     "                           behind a reverse proxy every client has the proxy's address)"},
    {"--max-rooms-per-address", "BOMBCHECKERS_MAX_ROOMS_PER_ADDRESS", "N",
     "rooms one client IP may hold at once, 0 = no limit (default 32)"},
};
constexpr std::size_t kLogFormat = 6;
constexpr std::size_t kAllowedOrigin = 7;
constexpr std::size_t kTlsCert = 8;
constexpr std::size_t kTlsKey = 9;
constexpr std::size_t kConnectionsPerAddress = 10;
constexpr std::size_t kRoomsPerAddress = 11;

// A switch: --qr (or BOMBCHECKERS_QR=1; =0 never). Without either, only when stderr is a terminal.
constexpr Flag kQrFlag{"--qr", "BOMBCHECKERS_QR", "",
                       "print a QR code of the first LAN address (default: only when stderr is a terminal)"};

// A switch without a value: --memory (or BOMBCHECKERS_MEMORY=1).
constexpr Flag kMemoryFlag{"--memory", "BOMBCHECKERS_MEMORY", "",
                           "keep games in memory only, not in the data directory (lost on restart)"};

void serve_usage(std::FILE* out) {
  std::fprintf(out, "usage: bombcheckers serve [options]\n\n"
                    "Runs the game server: the web client, the JSON API and the game WebSocket on one\n"
                    "port. Every option can also be set by its environment variable; a flag wins.\n\n");
  for (const auto& f : kFlags) {
    std::string left = std::string(f.name) + " " + std::string(f.value);
    std::fprintf(out, "  %-24s %.*s\n  %-24s   env %.*s\n", left.c_str(), static_cast<int>(f.help.size()),
                 f.help.data(), "", static_cast<int>(f.env.size()), f.env.data());
  }
  std::fprintf(out, "  %-24s %.*s\n  %-24s   env %.*s=1\n", kMemoryFlag.name.data(),
               static_cast<int>(kMemoryFlag.help.size()), kMemoryFlag.help.data(), "",
               static_cast<int>(kMemoryFlag.env.size()), kMemoryFlag.env.data());
  std::fprintf(out, "  %-24s %.*s\n  %-24s   env %.*s=1 (0: never)\n", kQrFlag.name.data(),
               static_cast<int>(kQrFlag.help.size()), kQrFlag.help.data(), "",
               static_cast<int>(kQrFlag.env.size()), kQrFlag.env.data());
  std::fprintf(out, "  %-24s this help\n", "--help");
}

int bad(const std::string& message) {
  std::fprintf(stderr, "serve: %s\n(see `bombcheckers serve --help`)\n", message.c_str());
  return 2;
}

std::optional<long> parse_int(std::string_view s, long lo, long hi) {
  long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

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

}  // namespace

int cmd_serve(Args args) {
  // Values by flag name: environment first, then flags over them.
  std::string values[std::size(kFlags)];
  std::string sources[std::size(kFlags)];
  bool given[std::size(kFlags)] = {};
  for (std::size_t i = 0; i < std::size(kFlags); ++i) {
    if (const char* e = std::getenv(std::string(kFlags[i].env).c_str()); e && *e) {
      values[i] = e;
      sources[i] = std::string(kFlags[i].env) + "=" + e;
      given[i] = true;
    }
  }
  bool memory = false;
  if (const char* e = std::getenv("BOMBCHECKERS_MEMORY"); e && *e) {
    const std::string_view v = e;
    if (v == "1" || v == "true" || v == "yes") {
      memory = true;
    } else if (v != "0" && v != "false" && v != "no") {
      return bad("BOMBCHECKERS_MEMORY=" + std::string(v) + ": use 1 or 0");
    }
  }
  int qr = -1;  // -1: when stderr is a terminal
  if (const char* e = std::getenv("BOMBCHECKERS_QR"); e && *e) {
    const std::string_view v = e;
    if (v == "1" || v == "true" || v == "yes") {
      qr = 1;
    } else if (v == "0" || v == "false" || v == "no") {
      qr = 0;
    } else {
      return bad("BOMBCHECKERS_QR=" + std::string(v) + ": use 1 or 0");
    }
  }
  bool origin_flag_seen = false;
  for (std::size_t a = 0; a < args.size(); ++a) {
    std::string_view arg = args[a];
    if (arg == "--help" || arg == "-h") {
      serve_usage(stdout);
      return 0;
    }
    if (arg == kMemoryFlag.name) {
      memory = true;
      continue;
    }
    if (arg == kQrFlag.name) {
      qr = 1;
      continue;
    }
    std::string_view name = arg;
    std::optional<std::string_view> value;
    if (auto eq = arg.find('='); eq != std::string_view::npos && arg.substr(0, 2) == "--") {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    std::size_t i = 0;
    while (i < std::size(kFlags) && kFlags[i].name != name) ++i;
    if (i == std::size(kFlags)) return bad("unknown option '" + std::string(arg) + "'");
    if (!value) {
      if (a + 1 >= args.size()) return bad(std::string(name) + " needs a value");
      value = args[++a];
    }
    if (i == kAllowedOrigin) {
      // Repeatable: the flags together replace the environment's list.
      if (!origin_flag_seen) values[i].clear();
      origin_flag_seen = true;
      values[i] += (values[i].empty() ? "" : ",") + std::string(*value);
      sources[i] = std::string(name);
      given[i] = true;
      continue;
    }
    values[i] = std::string(*value);
    sources[i] = std::string(name) + " " + values[i];
    given[i] = true;
  }

  server::ServerConfig cfg;
  cfg.handle_signals = true;
  unsigned cores = std::thread::hardware_concurrency();
  cfg.threads = cores == 0 ? 1 : static_cast<int>(std::min(cores, 256u));
  auto level = spdlog::level::info;

  if (given[0]) {
    if (!valid_host(values[0])) return bad(sources[0] + ": not an IPv4 or IPv6 address");
    cfg.host = values[0];
  }
  if (given[1]) {
    auto p = parse_int(values[1], 0, 65535);
    if (!p) return bad(sources[1] + ": the port must be a whole number from 0 to 65535");
    cfg.port = static_cast<std::uint16_t>(*p);
  }
  cfg.web_root = given[2] ? fs::path(values[2]) : default_web_root();
  if (given[2] && !fs::is_directory(cfg.web_root)) return bad(sources[2] + ": no such directory");
  cfg.data_dir = given[3] ? fs::path(values[3]) : fs::path("data");
  if (given[3] && values[3].empty()) return bad(sources[3] + ": empty path");
  cfg.memory = memory;
  if (given[4]) {
    auto l = parse_level(values[4]);
    if (!l) return bad(sources[4] + ": the level must be trace, debug, info, warn, error, critical or off");
    level = *l;
  }
  if (given[5]) {
    auto t = parse_int(values[5], 1, 256);
    if (!t) return bad(sources[5] + ": the number of threads must be from 1 to 256");
    cfg.threads = static_cast<int>(*t);
  }

  bool json_logs = false;
  if (given[kLogFormat]) {
    if (values[kLogFormat] == "json") {
      json_logs = true;
    } else if (values[kLogFormat] != "text") {
      return bad(sources[kLogFormat] + ": the log format must be text or json");
    }
  }
  if (given[kAllowedOrigin]) {
    std::string_view list = values[kAllowedOrigin];
    while (!list.empty()) {
      const auto comma = list.find(',');
      std::string_view item = list.substr(0, comma);
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
      if (item.empty()) continue;
      auto o = server::normalize_origin(item);
      if (!o) {
        return bad(sources[kAllowedOrigin] + " " + std::string(item) +
                   ": an origin is scheme://host[:port], like https://games.example.org");
      }
      cfg.allowed_origins.push_back(*o);
    }
  }

  if (given[kConnectionsPerAddress]) {
    auto n = parse_int(values[kConnectionsPerAddress], 0, 1000000);
    if (!n) return bad(sources[kConnectionsPerAddress] + ": a whole number from 0 (no limit) to 1000000");
    cfg.limits.max_connections_per_address = static_cast<std::size_t>(*n);
  }
  if (given[kRoomsPerAddress]) {
    auto n = parse_int(values[kRoomsPerAddress], 0, 1000000);
    if (!n) return bad(sources[kRoomsPerAddress] + ": a whole number from 0 (no limit) to 1000000");
    cfg.limits.max_rooms_per_address = static_cast<std::size_t>(*n);
  }

  if (given[kTlsCert] != given[kTlsKey]) {
    return bad(given[kTlsCert]
                   ? sources[kTlsCert] + ": TLS also needs the private key (--tls-key)"
                   : sources[kTlsKey] + ": TLS also needs the certificate (--tls-cert)");
  }
  if (given[kTlsCert]) {
    if (values[kTlsCert].empty() || values[kTlsKey].empty()) {
      return bad("--tls-cert and --tls-key need file names");
    }
    cfg.tls_cert = values[kTlsCert];
    cfg.tls_key = values[kTlsKey];
  }

  // Logs go to stderr; stdout carries only the "listening on" line that scripts and tests read.
  auto logger = json_logs ? spdlog::stderr_logger_mt("bombcheckers") : spdlog::stderr_color_mt("bombcheckers");
  if (json_logs) logger->set_formatter(server::json_log_formatter());
  spdlog::set_default_logger(logger);
  spdlog::set_level(level);

  server::Server srv(cfg);
  if (auto err = srv.start()) {
    spdlog::error("{}", *err);
    return 1;
  }
  const std::string shown_host = cfg.host.find(':') != std::string::npos ? "[" + cfg.host + "]" : cfg.host;
  std::printf("listening on %s://%s:%u\n", cfg.tls() ? "https" : "http", shown_host.c_str(),
              static_cast<unsigned>(srv.port()));
  std::fflush(stdout);
  spdlog::info("{} threads; stop with Ctrl-C", cfg.threads);
  if (!cfg.allowed_origins.empty()) {
    std::string list;
    for (const auto& o : cfg.allowed_origins) list += (list.empty() ? "" : ", ") + o;
    spdlog::info("WebSocket upgrades only from the server's own address and {}", list);
  }
  // A QR code of the first LAN address, for a phone on the same network. Not into JSON logs unless
  // asked for.
  const bool tty = isatty(STDERR_FILENO) == 1;
  if (qr == 1 || (qr == -1 && tty && !json_logs)) {
    const auto urls = server::lan_urls(cfg.host, srv.port(), cfg.tls());
    if (urls.empty()) {
      if (qr == 1) spdlog::info("no LAN address to show a QR code for (listening on {})", cfg.host);
    } else {
      const std::string code = server::qr_terminal(urls.front(), tty);
      std::fprintf(stderr, "\nScan to open %s:\n%s\n", urls.front().c_str(), code.c_str());
      std::fflush(stderr);
    }
  }
  srv.run();
  spdlog::info("stopped");
  return 0;
}

}  // namespace bc::app
