#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <vector>

#include "server/cluster/cluster.hpp"
#include "server/host/records.hpp"
#include "server/host/trusted_proxies.hpp"
#include "server/net/compressed_files.hpp"
#include "server/net/http_responses.hpp"
#include "server/net/lan.hpp"
#include "server/net/line_stream.hpp"
#include "server/net/origin.hpp"
#include "server/net/static_files.hpp"
#include "server/net/websocket_session.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"

namespace bc::server {

namespace {

http::message_generator file_response(const HttpRequest& req, const std::filesystem::path& path) {
  const auto type = content_type(path);
  if (compressible(type) && accepts_gzip(req[http::field::accept_encoding])) {
    if (auto gz = gzipped_file(path)) {
      http::response<SharedTextBody> res{http::status::ok, req.version()};
      set_common(res, req, type);
      res.set(http::field::content_encoding, "gzip");
      res.set(http::field::vary, "Accept-Encoding");
      res.content_length(gz->size());
      if (req.method() != http::verb::head) res.body() = std::move(gz);
      return res;
    }
  }
  beast::error_code ec;
  http::file_body::value_type body;
  body.open(path.string().c_str(), beast::file_mode::scan, ec);
  if (ec)
    return text_response(req, http::status::not_found, "text/plain; charset=utf-8", "not found\n");
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    set_common(res, req, type);
    if (compressible(type)) res.set(http::field::vary, "Accept-Encoding");
    res.content_length(size);
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  set_common(res, req, type);
  if (compressible(type)) res.set(http::field::vary, "Accept-Encoding");
  res.content_length(size);
  return res;
}

// "/@/{name}", "/leaderboard" (docs/PLAYERS.md), "/puzzles" and "/puzzles/{id}"
// (docs/PUZZLES.md): pages of the web client.
bool is_page_link(std::string_view path) {
  if (path == "/leaderboard" || path == "/leaderboard/") return true;
  if (path == "/puzzles" || path == "/puzzles/") return true;
  if (path.rfind("/puzzles/", 0) == 0) {
    std::string_view id = path.substr(9);
    if (!id.empty() && id.back() == '/') id.remove_suffix(1);
    return !id.empty() && id.size() <= 24 && std::all_of(id.begin(), id.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) ||
             std::isdigit(static_cast<unsigned char>(c)) || c == '-';
    });
  }
  if (path.rfind("/@/", 0) != 0) return false;
  std::string_view name = path.substr(3);
  if (!name.empty() && name.back() == '/') name.remove_suffix(1);
  return !name.empty() && name.size() <= 20 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

// "/r/{room}": one short segment of letters and digits (anything else goes to the file lookup,
// which refuses what it must).
bool is_room_link(std::string_view path) {
  if (path.rfind("/r/", 0) != 0) return false;
  std::string_view id = path.substr(3);
  if (!id.empty() && id.back() == '/') id.remove_suffix(1);
  if (id.empty() || id.size() > 32) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

}  // namespace

HttpSession::HttpSession(std::shared_ptr<SharedState> state, beast::flat_buffer buffer,
                         bool redirect_to_https, AddressTicket slot)
    : buffer_(std::move(buffer)),
      state_(std::move(state)),
      slot_(std::move(slot)),
      redirect_to_https_(redirect_to_https) {
  state_->metrics.http_open.fetch_add(1, std::memory_order_relaxed);
}

HttpSession::~HttpSession() {
  state_->metrics.http_open.fetch_sub(1, std::memory_order_relaxed);
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(state_->limits.http_header_max));
  parser_->body_limit(state_->limits.http_body_max);
  read();
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_close();
  if (ec == http::error::body_limit || ec == http::error::header_limit) {
    Request req;
    req.version(11);
    req.keep_alive(false);
    return send(text_response(req, http::status::payload_too_large, "text/plain; charset=utf-8",
                              "request too large\n"));
  }
  if (ec) return fail(ec, "http read");
  take_client(parser_->get());

