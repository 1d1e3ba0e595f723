// Wiring: the io_context and its threads, the listener, the room sweeper, signals and shutdown.
#include "server/net/server.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <spdlog/spdlog.h>

#include <boost/asio/ssl/context.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <thread>

#include "server/bots/bots.hpp"
#include "server/cluster/cluster.hpp"
#include "server/host/shared_state.hpp"
#include "server/net/beast.hpp"
#include "server/net/data_dir.hpp"
#include "server/net/descriptors.hpp"
#include "server/net/lan.hpp"
#include "server/net/listener.hpp"
#include "server/net/websocket_session.hpp"
#include "server/players/tokens.hpp"
#include "server/room/match.hpp"

namespace bc::server {

// ---------------------------------------------------------------------------------------------
// TLS (serve --tls-cert/--tls-key): every problem stops the start with a message, never a silent
// fallback to plain HTTP.

namespace {

// The whole file, or a message naming it and what went wrong.
std::optional<std::string> read_pem(const std::filesystem::path& path, std::string_view what,
                                    std::string& out) {
  std::error_code fec;
  if (std::filesystem::is_directory(path, fec)) {
    return "the TLS " + std::string(what) + " " + path.string() + " is a directory";
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    return "cannot read the TLS " + std::string(what) + " " + path.string() + ": " +
           std::strerror(errno);
  }
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < (1u << 20)) out.append(buf, n);
  std::fclose(f);
  return std::nullopt;
}

// "CN=..., valid until 2027-11-22"; a warning when the certificate is expired or not yet valid.
void log_certificate(SSL_CTX* ctx, const std::filesystem::path& path) {
  X509* cert = SSL_CTX_get0_certificate(ctx);
  if (!cert) return;
  char subject[256] = {};
  X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof subject);
  std::tm until{};
  char until_text[32] = "?";
  if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &until) == 1) {
    std::strftime(until_text, sizeof until_text, "%Y-%m-%d %H:%M UTC", &until);
  }
  spdlog::info("TLS certificate {}: {}, valid until {}", path.string(), subject, until_text);
  if (X509_cmp_current_time(X509_get0_notAfter(cert)) < 0) {
    spdlog::warn("the TLS certificate {} has expired: browsers will refuse it", path.string());
  } else if (X509_cmp_current_time(X509_get0_notBefore(cert)) > 0) {
    spdlog::warn("the TLS certificate {} is not valid yet: browsers will refuse it", path.string());
  }
}

// Loads the certificate chain and the private key into a TLS 1.2+ server context.
std::optional<std::string> load_tls(net::ssl::context& ctx, const ServerConfig& cfg) {
  const auto cert_name = cfg.tls_cert.string(), key_name = cfg.tls_key.string();
  if (cfg.tls_cert.empty() || cfg.tls_key.empty()) {
    return "TLS needs both a certificate (--tls-cert) and its private key (--tls-key)";
  }
  std::string cert_pem, key_pem;
  if (auto e = read_pem(cfg.tls_cert, "certificate", cert_pem)) return e;
  if (auto e = read_pem(cfg.tls_key, "private key", key_pem)) return e;
  ctx.set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                  net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 |
                  net::ssl::context::no_tlsv1_1 | net::ssl::context::single_dh_use);
  // An encrypted key must fail here, not wait for a passphrase on the terminal.
  ctx.set_password_callback(
      [](std::size_t, net::ssl::context::password_purpose) { return std::string(); });
  beast::error_code ec;
  ctx.use_certificate_chain(net::buffer(cert_pem), ec);
  if (ec) {
    return "the TLS certificate " + cert_name + " is not a PEM certificate (" + ec.message() + ")";
  }
  ctx.use_private_key(net::buffer(key_pem), net::ssl::context::pem, ec);
  const auto err = static_cast<unsigned long>(static_cast<unsigned>(ec.value()));
  if (ec && ERR_GET_LIB(err) == ERR_LIB_X509 && ERR_GET_REASON(err) == X509_R_KEY_VALUES_MISMATCH) {
    return "the TLS private key " + key_name + " does not match the certificate " + cert_name;
  }
  if (ec) {
    return "the TLS private key " + key_name + " is not an unencrypted PEM private key (" +
           ec.message() + ")";
  }
  if (SSL_CTX_check_private_key(ctx.native_handle()) != 1) {
    ERR_clear_error();
    return "the TLS private key " + key_name + " does not match the certificate " + cert_name;
  }
  log_certificate(ctx.native_handle(), cfg.tls_cert);
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

// The database file in a data directory.
constexpr const char* kDatabaseFile = "bombcheckers.db";

