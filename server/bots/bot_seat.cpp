#include "server/bots/bot_seat.hpp"

#include "server/bots/game_json.hpp"
#include "server/bots/turn_text.hpp"
#include "server/game/clock.hpp"
#include "server/host/lobby.hpp"

namespace bc::server {

namespace {

std::int64_t now_ms() {
  return real_time().unix_ms();
}

std::shared_ptr<const std::string> line_of(const nlohmann::ordered_json& j) {
  return std::make_shared<const std::string>(j.dump());
}

// A gameState without what changes by itself (the clocks run): two equal keys are one state.
std::string state_key(nlohmann::ordered_json j) {
  j.erase("clocks");
  return j.dump();
}

}  // namespace

BotSeat::BotSeat(MemberId id, Identity who, Hooks hooks)
    : id_(id), who_(std::move(who)), hooks_(std::move(hooks)) {}

bool BotSeat::over() const {
  std::lock_guard lock(mu_);
  return finished_;
}

BotSeat::ojson BotSeat::summary() const {
  std::lock_guard lock(mu_);
  return summary_;
}

void BotSeat::create(Registry& registry, const Limits& limits, CreateMsg msg, BotDone done) {
  msg.who = who_;
  msg.name = who_.name;
  take_seat(registry, limits, std::move(msg), std::move(done));
}

void BotSeat::join(Registry& registry, const Limits& limits, const std::string& room,
                   BotDone done) {
  JoinMsg j;
  j.room = room;
  j.seat = "any";
  j.name = who_.name;
  j.who = who_;
  take_seat(registry, limits, std::move(j), std::move(done));
}

void BotSeat::take_seat(Registry& registry, const Limits& limits, MessageBody msg, BotDone done) {
  std::optional<BotRefusal> refused;
  {
    std::lock_guard lock(mu_);
    registry_ = &registry;
    limits_ = &limits;
    seated_ = done;
    refused = route(ClientMessage{RequestId{}, std::move(msg)});
    if (refused) seated_ = nullptr;
  }
  if (refused) done(refused);
}

std::optional<BotRefusal> BotSeat::route(ClientMessage msg) {
  static const std::string kNoAddress;  // a bot's requests are limited per token, not address
  auto routed = route_request(
      *registry_, *limits_, {shared_from_this(), std::move(msg), Clock::now(), host_, kNoAddress});
  if (auto* r = std::get_if<LobbyRefusal>(&routed)) {
    return BotRefusal{std::string(error_code_name(r->error.code)), std::move(r->error.message)};
  }
  return std::nullopt;
}

void BotSeat::request(MessageBody body, BotDone done) {
  {
    std::lock_guard lock(mu_);
    pending_.push_back(Pending{ClientMessage{RequestId{}, std::move(body)}, std::move(done)});
  }
  pump();
}

void BotSeat::pump() {
  for (;;) {
    BotDone done;
    std::optional<BotRefusal> refused;
    {
      std::lock_guard lock(mu_);
      if (inflight_ || pending_.empty()) return;
      if (!host_) {
        refused = BotRefusal{"unknown_room", "the seat's room is not made yet"};
      } else {
        inflight_ = true;
        last_error_.reset();
        refused = route(pending_.front().msg);
        if (!refused) return;  // the room answers it (deliver)
        inflight_ = false;
      }
      done = std::move(pending_.front().done);
      pending_.pop_front();
    }
    if (done) done(refused);
  }
}

void BotSeat::play(std::string text, BotDone done) {
  std::shared_ptr<RoomHost> host;
  {
    std::lock_guard lock(mu_);
    host = host_;
  }
  if (!host) return done(BotRefusal{"unknown_room", "the game is not ready yet"});
  host->with_room([self = shared_from_this(), text = std::move(text),
                   done = std::move(done)](const Room* room) mutable {
    if (!room) {
      return done(BotRefusal{"server_error", "the game cannot be read now; try again"});
    }
    const auto side = room->seat_of(self->id_);
    const Game& g = room->game();
    if (!side) return done(BotRefusal{"not_a_player", "this bot holds no seat in the game"});
    if (g.over()) return done(BotRefusal{"game_over", "the game is over"});
    if (room->status() != RoomStatus::Playing) {
      return done(BotRefusal{"not_started", "the game has not started: a seat is empty"});
    }
    if (g.turn() != *side) return done(BotRefusal{"not_your_turn", "it is the opponent's turn"});
    auto turn = read_turn(g, text);
    if (auto* why = std::get_if<std::string>(&turn)) {
      return done(BotRefusal{"illegal_move", *why, legal_turn_texts(g)});
    }
    self->play_actions(std::get<Turn>(turn).actions, room->version(), 0, std::move(done));
  });
}

void BotSeat::play_actions(std::vector<Action> actions, std::int64_t version, std::size_t next,
                           BotDone done) {
  if (next >= actions.size()) return done(std::nullopt);
  ActMsg act;
  act.action = actions[next];
  act.version = version + static_cast<std::int64_t>(next);
  request(std::move(act), [self = shared_from_this(), actions, version, next,
                           done = std::move(done)](std::optional<BotRefusal> refused) mutable {
    if (refused) return done(std::move(refused));
    self->play_actions(std::move(actions), version, next + 1, std::move(done));
  });
}

void BotSeat::deliver(Texts texts, bool request_handled) {
  bool changed = false;
  std::vector<std::shared_ptr<const std::string>> chat;
  BotDone done;
  std::optional<BotRefusal> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& m : texts) {
      if (m.kind == MessageKind::State || m.kind == MessageKind::Delta) {
        changed = true;
        continue;
      }
      if (!m.text) continue;
      const auto j = nlohmann::json::parse(*m.text, nullptr, false);
      const std::string type = j.is_object() ? j.value("type", "") : "";
      if (type == "error") {
        last_error_ = BotRefusal{j.value("code", "server_error"), j.value("message", "")};
      } else if (type == "chat") {
        chat.push_back(line_of(nlohmann::ordered_json{{"type", "chatLine"},
                                                      {"username", j.value("from", "")},
                                                      {"text", j.value("text", "")}}));
      } else if (type != "joined" && type != "ok") {
        changed = true;  // an offer, a presence change: the state shows it
      }
    }
    for (const auto& line : chat) {
      for (const auto& s : streams_) s.sink->push(line);
    }
    if (request_handled && inflight_ && !pending_.empty()) {
      done = std::move(pending_.front().done);
      pending_.pop_front();
      inflight_ = false;
      result = std::exchange(last_error_, std::nullopt);
    }
  }
  if (done) done(std::move(result));
  if (changed) refresh();
  pump();
}

