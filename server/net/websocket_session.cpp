#include "server/net/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/beast/ssl.hpp>

#include "server/host/lobby.hpp"
#include "server/net/lan.hpp"
#include "server/net/origin.hpp"

namespace bc::server {

namespace {

// The TCP socket under a session's stream (its lowest layer: a socket, or TLS's tcp_stream).
template <class Executor>
net::basic_stream_socket<tcp, Executor>& socket_of(net::basic_stream_socket<tcp, Executor>& s) {
  return s;
}
tcp::socket& socket_of(beast::tcp_stream& s) {
  return s.socket();
}

std::string loggable(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (text.size() > kMax) out += "...";
  return out;
}

}  // namespace

template <class Stream>
WebSocketSession<Stream>::WebSocketSession(Stream&& stream, std::shared_ptr<SharedState> state,
                                           AddressTicket slot)
    : ws_(std::move(stream)),
      state_(std::move(state)),
      slot_(std::move(slot)),
      id_(state_->next_member.fetch_add(1, std::memory_order_relaxed)),
      bucket_(state_->limits.rate_per_second, state_->limits.rate_burst),
      liveness_(ws_.get_executor()) {
  state_->metrics.ws_open.fetch_add(1, std::memory_order_relaxed);
}

template <class Stream>
WebSocketSession<Stream>::~WebSocketSession() {
  state_->metrics.ws_open.fetch_sub(1, std::memory_order_relaxed);
  state_->remove(id_);
  if (!state_->stopping) {
    if (room_) room_->disconnect(id_);
    if (pending_ && pending_ != room_) pending_->disconnect(id_);
  }
  if (!relay_to_.empty() && state_->cluster) state_->cluster->bye(relay_to_, id_);
  if (state_->pools) state_->pools->leave(id_);
  if (pool_made_) pool_made_("");
  spdlog::info("ws #{}: closed", id_);
}

template <class Stream>
void WebSocketSession<Stream>::run(http::request<http::string_body> req) {
  const auto compact = query_param(req.target(), "compact");
  if (compact && (*compact == "1" || *compact == "true")) compact_ = StateForm::Delta;
  if (compact && *compact == "2") compact_ = StateForm::ShortDelta;
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.handshake_timeout = state_->limits.handshake_timeout;
  timeouts.idle_timeout = websocket::stream_base::none();  // watch_liveness() keeps it
  timeouts.keep_alive_pings = false;
  ws_.set_option(timeouts);
  // Control frames (a pong, a ping) are the peer's signs of life as much as messages are.
  ws_.control_callback([this](websocket::frame_type, beast::string_view) { heard_ = true; });
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, kServerHeader); }));
  ws_.read_message_max(state_->limits.max_message_bytes);
  // The player of the page's session cookie, when the page is this server's own (docs/PLAYERS.md):
  // a page elsewhere must not play as whoever its visitor is signed in as here.
  if (state_->accounts && from_own_page(req[http::field::origin], req["Sec-Fetch-Site"],
                                        req[http::field::host], state_->config.allowed_origins)) {
    if (auto secret = session_secret(req[http::field::cookie]); !secret.empty()) {
      who_ = state_->accounts->identify(secret);
    }
  }
  ws_.async_accept(req,
                   beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "ws accept");
  open_ = true;
  state_->add(id_, weak_from_this());
  beast::error_code ep_ec;
  auto remote = socket_of(beast::get_lowest_layer(ws_)).remote_endpoint(ep_ec);
  const std::string peer = ep_ec ? std::string("?") : remote.address().to_string();
  if (ep_ec || address().empty() || address() == peer) {
    spdlog::info("ws #{}: connected from {}", id_, peer);
  } else {
    // Its upgrade came through a trusted proxy, which named the client (X-Forwarded-For).
    spdlog::info("ws #{}: connected from {} via {}", id_, address(), peer);
  }
  send(state_->welcome);
  do_read();
  watch_liveness();
}

template <class Stream>
void WebSocketSession<Stream>::maybe_read() {
  if (open_ && !reading_ && !paused_ && inflight_ < state_->limits.max_inflight_requests) do_read();
}