struct Server::Impl {
  explicit Impl(ServerConfig cfg)
      : ioc(std::max(1, cfg.threads)),
        control(net::make_strand(ioc)),
        state(std::make_shared<SharedState>(ioc, std::move(cfg))),
        sweep_timer(control),
        shutdown_timer(control) {}

  // The store's maintenance thread calls into the state: stopped before anything goes.
  ~Impl() {
    if (store) store->stop_maintenance();
  }

  void schedule_sweep() {
    sweep_timer.expires_after(state->limits.sweep_interval);
    sweep_timer.async_wait([this](beast::error_code ec) {
      if (ec) return;
      if (auto n = state->registry.sweep(Clock::now())) spdlog::debug("retired {} rooms", n);
      schedule_sweep();
    });
  }

  // Stops listening, closes every connection (1001 going away) and makes run() return; once.
  void shut_down() {
    net::post(control, [this] {
      state->stopping = true;
      if (listener) listener->stop();
      sweep_timer.cancel();
      state->close_all_sessions();
      // Members relayed from other nodes are told to reconnect there (and take the rooms over).
      if (state->cluster) state->cluster->hand_over_all();
      state->registry.stop_computers();
      if (state->pools) state->pools->stop();
      if (state->bots) state->bots->close_all();
      wait_for_quiet(Clock::now() + std::chrono::seconds(1));
    });
  }

  // Waits for the connections to close after shutdown began, at most a second.
  void wait_for_quiet(Clock::time_point deadline) {
    const auto open = state->metrics.ws_open.load() + state->metrics.http_open.load();
    if (open == 0 || Clock::now() >= deadline) {
      ioc.stop();
      return;
    }
    shutdown_timer.expires_after(std::chrono::milliseconds(20));
    shutdown_timer.async_wait([this, deadline](beast::error_code) { wait_for_quiet(deadline); });
  }

  // Declared before the io_context: destroyed after it, once run() has flushed every write.
  std::optional<DataDirLock> data_lock;  // released after the store is closed
  std::unique_ptr<store::Store> store;
  std::pair<std::size_t, std::size_t> restored{0, 0};
  std::unique_ptr<net::ssl::context> tls;  // serve --tls-cert: outlives every session using it
  net::io_context ioc;
  net::strand<net::io_context::executor_type> control;
  std::shared_ptr<SharedState> state;
  std::shared_ptr<Listener> listener;
  net::steady_timer sweep_timer;
  net::steady_timer shutdown_timer;
  // serve's SIGINT and SIGTERM, taken by sigwait on a thread of their own (stop_signals()).
  std::thread signal_waiter;
  std::atomic<bool> stopped{false};
  std::uint16_t port = 0;
};

namespace {

// The connection limit cut to the open files this process may have (raised to the hard limit).
ServerConfig within_descriptor_limit(ServerConfig config) {
  const std::uint64_t files = raise_descriptor_limit();
  const std::size_t fit = connections_for_descriptors(files, config.limits.max_connections);
  if (fit < config.limits.max_connections) {
    spdlog::warn("at most {} connections: the limit on open files is {} (raise it with ulimit -n)",
                 fit, files);
    config.limits.max_connections = fit;
  } else if (files) {
    spdlog::info("open files limit {}: room for {} connections", files,
                 config.limits.max_connections);
  }
  return config;
}

// serve's SIGINT and SIGTERM are blocked on the thread that makes the server, and so on every
// thread it starts, and taken by one thread waiting in sigwait. An asynchronous handler is not
// enough under TSan: a signal that comes while the receiving thread runs its own code is deferred
// until its next call into the runtime, which an I/O thread about to sleep in epoll_wait may never
// make (Binary.FlagsWinOverEnvironment hung in one TSan run in four).
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

ServerConfig masking_stop_signals(ServerConfig config) {
  if (config.handle_signals) {
    const sigset_t set = stop_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
  }
  return config;
}

}  // namespace

Server::Server(ServerConfig config)
    : impl_(std::make_unique<Impl>(
          within_descriptor_limit(masking_stop_signals(std::move(config))))) {}

Server::~Server() {
  stop();
  if (impl_ && impl_->signal_waiter.joinable()) impl_->signal_waiter.join();
}