  if (redirect_to_https_) {
    // Plain HTTP to a TLS server: only health checks and scrapers are answered in the clear.
    const auto target = parser_->get().target();
    const auto path = target.substr(0, target.find_first_of("?#"));
    if (path != "/healthz" && path != "/metrics") return redirect_to_https(parser_->get());
  }
  if (websocket::is_upgrade(parser_->get())) {
    auto target = parser_->get().target();
    if (target.substr(0, target.find('?')) == "/ws" && !state_->stopping) {
      const auto& up = parser_->get();
      if (!origin_allowed(up[http::field::origin], up[http::field::host],
                          state_->config.allowed_origins)) {
        state_->metrics.origin_refused.fetch_add(1, std::memory_order_relaxed);
        spdlog::info("refused a WebSocket upgrade from origin {}",
                     std::string(up[http::field::origin]));
        Request req;
        req.version(up.version());
        req.keep_alive(false);
        return send(text_response(req, http::status::forbidden, "text/plain; charset=utf-8",
                                  "this server does not accept games from pages of that origin\n"));
      }
      // A trusted proxy's connection is not counted against an address: the WebSocket is, against
      // its client's, for as long as it is open.
      AddressTicket slot = slot_;
      if (slot_ && slot_->proxy()) {
        slot = SharedState::admit(state_, client_);
        if (!slot) {
          state_->metrics.address_refused.fetch_add(1, std::memory_order_relaxed);
          spdlog::debug("refused a WebSocket upgrade from {} via {}: it has {} open (the limit)",
                        client_, slot_->address(), state_->limits.max_connections_per_address);
          Request req;
          req.version(up.version());
          req.keep_alive(false);
          return send(text_response(req, http::status::too_many_requests,
                                    "text/plain; charset=utf-8",
                                    "too many connections from your address\n"));
        }
      }
      // The WebSocket session takes over the stream; its own timeouts replace the HTTP ones.
      return upgrade(parser_->release(), std::move(slot));
    }
  }
  handle(parser_->release());
}

// 308 to the same path on https:// (the method and body are kept); the Host header names the
// server as the client reached it, else the address it connected to.
void HttpSession::redirect_to_https(const Request& req) {
  state_->metrics.http_requests.fetch_add(1, std::memory_order_relaxed);
  std::string host(req[http::field::host]);
  const bool host_ok =
      !host.empty() && host.size() <= 255 && std::all_of(host.begin(), host.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' ||
               c == '[' || c == ']' || c == '_';
      });
  if (!host_ok) {
    if (!host.empty()) {
      return send(text_response(req, http::status::bad_request, "text/plain; charset=utf-8",
                                "bad Host header\n"));
    }
    beast::error_code ec;
    const auto local = socket().local_endpoint(ec);
    host = local.address().is_v6() ? "[" + local.address().to_string() + "]"
                                   : local.address().to_string();
    host += ":" + std::to_string(local.port());
  }
  std::string target(req.target());
  if (target.empty() || target.front() != '/') target = "/";
  http::response<http::string_body> res{http::status::permanent_redirect, req.version()};
  set_common(res, req, "text/plain; charset=utf-8");
  res.set(http::field::location, "https://" + host + target);
  res.keep_alive(false);  // the client comes back over TLS
  if (req.method() != http::verb::head) {
    res.body() = "this server speaks HTTPS: https://" + host + target + "\n";
  }
  res.prepare_payload();
  send(std::move(res));
}

