// The cluster's relay in a WebSocket session (docs/CLUSTER.md, "Relay"): a join whose room runs
// on another node, the frames forwarded there, and the owner's answers and events. Included by
// websocket_session.cpp (the only place that defines the session's members).

namespace bc::server {

template <class Stream>
void WebSocketSession<Stream>::reserved(std::optional<std::string> id, ClientMessage request,
                                        Clock::time_point received) {
  if (!open_) {
    if (id) state_->cluster->released(*id);
    return;
  }
  paused_ = false;
  if (!id) return unavailable(request.id, "create");
  std::get<CreateMsg>(request.body).reserved_id = *id;
  route(std::move(request), received);
  // Refused (a limit): the lease goes back.
  if (!state_->registry.find(*id)) state_->cluster->released(*id);
  maybe_read();
}

template <class Stream>
void WebSocketSession<Stream>::unavailable(const RequestId& id, std::string_view request) {
  refuse(id, ErrorCode::ServerError,
         "the server cannot reach the room's server right now; try again in a few seconds",
         request);
  // Closed with 1012 after the error: the client retries by itself, with its backoff, through
  // the load balancer (which may meanwhile have taken this node out).
  close_when_drained_ = true;
  close_code_ = websocket::close_code::service_restart;
}

template <class Stream>
void WebSocketSession<Stream>::placed(const Placement& p, ClientMessage request, std::string text,
                                      Clock::time_point received) {
  if (!open_) return;
  paused_ = false;
  switch (p.where) {
    case Placement::Where::Local:
      route(std::move(request), received);
      break;
    case Placement::Where::Relay:
      // A member of a room here is out of it: its new room runs elsewhere.
      if (room_) room_->disconnect(id_);
      room_.reset();
      relay_to_ = p.owner;
      // Nothing else holds a connection that waits for another node's answer with no read
      // pending: it holds itself until the relay ends or its read fails.
      relay_hold_ = shared_from_this();
      paused_ = true;  // until the owner answers the join
      relay(std::move(text), received);
      break;
    case Placement::Where::Unknown:
      route(std::move(request), received);  // the lobby's own unknown_room
      break;
    case Placement::Where::Unavailable:
      return unavailable(request.id, "join");
  }
  maybe_read();
}

template <class Stream>
void WebSocketSession<Stream>::end_relay() {
  state_->cluster->bye(std::exchange(relay_to_, {}), id_);
  relay_hold_.reset();
}

// A session that closes ends its relay: one that waits for a relayed join's answer has no read
// pending, so nothing else would drop the hold it has on itself (and the server leaked it).
template <class Stream>
void WebSocketSession<Stream>::release_relay() {
  if (!relay_to_.empty()) end_relay();
}

template <class Stream>
void WebSocketSession<Stream>::relay(std::string text, Clock::time_point received, bool answered) {
  RelayRequest r;
  r.conn = id_;
  r.address = std::string(address());
  r.form = static_cast<int>(compact_);
  r.sent_unix_ms =
      real_time().unix_ms() -
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - received).count();
  r.text = std::move(text);
  if (who_) r.who = identity_json(*who_);
  state_->cluster->forward(relay_to_, std::move(r));
  if (!paused_ && answered) ++inflight_;
}

template <class Stream>
void WebSocketSession<Stream>::relay_answered(bool joined) {
  net::post(ws_.get_executor(), [self = shared_from_this(), joined] {
    if (!joined && !self->relay_to_.empty()) self->end_relay();
    self->paused_ = false;
    self->maybe_read();
  });
}

template <class Stream>
void WebSocketSession<Stream>::relay_detached() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->relay_to_.empty()) self->end_relay();
  });
}

template <class Stream>
void WebSocketSession<Stream>::moved() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->open_ || self->close_when_drained_) return;
    if (!self->relay_to_.empty()) self->end_relay();
    self->room_.reset();
    // 1012 (service restart): the client reconnects by itself and its join finds the room
    // where it runs now (docs/CLUSTER.md, "Failover").
    self->send(std::make_shared<const std::string>(
        notice_json("room_moving", "this game moves to another server; reconnecting in a moment")));
    self->close_when_drained_ = true;
    self->close_code_ = websocket::close_code::service_restart;
    if (self->queue_.empty())
      self->close_with(websocket::close_code::service_restart, "room moving");
  });
}

}  // namespace bc::server