// Opens the data directory's database (or one in memory, or the PostgreSQL database of
// config.store) and brings back its rooms; the reason if it cannot. Once: a restarted Server keeps
// its store.
std::optional<std::string> Server::open_store() {
  if (impl_->store) return std::nullopt;
  auto& s = *impl_->state;
  const auto& cfg = s.config;
  const bool sqlite_file = !cfg.memory && cfg.store.empty();
  std::string path = cfg.memory ? std::string() : cfg.store;
  if (sqlite_file) {
    std::error_code fec;
    std::filesystem::create_directories(cfg.data_dir, fec);
    if (fec || !std::filesystem::is_directory(cfg.data_dir)) {
      return "cannot create the data directory " + cfg.data_dir.string() + ": " +
             (fec ? fec.message() : std::string("it is not a directory"));
    }
    path = (cfg.data_dir / kDatabaseFile).string();
    // Two servers on one database would both restore its rooms and then each other's writes.
    // (PostgreSQL has no such lock yet: one server per database until rooms have owners.)
    std::string why;
    impl_->data_lock = lock_data_dir(cfg.data_dir, why);
    if (!impl_->data_lock) return why;
  }
  std::string why;
  impl_->store = cfg.memory ? store::Store::open_memory() : store::Store::open(path, why);
  if (!impl_->store) {
    impl_->data_lock.reset();  // a later start() must be able to take it again
    return why;
  }
  s.store = impl_->store.get();
  s.registry.set_store(s.store);
  if (cfg.accounts) {
    s.accounts = std::make_unique<Accounts>(*s.store, cfg.password_cost);
    s.pools = std::make_shared<Pools>(impl_->ioc.get_executor(), Pools::Params{cfg.pool_wave, 20});
    // A bot's streams must reach the node that runs its games: not under a cluster's balancer.
    if (cfg.cluster.empty()) {
      s.tokens = std::make_shared<Tokens>(*s.store);
      Bots::Settings bots;
      bots.bots_challenge_bots = cfg.bots_challenge_bots;
      s.bots = std::make_shared<Bots>(s.registry, s.limits, s.next_member, bots);
    }
  }
  // A cluster's rooms come back one at a time, where they are joined (docs/CLUSTER.md).
  if (cfg.cluster.empty()) impl_->restored = s.registry.restore_all();
  impl_->store->maintain(cfg.retention, s.limits.store_maintenance_interval, unix_ms,
                         [weak = std::weak_ptr<SharedState>(impl_->state)](const store::Pruned& p) {
                           // A deleted game's record must not outlive it in the cache.
                           if (auto state = weak.lock()) state->records.forget_cached();
                           spdlog::info("retention: deleted {} rooms, {} games, {} actions",
                                        p.rooms, p.games, p.actions);
                         });
  spdlog::info("retention: {}", retention_text(cfg.retention));
  if (cfg.memory) {
    spdlog::warn("games are kept in memory only (--memory): a restart loses them");
  } else {
    spdlog::info("games are kept in {} ({} rooms restored{})", impl_->store->path(),
                 impl_->restored.first,
                 impl_->restored.second
                     ? ", " + std::to_string(impl_->restored.second) + " could not be restored"
                     : std::string());
  }
  return std::nullopt;
}