void HttpSession::handle(Request req) {
  state_->metrics.http_requests.fetch_add(1, std::memory_order_relaxed);
  const std::string target(req.target());
  const std::string_view path = std::string_view(target).substr(0, target.find_first_of("?#"));
  const bool is_api = path.rfind("/api/", 0) == 0 || path == "/api";
  // Every /api/ request of one address draws on one bucket, however many connections it opens.
  if (is_api && !state_->address_limits.take(address(), AddressLimiter::Kind::Api)) {
    state_->metrics.api_rate_limited.fetch_add(1, std::memory_order_relaxed);
    return send(try_later(req, http::status::too_many_requests, "rate_limited",
                          "too many requests from your address; try again in a second"));
  }
  if (is_api && handle_players(req, path, target)) return;
  if (is_api && handle_bots(req, path)) return;

  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    auto res = http::response<http::string_body>{http::status::method_not_allowed, req.version()};
    set_common(res, req, kJson);
    res.set(http::field::allow, "GET, HEAD");
    res.body() = http_error_json("method_not_allowed", "only GET and HEAD are served");
    res.prepare_payload();
    return send(std::move(res));
  }
  if (path == "/ws") {
    return send(text_response(req, http::status::upgrade_required, "text/plain; charset=utf-8",
                              "this is the WebSocket endpoint of the game protocol\n"));
  }
  if (path == "/healthz") {
    Health h;
    h.accepting = !state_->stopping;
    h.rooms = state_->registry.size();
    h.connections = state_->metrics.ws_open.load() + state_->metrics.http_open.load();
    h.uptime_seconds =
        std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - state_->started).count();
    if (const auto& c = state_->cluster) {
      h.cluster = Health::Cluster{c->node_id(), c->redis_ok(), c->live_nodes()};
    }
    const bool ok = h.accepting && (!h.cluster || h.cluster->redis);
    return send(text_response(req, ok ? http::status::ok : http::status::service_unavailable, kJson,
                              health_json(h)));
  }
  if (path == "/metrics") {
    if (!state_->address_limits.take(address(), AddressLimiter::Kind::Metrics)) {
      state_->metrics.api_rate_limited.fetch_add(1, std::memory_order_relaxed);
      return send(try_later(req, http::status::too_many_requests, "rate_limited",
                            "too many /metrics requests from your address; try again in a second"));
    }
    std::string text = state_->metrics.prometheus(state_->registry.counts());
    if (state_->store) text += store_prometheus(*state_->store);
    if (state_->cluster) text += state_->cluster->prometheus();
    return send(text_response(req, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                              std::move(text)));
  }
  if (path == "/api/rooms") {
    if (!state_->cluster) {
      return send(text_response(req, http::status::ok, kJson, rooms_json(state_->registry.list())));
    }
    // Every node's rooms, from Redis: asked off this strand (docs/CLUSTER.md, "Room list").
    state_->cluster->list_rooms([self = shared_from_this(),
                                 req = std::move(req)](std::optional<std::string> rooms) mutable {
      net::post(self->executor(), [self, req = std::move(req), rooms = std::move(rooms)] {
        if (!rooms) {
          return self->send(try_later(req, http::status::service_unavailable, "unavailable",
                                      "the room list is not reachable; try again in a moment"));
        }
        self->send(text_response(req, http::status::ok, kJson, *rooms));
      });
    });
    return;
  }
  if (path == "/api/server") {
    beast::error_code lec;
    const auto port = socket().local_endpoint(lec).port();
    return send(
        text_response(req, http::status::ok, kJson,
                      server_info_json(lan_urls(state_->config.host, port, state_->config.tls()))));
  }
  if (path == "/api/qr") {
    auto text = query_param(target, "text");
    if (!text || text->empty() || text->size() > kQrTextMax) {
      return send(
          json_error(req, http::status::bad_request, "bad_request",
                     "`text` must be 1 to " + std::to_string(kQrTextMax) + " bytes, URL-encoded"));
    }
    auto svg = qr_svg(*text);
    if (!svg)
      return send(
          json_error(req, http::status::bad_request, "bad_request", "the text is too long"));
    return send(text_response(req, http::status::ok, "image/svg+xml", std::move(*svg)));
  }
  if (path == "/api/puzzles" || path.rfind("/api/puzzles/", 0) == 0) {
    const auto& puzzles = *state_->puzzles;
    const PuzzleAnswer a =
        path.size() > 13 ? puzzles.one(path.substr(13))
                         : puzzles.list(query_param(target, "variant"), query_param(target, "kind"),
                                        query_param(target, "difficulty"));
    return send(text_response(req, static_cast<http::status>(a.status), kJson, a.body));
  }
  if (path.rfind("/api/games/", 0) == 0)
    return handle_game(std::move(req), path.substr(11), target);
  if (is_api)
    return send(json_error(req, http::status::not_found, "not_found", "no such API path"));

  // A shareable room link is the web client, which reads the room from its address; so are a
  // player's profile (/@/{name}) and the leaderboards.
  if (is_room_link(path) || is_page_link(path)) {
    auto index = find_static_file(state_->web_root, "/index.html");
    if (index.status != StaticLookup::Found) {
      return send(
          text_response(req, http::status::not_found, "text/plain; charset=utf-8",
                        "the web client is not installed (no index.html in the web root)\n"));
    }
    return send(file_response(req, index.path));
  }
  auto file = find_static_file(state_->web_root, path);
  switch (file.status) {
    case StaticLookup::Found:
      return send(file_response(req, file.path));
    case StaticLookup::Refused:
      spdlog::debug("http: refused path {}", path);
      return send(
          text_response(req, http::status::bad_request, "text/plain; charset=utf-8", "bad path\n"));
    case StaticLookup::NotFound:
      break;
  }
  return send(
      text_response(req, http::status::not_found, "text/plain; charset=utf-8", "not found\n"));
}

