#include "server/http_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/beast/ssl.hpp>
#include <cctype>

#include "server/lan.hpp"
#include "server/notation.hpp"
#include "server/origin.hpp"
#include "server/persist.hpp"
#include "server/records.hpp"
#include "server/static_files.hpp"
#include "server/websocket_session.hpp"

namespace bc::server {

namespace {

using Request = http::request<http::string_body>;
constexpr std::string_view kJson = "application/json";

// The status of the response being built on this thread, for the status-class counters (every
// response goes through set_common and is sent on the thread that built it).
thread_local unsigned t_status = 0;

template <class Body>
void set_common(http::response<Body>& res, const Request& req, std::string_view type) {
  t_status = res.result_int();
  res.set(http::field::server, kServerHeader);
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-cache");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(req.keep_alive());
}

http::message_generator text_response(const Request& req, http::status status,
                                      std::string_view type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  set_common(res, req, type);
  res.content_length(body.size());
  if (req.method() != http::verb::head) res.body() = std::move(body);
  return res;
}

http::message_generator json_error(const Request& req, http::status status, std::string_view code,
                                   std::string_view message) {
  return text_response(req, status, kJson, http_error_json(code, message));
}

// A response body that shares its text: a cached record goes to every reader without a copy, so
// slow readers of one large record cost its size once, not once each.
struct SharedTextBody {
  using value_type = Text;
  static std::uint64_t size(const value_type& v) { return v ? v->size() : 0; }
  class writer {
   public:
    using const_buffers_type = net::const_buffer;
    template <bool isRequest, class Fields>
    writer(const http::header<isRequest, Fields>&, const value_type& body) : body_(body) {}
    void init(beast::error_code& ec) { ec = {}; }
    boost::optional<std::pair<const_buffers_type, bool>> get(beast::error_code& ec) {
      ec = {};
      if (sent_ || !body_ || body_->empty()) return boost::none;
      sent_ = true;
      return {{const_buffers_type(body_->data(), body_->size()), false}};
    }