void BotSeat::join_answered(std::shared_ptr<RoomHost> room) {
  BotDone done;
  std::optional<BotRefusal> refused;
  {
    std::lock_guard lock(mu_);
    done = std::exchange(seated_, nullptr);
    if (room) {
      host_ = room;
      room_id_ = room->id();
    } else {
      refused = last_error_.value_or(BotRefusal{"server_error", "the room could not be made"});
    }
  }
  if (!room) {
    if (done) done(std::move(refused));
    return;
  }
  // The summary first, so that the answer and gameStart both show the seat.
  room->with_room([self = shared_from_this(), done = std::move(done)](const Room* r) {
    const auto side = r ? r->seat_of(self->id_) : std::nullopt;
    if (!side) {
      if (done) done(BotRefusal{"seat_taken", "the bot did not get a seat"});
      return;
    }
    ojson game = bot_game_summary(*r, *side);
    {
      std::lock_guard lock(self->mu_);
      self->side_ = side;
      self->summary_ = game;
    }
    if (self->hooks_.started) self->hooks_.started(game);
    if (done) done(std::nullopt);
  });
}

void BotSeat::detached(const RoomHost* /*room*/) {}

void BotSeat::close_streams() {
  std::vector<Stream> streams;
  {
    std::lock_guard lock(mu_);
    streams.swap(streams_);
  }
  for (auto& s : streams) s.sink->close();
}

void BotSeat::attach(std::shared_ptr<LineSink> stream) {
  std::shared_ptr<RoomHost> host;
  {
    std::lock_guard lock(mu_);
    host = host_;
  }
  if (!host) return stream->close();
  std::weak_ptr<BotSeat> weak = weak_from_this();
  stream->on_close([weak, raw = stream.get()] {
    auto self = weak.lock();
    if (!self) return;
    std::lock_guard lock(self->mu_);
    std::erase_if(self->streams_, [raw](const Stream& s) { return s.sink.get() == raw; });
  });
  // gameFull and the stream's place among the streams in one step of the room's strand, where
  // every later line is made: nothing reaches it before gameFull.
  host->with_room([self = shared_from_this(), stream](const Room* r) {
    const auto side = r ? r->seat_of(self->id_) : std::nullopt;
    if (!side) return stream->close();
    const std::int64_t now = now_ms();
    const ojson full = bot_game_full(*r, *side, now);
    stream->push(line_of(full));
    if (auto gone = bot_opponent_gone(*r, *side, now)) stream->push(line_of(*gone));
    // The state gameFull holds is not sent to this stream again as a gameState.
    const auto state = bot_game_state(*r, *side, now);
    std::lock_guard lock(self->mu_);
    if (!stream->closed()) self->streams_.push_back({stream, state ? state_key(*state) : ""});
  });
}

void BotSeat::refresh() {
  std::shared_ptr<RoomHost> host;
  {
    std::lock_guard lock(mu_);
    host = host_;
  }
  if (!host) return;
  host->with_room([self = shared_from_this()](const Room* r) {
    const auto side = r ? r->seat_of(self->id_) : std::nullopt;
    if (!side) return;
    const std::int64_t now = now_ms();
    self->publish(bot_game_state(*r, *side, now), bot_opponent_gone(*r, *side, now),
                  r->game().over(), bot_game_summary(*r, *side));
  });
}

void BotSeat::publish(std::optional<ojson> state, std::optional<ojson> gone, bool over,
                      const ojson& summary) {
  bool finished_now = false;
  {
    std::lock_guard lock(mu_);
    summary_ = summary;
    if (state) {
      const std::string key = state_key(*state);
      const auto line = line_of(*state);
      for (auto& s : streams_) {
        if (s.state == key) continue;
        s.state = key;
        s.sink->push(line);
      }
    }
    if (gone.has_value() != gone_shown_) {
      gone_shown_ = gone.has_value();
      const auto line = line_of(gone ? *gone : ojson{{"type", "opponentGone"}, {"gone", false}});
      for (const auto& s : streams_) s.sink->push(line);
    }
    if (over && !finished_) finished_ = finished_now = true;
  }
  if (finished_now && hooks_.finished) hooks_.finished(summary);
}

}  // namespace bc::server