template <class Stream>
void WebSocketSession<Stream>::do_read() {
  reading_ = true;
  ws_.async_read(buffer_,
                 beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  reading_ = false;
  heard_ = true;
  if (ec) {
    open_ = false;
    relay_hold_.reset();  // the destructor says bye to the owner
    if (ec == websocket::error::message_too_big) {
      // Beast has already sent the close frame with 1009 (too big).
      state_->metrics.oversized_closed.fetch_add(1, std::memory_order_relaxed);
      state_->metrics.refused(ErrorCode::TooLarge);
      spdlog::info("ws #{}: closed with 1009: a frame over {} bytes", id_,
                   state_->limits.max_message_bytes);
      return;
    }
    return fail(ec, "ws read");
  }
  state_->metrics.messages_received.fetch_add(1, std::memory_order_relaxed);
  const auto now = Clock::now();
  const bool own = bucket_.take(now);
  // The address's budget is taken only by messages the connection's own lets through, and a
  // refusal by either counts as this connection's strike: the flooding connections get closed.
  const bool shared =
      own && state_->address_limits.take(address(), AddressLimiter::Kind::Message, now);
  if (!own || !shared) {
    if (!shared) state_->metrics.limited(Limited::AddressMessages);
    if (flooding(now)) {
      state_->metrics.flooders_closed.fetch_add(1, std::memory_order_relaxed);
      spdlog::info("ws #{}: closed with 1008 for flooding", id_);
      return close_with(websocket::close_code::policy_error, "too many messages");
    }
    const auto& l = state_->limits;
    refuse({}, ErrorCode::RateLimited,
           own ? "too many messages from your address: at most " +
                     std::to_string(static_cast<int>(l.address_rate_per_second)) +
                     " a second from all its connections together; this one was dropped"
               : "too many messages: at most " +
                     std::to_string(static_cast<int>(l.rate_per_second)) +
                     " a second; this one was dropped",
           "");
  } else if (!ws_.got_text()) {
    refuse({}, ErrorCode::BadMessage, "send JSON in text frames, not binary ones", "");
  } else {
    const auto data = buffer_.cdata();
    on_message(std::string_view(static_cast<const char*>(data.data()), data.size()));
  }
  buffer_.consume(buffer_.size());
  maybe_read();
}

template <class Stream>
bool WebSocketSession<Stream>::flooding(Clock::time_point now) {
  strikes_.push_back(now);
  while (!strikes_.empty() && now - strikes_.front() > state_->limits.flood_window)
    strikes_.pop_front();
  return strikes_.size() >= static_cast<std::size_t>(state_->limits.flood_strikes);
}

template <class Stream>
void WebSocketSession<Stream>::on_message(std::string_view text) {
  const auto received = Clock::now();
  auto parsed = parse_client_message(text);
  if (auto* e = std::get_if<ParseError>(&parsed)) {
    return refuse(e->id, e->error.code, std::move(e->error.message), e->type);
  }
  auto& request = std::get<ClientMessage>(parsed);
  if (const auto* ping = std::get_if<PingMsg>(&request.body)) {
    if (ping->lag && room_) room_->report_lag(id_, *ping->lag);
    // A relayed player's lag goes to the owner (its presence); nothing answers it there.
    if (ping->lag && !relay_to_.empty() && !paused_) relay(std::string(text), received, false);
    // The server's time for the client's clocks: answered here, never through a room.
    return send(
        std::make_shared<const std::string>(pong_json(request.id, ping->t, real_time().unix_ms())));
  }
  if (compact_ != StateForm::Full) {
    if (auto* c = std::get_if<CreateMsg>(&request.body))
      c->compact = std::max(c->compact, compact_);
    if (auto* j = std::get_if<JoinMsg>(&request.body)) j->compact = std::max(j->compact, compact_);
  }
  if (std::holds_alternative<JoinMsg>(request.body) &&
      !state_->address_limits.take(address(), AddressLimiter::Kind::Join, received)) {
    // Every join is answered with a state and (re)seats someone: a join flood from fresh
    // connections must not reach the room.
    state_->metrics.limited(Limited::AddressJoins);
    return refuse(request.id, ErrorCode::RateLimited,
                  "too many joins from your address: at most " +
                      std::to_string(state_->limits.joins_per_address_per_minute) +
                      " a minute; try again in a few seconds",
                  "join");
  }
  if (std::holds_alternative<CreateMsg>(request.body) &&
      !state_->address_limits.take(address(), AddressLimiter::Kind::Create, received)) {
    // Every room is kept in the store: a create flood must not fill the disk (issue 13).
    state_->metrics.limited(Limited::AddressCreates);
    return refuse(request.id, ErrorCode::RateLimited,
                  "too many new rooms from your address: at most " +
                      std::to_string(state_->limits.creates_per_address_per_minute) +
                      " a minute; try again in a few seconds, or play on in a room you have",
                  "create");
  }
  if (auto* a = std::get_if<AnalyseMsg>(&request.body)) {
    if (!state_->address_limits.take(address(), AddressLimiter::Kind::Analyse, received,
                                     // A watcher's lagged history `from` a version
                                     // answers at most 4 versions: it costs one.
                                     a->history && !(a->lagged && a->from) ? kHistoryCost : 1.0)) {
      // Each analysis is up to a second of a computer thread.
      state_->metrics.limited(Limited::AddressAnalyses);
      return refuse(request.id, ErrorCode::RateLimited,
                    "too many analyses from your address: at most " +
                        std::to_string(state_->limits.analyses_per_address_per_minute) +
                        " a minute (a history counts " + std::to_string(int(kHistoryCost)) +
                        "); try again in a few seconds",
                    "analyse");
    }
    if (a->free) return analyse_free(request.id, *a);
  }
  if (auto* p = std::get_if<PoolMsg>(&request.body)) return pool_request(request.id, *p);
  if (std::holds_alternative<CreateMsg>(request.body) ||
      std::holds_alternative<JoinMsg>(request.body)) {
    sign(request);
  }
  dispatch(std::move(request), text, received);
}

template <class Stream>
void WebSocketSession<Stream>::dispatch(ClientMessage request, std::string_view text,
                                        Clock::time_point received) {
  if (state_->cluster) {
    const bool joining = std::holds_alternative<JoinMsg>(request.body) ||
                         std::holds_alternative<CreateMsg>(request.body);
    if (!relay_to_.empty() && !joining) return relay(std::string(text), received);
    // Off to another room: out of the relayed one first.
    if (!relay_to_.empty()) end_relay();
    if (std::holds_alternative<CreateMsg>(request.body)) {
      // The new room's lease first, so that no join on another node takes its id meanwhile.
      paused_ = true;
      state_->cluster->reserve([self = shared_from_this(), executor = ws_.get_executor(),
                                request = std::move(request),
                                received](std::optional<std::string> id) mutable {
        net::post(executor, [self = std::move(self), id = std::move(id),
                             request = std::move(request), received]() mutable {
          self->reserved(std::move(id), std::move(request), received);
        });
      });
      return;
    }
    const auto* join = std::get_if<JoinMsg>(&request.body);
    if (join && !state_->registry.find(join->room)) {
      // Where the room runs is Redis's to say: asked off this strand, the reading paused (the
      // question holds the session, as a room holds a request's sender).
      paused_ = true;
      auto executor = ws_.get_executor();
      std::string room = join->room;
      state_->cluster->resolve(
          std::move(room), [self = shared_from_this(), executor, request = std::move(request),
                            text = std::string(text), received](Placement p) mutable {
            net::post(executor,
                      [self = std::move(self), p = std::move(p), request = std::move(request),
                       text = std::move(text), received]() mutable {
                        self->placed(p, std::move(request), std::move(text), received);
                      });
          });
      return;
    }
  }
  route(std::move(request), received);
}

template <class Stream>
void WebSocketSession<Stream>::route(ClientMessage request, Clock::time_point received) {
  static const std::string kNoAddress;
  auto routed = route_request(state_->registry, state_->limits,
                              {shared_from_this(), std::move(request), received, room_,
                               slot_ ? slot_->address() : kNoAddress});
  if (auto* r = std::get_if<LobbyRefusal>(&routed)) {
    return refuse(r->id, r->error.code, std::move(r->error.message), r->request);
  }
  auto& to = std::get<LobbyRouted>(routed);
  if (to.awaits_join) {
    pending_ = std::move(to.room);
    paused_ = true;
  } else {
    ++inflight_;
  }
}

// A free position (the analysis board): no room is involved, so the connection hands it to the
// analyst itself; its answer comes back through deliver().
template <class Stream>
void WebSocketSession<Stream>::analyse_free(const RequestId& id, const AnalyseMsg& a) {
  auto setup = resolve_create(*a.free);
  if (auto* e = std::get_if<Error>(&setup)) {
    return refuse(id, e->code, std::move(e->message), "analyse");
  }
  Analyst& analyst = state_->registry.analyst();
  const Game& game = std::get<GameSetup>(setup).game;
  if (analyst.is_live(game)) {
    return refuse(id, ErrorCode::AnalysisNotAllowed,
                  "this position is being played in a game between two people (or is a turn "
                  "away from it); it can be analysed once that game is over",
                  "analyse");
  }
  AnalysisJob job;
  job.address = std::string(address());
  job.id = id;
  job.moves = a.moves;
  job.positions.emplace_back(0, game);
  std::weak_ptr<WebSocketSession> weak = this->shared_from_this();
  job.wanted = [weak] { return !weak.expired(); };
  job.reply = [weak](std::string text) {
    if (auto self = weak.lock()) {
      Peer::Texts texts;
      texts.emplace_back(std::make_shared<const std::string>(std::move(text)));
      self->deliver(std::move(texts), false);
    }
  };
  analyst.submit(std::move(job));
}

template <class Stream>
void WebSocketSession<Stream>::refuse(const RequestId& id, ErrorCode code, std::string message,
                                      std::string_view request) {
  state_->metrics.refused(code);
  // One line per refusal; rate-limited messages only at debug (a flooder is closed, and logged,
  // soon). `request` may be a client's unknown type: shown short and without control characters, so
  // it cannot forge log lines.
  spdlog::log(code == ErrorCode::RateLimited ? spdlog::level::debug : spdlog::level::info,
              "ws #{}: refused {}: {}", id_, request.empty() ? "message" : loggable(request),
              error_code_name(code));
  send(std::make_shared<const std::string>(
      error_json(id, Error{code, std::move(message)}, request)));
}

// ---------------------------------------------------------------------------------------------
// Peer: called from room strands.

template <class Stream>
void WebSocketSession<Stream>::deliver(Texts texts, bool request_handled) {
  net::post(ws_.get_executor(),
            [self = shared_from_this(), texts = std::move(texts), request_handled]() mutable {
              self->take(std::move(texts), request_handled);
            });
}

template <class Stream>
void WebSocketSession<Stream>::deliver_from_room(Texts texts, bool request_handled) {
  // One I/O thread: the room's handler runs on it, outside any of this session's handlers, so
  // what the post would run later runs now (a hand-off less per member and broadcast).
  if (state_->config.threads > 1) return deliver(std::move(texts), request_handled);
  take(std::move(texts), request_handled);
}

template <class Stream>
void WebSocketSession<Stream>::take(Texts texts, bool request_handled) {
  for (auto& t : texts) send(std::move(t));
  if (request_handled) {
    if (inflight_ > 0) --inflight_;
    maybe_read();
  }
}

template <class Stream>
void WebSocketSession<Stream>::join_answered(std::shared_ptr<RoomHost> room) {
  net::post(ws_.get_executor(), [self = shared_from_this(), room = std::move(room)]() mutable {
    self->pending_.reset();
    const bool joined = room != nullptr;
    if (room) {
      if (self->room_ && self->room_ != room) self->room_->disconnect(self->id_);
      self->room_ = std::move(room);
    }
    if (auto made = std::exchange(self->pool_made_, nullptr)) {
      // The pairing's room: the opponent is sent to it, and this player is told it was a pairing.
      made(joined ? self->room_->id() : std::string());
      if (joined) {
        self->send(std::make_shared<const std::string>(
            paired_json(self->pool_id_, self->room_->id(), false)));
      }
    }
    self->paused_ = false;
    self->maybe_read();
  });
}

template <class Stream>
void WebSocketSession<Stream>::detached(const RoomHost* room) {
  net::post(ws_.get_executor(), [self = shared_from_this(), room] {
    if (self->room_.get() == room) self->room_.reset();
  });
}

template <class Stream>
void WebSocketSession<Stream>::shutdown() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->open_ || self->close_when_drained_) return;
    // The notice goes out after what is already queued; the close follows once it is written.
    self->state_->metrics.shutdown_notices.fetch_add(1, std::memory_order_relaxed);
    self->send(std::make_shared<const std::string>(notice_json(
        "server_restarting",
        "the server is shutting down or restarting; your game is kept: reconnect in a moment")));
    self->close_when_drained_ = true;
    if (self->queue_.empty())
      self->close_with(websocket::close_code::going_away, "server shutting down");
  });
}

}  // namespace bc::server

#include "server/net/websocket_outgoing.ipp"
#include "server/net/websocket_players.ipp"
#include "server/net/websocket_relay.ipp"

namespace bc::server {

// The three streams a session runs on: ws:// and wss:// (TLS: `serve --tls-cert`).
template class WebSocketSession<DirectSocket>;
template class WebSocketSession<tcp::socket>;
template class WebSocketSession<beast::ssl_stream<beast::tcp_stream>>;

}  // namespace bc::server