   private:
    const value_type& body_;
    bool sent_ = false;
  };
};

http::message_generator shared_response(const Request& req, std::string_view type, Text body) {
  http::response<SharedTextBody> res{http::status::ok, req.version()};
  set_common(res, req, type);
  res.content_length(body ? body->size() : 0);
  if (req.method() != http::verb::head) res.body() = std::move(body);
  return res;
}

// The cache key of a live room's record: everything a record shows that can change.
std::string live_record_key(const Room& room, RecordFormat format) {
  const RoomSummary s = room.summary();
  std::string key = "live/" + s.id + "/" + std::to_string(s.game_number) + "/" +
                    std::to_string(s.version) + "/" + std::to_string(static_cast<int>(s.status)) +
                    "/" + std::to_string(static_cast<int>(format));
  for (const auto& seat : s.seats) {
    key += seat ? "/" + std::to_string(seat->connected) + std::to_string(seat->ai.value_or(0)) +
                      std::to_string(seat->name.size()) + ":" + seat->name
                : std::string("/-");
  }
  return key;
}

// 429 or 503 with the seconds after which to try again.
http::message_generator try_later(const Request& req, http::status status, std::string_view code,
                                  std::string_view message) {
  http::response<http::string_body> res{status, req.version()};
  set_common(res, req, kJson);
  res.set(http::field::retry_after, "1");
  if (req.method() != http::verb::head) res.body() = http_error_json(code, message);
  res.prepare_payload();
  return res;
}

http::message_generator file_response(const Request& req, const std::filesystem::path& path) {
  beast::error_code ec;
  http::file_body::value_type body;
  body.open(path.string().c_str(), beast::file_mode::scan, ec);
  if (ec)
    return text_response(req, http::status::not_found, "text/plain; charset=utf-8", "not found\n");
  const auto size = body.size();
  const auto type = content_type(path);
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    set_common(res, req, type);
    res.content_length(size);
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  set_common(res, req, type);
  res.content_length(size);
  return res;
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
      // The WebSocket session takes over the stream; its own timeouts replace the HTTP ones.
      return upgrade(parser_->release());
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

  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    auto res = http::response<http::string_body>{http::status::method_not_allowed, req.version()};
    set_common(res, req, kJson);
    res.set(http::field::allow, "GET, HEAD");
    res.body() = http_error_json("method_not_allowed", "only GET and HEAD are served");
    res.prepare_payload();
    return send(std::move(res));
  }
  // Every /api/ request of one address draws on one bucket, however many connections it opens.
  if (is_api && !state_->address_limits.take(address(), AddressLimiter::Kind::Api)) {
    state_->metrics.api_rate_limited.fetch_add(1, std::memory_order_relaxed);
    return send(try_later(req, http::status::too_many_requests, "rate_limited",
                          "too many requests from your address; try again in a second"));
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
    return send(text_response(req,
                              h.accepting ? http::status::ok : http::status::service_unavailable,
                              kJson, health_json(h)));
  }
  if (path == "/metrics") {
    std::string text = state_->metrics.prometheus(state_->registry.counts());
    if (state_->store) text += store_prometheus(*state_->store);
    return send(text_response(req, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                              std::move(text)));
  }
  if (path == "/api/rooms") {
    return send(text_response(req, http::status::ok, kJson, rooms_json(state_->registry.list())));
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
  if (path.rfind("/api/games/", 0) == 0)
    return handle_game(std::move(req), path.substr(11), target);
  if (is_api)
    return send(json_error(req, http::status::not_found, "not_found", "no such API path"));

  // A shareable room link is the web client, which reads the room from its address.
  if (is_room_link(path)) {
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

// GET /api/games/{room}[.pdn|/positions][?game=N]: the current game from memory; a room that is
// not loaded, or an earlier game of a rematch series, from the store.
void HttpSession::handle_game(Request req, std::string_view rest, const std::string& target) {
  std::string id(rest);
  auto strip = [&id](std::string_view suffix) {
    if (id.size() <= suffix.size() ||
        id.compare(id.size() - suffix.size(), suffix.size(), suffix) != 0) {
      return false;
    }
    id.resize(id.size() - suffix.size());
    return true;
  };
  const bool notation = strip(".pdn");
  const bool positions = !notation && strip("/positions");
  const RecordFormat format = notation    ? RecordFormat::Notation
                              : positions ? RecordFormat::Positions
                                          : RecordFormat::Json;
  int game_no = 0;
  if (auto q = target.find('?'); q != std::string::npos) {
    std::string_view query = std::string_view(target).substr(q + 1);
    while (!query.empty()) {
      const auto amp = query.find('&');
      std::string_view param = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      if (param.rfind("game=", 0) != 0) continue;
      std::string_view v = param.substr(5);
      int n = 0;
      bool ok = !v.empty() && v.size() <= 6;
      for (char c : v) {
        if (c < '0' || c > '9') ok = false;
        n = ok ? n * 10 + (c - '0') : 0;
      }
      if (!ok || n < 1) {
        return send(json_error(req, http::status::bad_request, "bad_request",
                               "`game` must be a game number: 1 for the room's first game"));
      }
      game_no = n;
    }
  }
  const auto type = notation ? std::string_view(kNotationContentType) : kJson;
  auto host = state_->registry.find(id);
  if (host && game_no != 0) {
    // An earlier game comes from the store; the current one from memory.
    if (game_no == host->summary().game_number) game_no = 0;
  }
  // Replays and store reads run on the record threads, a bounded number at a time.
  RecordWorks::Refusal why = RecordWorks::Refusal::None;
  auto ticket = state_->records.admit(address(), why);
  if (!ticket) {
    state_->metrics.records_refused.fetch_add(1, std::memory_order_relaxed);
    if (why == RecordWorks::Refusal::AddressBusy) {
      return send(try_later(req, http::status::too_many_requests, "rate_limited",
                            "your address has " +
                                std::to_string(state_->limits.record_jobs_per_address) +
                                " game records being prepared; wait for them"));
    }
    return send(try_later(req, http::status::service_unavailable, "busy",
                          "the server is preparing as many game records as it can; try again"));
  }
  auto self = shared_from_this();
  if (host && game_no == 0) {
    // On the room's strand: the cached record of this very state, else a copy of the room, from
    // which a record thread makes it.
    host->with_room([self, req = std::move(req), type, format,
                     ticket = std::move(ticket)](const Room& room) mutable {
      std::string key = live_record_key(room, format);
      if (auto text = self->state_->records.cached(key))
        return self->answer(std::move(req), type, std::move(text));
      self->state_->records.post(
          ticket, [self, req = std::move(req), type, format, key = std::move(key),
                   copy = std::make_shared<const Room>(room)]() mutable {
            auto text = std::make_shared<const std::string>(record_of(*copy, format));
            self->state_->records.cache(key, text);
            self->answer(std::move(req), type, std::move(text));
          });
    });
    return;
  }
  state_->records.post(ticket, [self, req = std::move(req), type, format, id, game_no,
                                live = host != nullptr]() mutable {
    self->answer_stored(std::move(req), type, format, id, game_no, live);
  });
}

// On a record thread. A stored game never changes (a room not in memory is never loaded again
// while the server runs, and an earlier game of a rematch series is over), so it is cached.
void HttpSession::answer_stored(Request req, std::string_view type, RecordFormat format,
                                const std::string& id, int game_no, bool live) {
  auto key = normalize_room_id(id);
  const std::string cache_key =
      key ? *key + "/" + std::to_string(game_no) + "/" + std::to_string(static_cast<int>(format))
          : std::string();
  if (key) {
    if (auto text = state_->records.cached(cache_key)) return answer(std::move(req), type, text);
  }
  StoredRecord r;
  if (key && state_->store) r = stored_record(*state_->store, *key, game_no, format);
  auto fail = [this, &req](http::status status, std::string_view code, std::string message) {
    net::post(executor(), [self = shared_from_this(), req = std::move(req), status,
                           code = std::string(code), message = std::move(message)] {
      self->send(json_error(req, status, code, message));
    });
  };
  if (!r.found) {
    if (game_no != 0 && (live || (key && state_->store && state_->store->has_room(*key)))) {
      return fail(http::status::not_found, "unknown_game",
                  "room " + id + " has no game " + std::to_string(game_no));
    }
    return fail(http::status::not_found, "unknown_room", "there is no room '" + id + "'");
  }
  if (!r.error.empty()) {
    spdlog::error("room {}: the stored game does not replay: {}", *key, r.error);
    return fail(http::status::internal_server_error, "server_error",
                "the stored game does not replay: " + r.error);
  }
  auto text = std::make_shared<const std::string>(std::move(r.body));
  state_->records.cache(cache_key, text);
  answer(std::move(req), type, std::move(text));
}

// Any thread: sends a record from this session's strand.
void HttpSession::answer(Request req, std::string_view type, Text body) {
  net::post(executor(), [self = shared_from_this(), req = std::move(req), type,
                         body = std::move(body)]() mutable {
    self->send(shared_response(req, type, std::move(body)));
  });
}

const std::string& HttpSession::address() const {
  static const std::string kNone;
  return slot_ ? slot_->address() : kNone;
}

void HttpSession::send(http::message_generator msg) {
  const bool keep_alive = msg.keep_alive();
  state_->metrics.http_status(t_status);
  t_status = 0;
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

  void upgrade(Request req) override {
    beast::get_lowest_layer(stream_).expires_never();
    std::make_shared<WebSocketSession<Stream>>(std::move(stream_), state_, slot_)
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