void HttpSession::take_client(const Request& req) {
  if (!slot_ || !slot_->proxy()) return;
  std::vector<std::string_view> forwarded;
  const auto [begin, end] = req.equal_range("X-Forwarded-For");
  for (auto it = begin; it != end; ++it) forwarded.emplace_back(it->value());
  auto client = forwarded_client(state_->config.trusted_proxies, forwarded);
  if (client) state_->metrics.forwarded_requests.fetch_add(1, std::memory_order_relaxed);
  client_ = client ? limit_key(*client) : slot_->address();
}

const std::string& HttpSession::address() const {
  static const std::string kNone;
  if (!slot_) return kNone;
  return slot_->proxy() ? client_ : slot_->address();
}

void HttpSession::send(http::message_generator msg) {
  const bool keep_alive = msg.keep_alive();
  state_->metrics.http_status(t_http_status);
  t_http_status = 0;
  write(std::move(msg), keep_alive);
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "http write");
  if (!keep_alive || state_->stopping) return do_close();
  do_read();
}

// ---------------------------------------------------------------------------------------------
// The stream's half: beast::tcp_stream (http://, ws://) or ssl_stream<tcp_stream> (https://,
// wss://).

namespace {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

template <class Stream>
class HttpSessionOver final : public HttpSession {
 public:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  template <class... StreamArgs>
  HttpSessionOver(std::shared_ptr<SharedState> state, beast::flat_buffer buffer, bool redirect,
                  AddressTicket slot, StreamArgs&&... args)
      : HttpSession(std::move(state), std::move(buffer), redirect, std::move(slot)),
        stream_(std::forward<StreamArgs>(args)...) {}

  void run() override {
    // The session's strand is the socket's (see Listener::do_accept).
    net::dispatch(stream_.get_executor(), [self = shared()] {
      if constexpr (kTls) {
        self->handshake();
      } else {
        self->do_read();
      }
    });
  }

 private:
  std::shared_ptr<HttpSessionOver> shared() {
    return std::static_pointer_cast<HttpSessionOver>(shared_from_this());
  }

  void handshake() {
    beast::get_lowest_layer(stream_).expires_after(state_->limits.handshake_timeout);
    // The bytes TLS detection read are the start of the ClientHello. (A bound member, not a lambda:
    // Beast 1.81 constrains this handler as if it took only the error code.)
    stream_.async_handshake(net::ssl::stream_base::server, buffer_.data(),
                            beast::bind_front_handler(&HttpSessionOver::on_handshake, shared()));
  }

