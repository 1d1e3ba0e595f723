// The players' part of a WebSocket session (docs/PLAYERS.md): a signed-in connection's create and
// join, its pool requests, and the pools' calls back to it. Included by websocket_session.cpp,
// the only place that instantiates the session; not a header of its own.

namespace bc::server {

template <class Stream>
void WebSocketSession<Stream>::sign(ClientMessage& request) {
  if (!who_ || !state_->accounts) return;
  // The ratings as they are now (a game may have ended since the connection opened).
  who_->ratings = state_->accounts->ratings_of(who_->id);
  if (auto* c = std::get_if<CreateMsg>(&request.body)) c->who = who_;
  if (auto* j = std::get_if<JoinMsg>(&request.body)) j->who = who_;
  // A player who goes to a game is no longer waiting for one.
  if (state_->pools) state_->pools->leave(id_);
}

template <class Stream>
void WebSocketSession<Stream>::pool_request(const RequestId& id, const PoolMsg& p) {
  if (!state_->pools) {
    return refuse(id, ErrorCode::UnknownPool, "this server has no pools (serve --no-accounts)",
                  "pool");
  }
  if (!p.pool) {
    state_->pools->leave(id_);
    return send(std::make_shared<const std::string>(pool_json(id, std::nullopt, 0)));
  }
  const PoolSpec* spec = find_pool(*p.pool);
  if (!spec) {
    return refuse(id, ErrorCode::UnknownPool,
                  "there is no pool '" + *p.pool + "': `welcome` lists the pools", "pool");
  }
  if (!who_) {
    return refuse(id, ErrorCode::SignInRequired,
                  "pools pair signed-in players for rated games: sign in (or play as a guest) on "
                  "this server's page, then connect again",
                  "pool");
  }
  who_->ratings = state_->accounts->ratings_of(who_->id);
  std::weak_ptr<WebSocketSession> weak = this->weak_from_this();
  state_->pools->enter(
      id_, spec->id, *who_, weak, [weak, id, pool = spec->id](std::size_t waiting) {
        if (auto self = weak.lock()) {
          auto text = std::make_shared<const std::string>(pool_json(id, pool, waiting));
          net::post(self->ws_.get_executor(), [self, text = std::move(text)] { self->send(text); });
        }
      });
}

template <class Stream>
void WebSocketSession<Stream>::pool_create(const PoolSpec& pool, const Identity& opponent,
                                           std::function<void(std::string room)> made) {
  net::post(ws_.get_executor(), [self = shared_from_this(), pool, opponent_id = opponent.id,
                                 made = std::move(made)]() mutable {
    if (!self->open_ || self->paused_ || !self->who_ || self->pool_made_) return made("");
    CreateMsg c;
    c.variant = std::string(variant_key(pool.variant));
    c.clock = pool.clock;
    c.rated = true;
    c.seat = "random";
    c.name = self->who_->account() ? self->who_->name : "Guest";
    c.keep_for = std::move(opponent_id);
    c.compact = self->compact_;
    ClientMessage request{RequestId{}, std::move(c)};
    self->sign(request);
    self->pool_made_ = std::move(made);
    self->pool_id_ = pool.id;
    self->dispatch(std::move(request), {}, Clock::now());
  });
}

template <class Stream>
void WebSocketSession<Stream>::pool_join(const PoolSpec& pool, std::string room) {
  net::post(ws_.get_executor(),
            [self = shared_from_this(), pool = pool.id, room = std::move(room)] {
              if (!self->open_) return;
              self->send(std::make_shared<const std::string>(paired_json(pool, room, true)));
            });
}

template <class Stream>
void WebSocketSession<Stream>::pool_waiting(const std::string& pool, std::size_t waiting) {
  auto text = std::make_shared<const std::string>(pool_json(RequestId{}, pool, waiting));
  net::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)] {
    if (self->open_) self->send(text);
  });
}

template <class Stream>
void WebSocketSession<Stream>::pool_dropped(std::string why) {
  net::post(ws_.get_executor(), [self = shared_from_this(), why = std::move(why)] {
    if (!self->open_) return;
    self->send(std::make_shared<const std::string>(pool_json(RequestId{}, std::nullopt, 0, why)));
  });
}

}  // namespace bc::server
