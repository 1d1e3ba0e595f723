// What a WebSocket session sends: its bounded queue with one write in flight, its closes, and
// the watch on whether the peer is still there (pings). Included by websocket_session.cpp (the
// only place that defines the session's members).

namespace bc::server {

// ---------------------------------------------------------------------------------------------
// Writing: a bounded queue, one write in flight.

template <class Stream>
bool WebSocketSession<Stream>::congested() const {
  const auto& l = state_->limits;
  return queue_.size() > l.send_queue_coalesce || queued_bytes_ > l.send_queue_coalesce_bytes;
}

template <class Stream>
std::size_t WebSocketSession<Stream>::drop_queued_states() {
  std::size_t dropped = 0;
  // The front is being written: it stays.
  for (auto it = queue_.begin() + (queue_.empty() ? 0 : 1); it != queue_.end();) {
    if (it->kind == MessageKind::State || it->kind == MessageKind::Delta) {
      queued_bytes_ -= it->text->size();
      it = queue_.erase(it);
      ++dropped;
    } else {
      ++it;
    }
  }
  return dropped;
}

template <class Stream>
void WebSocketSession<Stream>::send(Peer::Message message) {
  if (!open_ || close_when_drained_) return;
  auto& text = message.text;
  const auto now = Clock::now();
  const auto& l = state_->limits;
  MessageKind kind = message.kind;
  if (kind != MessageKind::Other && congested()) {
    // A client slower than its room's broadcasts (a slow link, a flood of spectators) is sent
    // fewer of them instead of being cut off: chat is dropped, and the newest state replaces the
    // queued ones (it holds all they said). A delta applies only to the state before it, so once
    // one is dropped the next goes out in full.
    if (kind == MessageKind::Chat) {
      state_->metrics.shed(Shed::Chat);
      return;
    }
    if (kind == MessageKind::State || message.full_text || message.full_state) {
      if (const std::size_t dropped = drop_queued_states(); dropped > 0) {
        state_->metrics.shed(Shed::State, dropped);
        if (kind == MessageKind::Delta) {
          text = message.full();
          kind = MessageKind::State;
        }
      }
    }
  }
  if (!queue_.empty() &&
      (queue_.size() >= l.send_queue_max || queued_bytes_ + text->size() > l.send_queue_max_bytes ||
       now - queue_.front().since > l.send_stall_timeout)) {
    // A client that does not read must not grow our memory: drop it.
    state_->metrics.slow_clients_dropped.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("ws #{}: dropped: {} messages ({} bytes) queued and unread", id_, queue_.size(),
                 queued_bytes_);
    cut_off();
    return;
  }
  queued_bytes_ += text->size();
  queue_.push_back(Queued{std::move(text), now, kind});
  if (queue_.size() == 1) do_write();
}

template <class Stream>
void WebSocketSession<Stream>::do_write() {
  ws_.text(true);
  ws_.async_write(net::buffer(*queue_.front().text),
                  beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_write(beast::error_code ec, std::size_t) {
  if (ec) {
    open_ = false;
    queue_.clear();
    queued_bytes_ = 0;
    return fail(ec, "ws write");
  }
  queued_bytes_ -= queue_.front().text->size();
  queue_.pop_front();
  if (!queue_.empty()) {
    do_write();
  } else if (close_when_drained_) {
    close_with(close_code_, close_code_ == websocket::close_code::going_away
                                ? "server shutting down"
                                : "room moving");
  }
}

template <class Stream>
void WebSocketSession<Stream>::close_with(websocket::close_code code, std::string_view reason) {
  if (!open_) return;
  open_ = false;
  release_relay();
  ws_.async_close(websocket::close_reason(code, reason),
                  beast::bind_front_handler(&WebSocketSession::on_close, shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_close(beast::error_code ec) {
  if (ec) fail(ec, "ws close");
}

// Closes the socket without a closing handshake: the pending read fails and the session ends.
template <class Stream>
void WebSocketSession<Stream>::cut_off() {
  open_ = false;
  release_relay();
  beast::error_code ec;
  socket_of(beast::get_lowest_layer(ws_)).close(ec);
}

// ---------------------------------------------------------------------------------------------
// The idle timeout.

template <class Stream>
void WebSocketSession<Stream>::watch_liveness() {
  if (state_->limits.ws_idle_timeout <= std::chrono::seconds::zero()) return;  // no idle timeout
  liveness_.expires_after(state_->limits.ws_idle_timeout / 2);
  liveness_.async_wait([weak = weak_from_this()](beast::error_code ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->on_liveness();
  });
}

template <class Stream>
void WebSocketSession<Stream>::on_liveness() {
  if (!open_) return;
  if (std::exchange(heard_, false)) {
    pinged_ = false;
  } else if (!std::exchange(pinged_, true)) {
    ws_.async_ping({}, [self = shared_from_this()](beast::error_code) {});
  } else {
    // Silent through a ping and a half timeout: what Beast's own timeout did (the pending read
    // fails and the session ends).
    spdlog::info("ws #{}: dropped: no answer to a ping", id_);
    cut_off();
    return;
  }
  watch_liveness();
}

}  // namespace bc::server