std::optional<std::string> Server::start() {
  auto& s = *impl_->state;
  const auto& cfg = s.config;
  beast::error_code ec;
  const std::string host = cfg.host == "localhost" ? "127.0.0.1" : cfg.host;
  auto address = net::ip::make_address(host, ec);
  if (ec) return "'" + cfg.host + "' is not an IP address to listen on";
  if (cfg.tls() && !impl_->tls) {
    auto tls = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
    if (auto e = load_tls(*tls, cfg)) return e;
    impl_->tls = std::move(tls);
  }

  // The store first: a server that cannot keep games does not start (no silent fallback).
  if (auto e = open_store()) return e;
  {
    const auto file = cfg.puzzles.empty() ? s.web_root / "data" / "puzzles.json" : cfg.puzzles;
    auto loaded = PuzzleCollection::load(file);
    if (auto* why = std::get_if<std::string>(&loaded)) return "the puzzles: " + *why;
    s.puzzles =
        std::make_shared<const PuzzleCollection>(std::get<PuzzleCollection>(std::move(loaded)));
    if (s.puzzles->size() > 0) spdlog::info("{} puzzles from {}", s.puzzles->size(), file.string());
  }
  if (s.pools) s.pools->start();
  if (!cfg.cluster.empty() && !s.cluster) {
    ClusterConfig cc;
    cc.url = cfg.cluster;
    cc.password = cfg.cluster_password;
    cc.node_id = cfg.node_id.empty() ? default_node_id() : cfg.node_id;
    cc.lease_ttl = cfg.lease_ttl;
    cc.renew_every = cfg.lease_renew;
    cc.redis_timeout =
        std::min<std::chrono::milliseconds>(std::chrono::milliseconds(500), cfg.lease_renew / 2);
    auto cluster = std::make_shared<Cluster>(cc, s);
    if (auto e = cluster->start()) return e;
    std::weak_ptr<Cluster> weak = cluster;
    s.registry.on_rooms(
        [weak](const std::string& room) {
          if (auto c = weak.lock()) c->claim(room);
        },
        [weak](const std::string& room) {
          if (auto c = weak.lock()) c->released(room);
        });
    s.cluster = std::move(cluster);
    s.welcome = std::make_shared<const std::string>(
        welcome_json(s.limits, cc.node_id, cfg.accounts ? players_welcome_json() : std::string()));
  }
  impl_->listener = std::make_shared<Listener>(impl_->ioc, impl_->state, impl_->tls.get());
  if (!impl_->listener->open(tcp::endpoint(address, cfg.port), ec)) {
    return "cannot listen on " + cfg.host + ":" + std::to_string(cfg.port) + ": " + ec.message();
  }
  impl_->port = impl_->listener->port();
  impl_->listener->run();
  net::dispatch(impl_->control, [this] { impl_->schedule_sweep(); });

  if (cfg.handle_signals && !impl_->signal_waiter.joinable()) {
    impl_->signal_waiter = std::thread([this] {
      const sigset_t set = stop_signals();
      int sig = 0;
      // Not stop(), which wakes this thread: only the thread that started it reads signal_waiter.
      if (sigwait(&set, &sig) != 0 || impl_->stopped.exchange(true)) return;  // stop() woke it
      spdlog::info("signal {}: stopping", sig);
      impl_->shut_down();
    });
  }

  std::error_code fec;
  if (!std::filesystem::is_regular_file(s.web_root / "index.html", fec)) {
    spdlog::warn("web root {} has no index.html: the web client will not load",
                 s.web_root.string());
  } else {
    spdlog::info("serving the web client from {}", s.web_root.string());
  }
  const auto port = std::to_string(impl_->port);
  const std::string scheme = cfg.tls() ? "https" : "http";
  const std::string shown = address.is_unspecified() ? "localhost"
                            : address.is_v6()        ? "[" + host + "]"
                                                     : host;
  if (address.is_unspecified()) {
    spdlog::info("open {}://localhost:{}/ on this machine", scheme, port);
    for (const auto& u : lan_urls(cfg.host, impl_->port, cfg.tls())) {
      spdlog::info("or {} from another device on the network", u);
    }
  } else {
    spdlog::info("open {}://{}:{}/", scheme, shown, port);
  }
  if (cfg.tls()) {
    spdlog::info(
        "TLS on: games over wss://{}:{}/ws; plain http:// requests are redirected to https://",
        shown, port);
  }
  return std::nullopt;
}

std::uint16_t Server::port() const {
  return impl_->port;
}

void Server::run() {
  const int n = std::max(1, impl_->state->config.threads);
  std::vector<std::thread> extra;
  extra.reserve(static_cast<std::size_t>(n - 1));
  for (int i = 1; i < n; ++i) extra.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : extra) t.join();
  // A search finishing now would hand its turn to a strand of the io_context about to go away.
  impl_->state->registry.drain_computers();
  impl_->state->records.stop();  // the same for record jobs, which answer on a session's strand
  // Every accepted write is committed before the server is gone...
  if (impl_->store) impl_->store->flush();
  // ...and only then do its rooms' leases go: the next owner loads every one of those writes.
  if (auto& c = impl_->state->cluster) c->stop();
}

void Server::stop() {
  if (!impl_ || impl_->stopped.exchange(true)) return;
  // The signal thread ends with the server: a signal of its own wakes it.
  if (impl_->signal_waiter.joinable()) pthread_kill(impl_->signal_waiter.native_handle(), SIGTERM);
  impl_->shut_down();
}

const Metrics& Server::metrics() const {
  return impl_->state->metrics;
}

std::size_t Server::room_count() const {
  return impl_->state->registry.size();
}

std::pair<std::size_t, std::size_t> Server::restored() const {
  return impl_->restored;
}

std::vector<std::string> lan_addresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || !(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK)) continue;
    char buf[INET6_ADDRSTRLEN] = {};
    if (a->ifa_addr->sa_family == AF_INET) {
      sockaddr_in in{};
      std::memcpy(&in, a->ifa_addr, sizeof in);
      if (inet_ntop(AF_INET, &in.sin_addr, buf, sizeof buf)) out.emplace_back(buf);
    } else if (a->ifa_addr->sa_family == AF_INET6) {
      sockaddr_in6 in6{};
      std::memcpy(&in6, a->ifa_addr, sizeof in6);
      if (IN6_IS_ADDR_LINKLOCAL(&in6.sin6_addr)) continue;  // needs a zone id, useless in a URL
      if (inet_ntop(AF_INET6, &in6.sin6_addr, buf, sizeof buf))
        out.push_back("[" + std::string(buf) + "]");
    }
  }
  freeifaddrs(list);
  return out;
}

}  // namespace bc::server