  void on_handshake(beast::error_code ec, std::size_t used) {
    if (ec) {
      state_->metrics.tls_handshake_failures.fetch_add(1, std::memory_order_relaxed);
      spdlog::debug("tls handshake: {}", ec.message());
      return;
    }
    buffer_.consume(used);
    do_read();
  }

  net::any_io_executor executor() override { return stream_.get_executor(); }
  tcp::socket& socket() override { return beast::get_lowest_layer(stream_).socket(); }

  void read() override {
    beast::get_lowest_layer(stream_).expires_after(state_->limits.http_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSessionOver::on_read, shared_from_this()));
  }

  void write(http::message_generator msg, bool keep_alive) override {
    beast::get_lowest_layer(stream_).expires_after(state_->limits.http_timeout);
    beast::async_write(
        stream_, std::move(msg),
        beast::bind_front_handler(&HttpSessionOver::on_write, shared_from_this(), keep_alive));
  }

  void do_close() override {
    if constexpr (kTls) {
      // close_notify, bounded: a client that never answers it is cut off by the timeout; the
      // socket closes with the session.
      beast::get_lowest_layer(stream_).expires_after(state_->limits.handshake_timeout);
      stream_.async_shutdown([self = shared()](beast::error_code) {});
    } else {
      beast::error_code ec;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    }
  }

  void upgrade(Request req, AddressTicket slot) override {
    beast::get_lowest_layer(stream_).expires_never();
    if constexpr (kTls) {
      start_websocket(std::move(stream_), std::move(req), std::move(slot));
    } else {
      // The WebSocket stream times itself out (websocket_session.hpp): the bare socket suffices,
      // and with one I/O thread it moves to the io_context's own executor (DirectSocket).
      const net::any_io_executor executor = stream_.get_executor();
      tcp::socket socket = stream_.release_socket();
      const auto* io = executor.target<net::io_context::executor_type>();
      if (io == nullptr) return start_websocket(std::move(socket), std::move(req), std::move(slot));
      beast::error_code ec;
      const auto protocol = socket.local_endpoint(ec).protocol();
      DirectSocket direct(*io);
      if (!ec) {
        const auto fd = socket.release(ec);
        if (!ec) direct.assign(protocol, fd, ec);
        if (ec && fd >= 0) ::close(fd);  // released but not taken
      }
      if (ec) return fail(ec, "ws upgrade");
      start_websocket(std::move(direct), std::move(req), std::move(slot));
    }
  }

  void stream_lines(unsigned http_version,
                    std::function<void(std::shared_ptr<LineSink>)> attach) override {
    auto s = std::make_shared<LineStream<Stream>>(std::move(stream_), std::move(slot_),
                                                  state_->config.stream_keepalive);
    s->start(http_version, attach);
  }

  template <class WebSocketStream>
  void start_websocket(WebSocketStream&& stream, Request req, AddressTicket slot) {
    std::make_shared<WebSocketSession<WebSocketStream>>(std::move(stream), state_, std::move(slot))
        ->run(std::move(req));
  }

  Stream stream_;
};

}  // namespace

void start_http_session(beast::tcp_stream stream, beast::flat_buffer buffer,
                        std::shared_ptr<SharedState> state, bool redirect_to_https,
                        AddressTicket slot) {
  std::make_shared<HttpSessionOver<beast::tcp_stream>>(
      std::move(state), std::move(buffer), redirect_to_https, std::move(slot), std::move(stream))
      ->run();
}

void start_https_session(beast::tcp_stream stream, beast::flat_buffer buffer,
                         std::shared_ptr<SharedState> state, net::ssl::context& tls,
                         AddressTicket slot) {
  std::make_shared<HttpSessionOver<TlsStream>>(std::move(state), std::move(buffer), false,
                                               std::move(slot), std::move(stream), tls)
      ->run();
}

}  // namespace bc::server
