// Room logic. Every request is checked in one fixed order (boardgame.io's): well-formed (done by
// the parser) -> known type (parser) -> room exists -> sender is a player -> game not over -> their
// turn
// -> version matches -> action is legal. The first failed check is the one refusal sent, and a
// refusal returns before anything is changed.
#include "server/room/room.hpp"

#include <algorithm>

namespace bc::server {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::size_t at(Side s) {
  return static_cast<std::size_t>(index(s));
}

}  // namespace

Room::Room(std::string id, GameSetup setup, Limits limits, TokenSource tokens, std::uint64_t seed,
           const TimeSource* time)
    : id_(std::move(id)),
      limits_(limits),
      tokens_(std::move(tokens)),
      rng_(seed),
      time_(time),
      match_(std::move(setup)),
      clock_(limits_, time),
      created_ms_(match_.started_ms()),
      seats_(time) {
  clock_.reset(match_.setup().clock, game().turn());
}

RoomStatus Room::status() const {
  if (game().over()) return RoomStatus::Finished;
  if (!seats_.seated(Side::First) || !seats_.seated(Side::Second)) return RoomStatus::Waiting;
  return RoomStatus::Playing;
}

std::optional<Side> Room::acting_side(MemberId m) const {
  auto side = seat_of(m);
  if (side && one_screen()) return game().turn();
  return side;
}

std::string Room::seat_label(std::optional<Side> s) const {
  return s ? std::string(side_name(match_.variant(), *s)) : std::string("spectator");
}

// ---------------------------------------------------------------------------------------------
// Building outcomes

Outgoing Room::to(MemberId m, std::string text) const {
  return Outgoing{m, std::make_shared<const std::string>(std::move(text)), false};
}

Outgoing Room::everyone(std::string text) const {
  return Outgoing{std::nullopt, std::make_shared<const std::string>(std::move(text)), false};
}

Outcome Room::refuse(MemberId m, const RequestId& id, std::string_view request, ErrorCode code,
                     std::string message) const {
  Outcome o;
  o.refused = code;
  o.messages.push_back(to(m, error_json(id, Error{code, std::move(message)}, request)));
  return o;
}

void Room::add_ok(Outcome& o, MemberId m, const RequestId& id, std::string_view request) const {
  if (std::holds_alternative<std::monostate>(id)) return;  // nobody is waiting for it
  o.messages.push_back(to(m, ok_json(id, request)));
}

const std::shared_ptr<const std::string>& Outgoing::text_for(MemberId m) const {
  for (const Delta* d : {&delta, &short_delta}) {
    if (d->text && std::binary_search(d->to->begin(), d->to->end(), m)) return d->text;
  }
  return full();
}

void Room::add_membership_state(Outcome& o) {
  StateSnapshot state = snapshot();  // with the count of the last state
  if (last_state_ && state == last_state_->snapshot()) {
    // Nothing but the spectator count changed: those who hold the last state keep it, so a flood
    // of spectators joining and leaving sends the players nothing (the count follows later).
    const auto& text = last_state_->text();
    for (MemberId m : seats_.catch_up()) {
      o.messages.push_back(Outgoing{m, text, false, MessageKind::State});
    }
    o.state_coalesced = true;
    return;
  }
  spectators_shown_ = seats_.spectator_count();  // a state goes to everyone anyway: with the count
  state.spectators = spectators_shown_;
  add_state(o, std::move(state));
}

Outcome Room::refresh_spectators() {
  Outcome o;
  if (spectators_stale()) add_state(o);
  return o;
}

void Room::add_state(Outcome& o) {
  spectators_shown_ = seats_.spectator_count();
  add_state(o, snapshot());
}

void Room::add_state(Outcome& o, StateSnapshot state) {
  Outgoing out;
  out.kind = MessageKind::State;
  out.state = std::make_shared<const StateMessage>(std::move(state));
  if (last_state_ && seats_.any_compact()) {
    auto current = seats_.current_compact();
    for (const ActionForm form : {ActionForm::Object, ActionForm::Short}) {
      auto& to = current[form == ActionForm::Short];
      if (to.empty()) continue;
      if (auto d = state_delta_json(last_state_->snapshot(), out.state->snapshot(), form)) {
        auto& delta = form == ActionForm::Short ? out.short_delta : out.delta;
        delta.text = std::make_shared<const std::string>(std::move(*d));
        delta.to = std::make_shared<const std::vector<MemberId>>(std::move(to));
      }
    }
  }
  seats_.mark_all_current();
  last_state_ = out.state;
  o.messages.push_back(std::move(out));
}

void Room::set_compact(MemberId m, StateForm form) {
  seats_.set_form(m, form);
}

StateSnapshot Room::snapshot() const {
  StateView v;
  v.room = id_;
  v.game = &game();
  v.version = version();
  v.status = status();
  v.last = &match_.last();
  v.players = seats_.views(setup().rated);
  v.spectators = spectators_shown_;  // coalesced: refresh_spectators() brings it up to date
  v.moves = match_.moves();
  v.game_number = game_number();
  v.draw_offer = match_.draw_offer();
  v.rematch = match_.rematch();
  v.clock = clock_.view({game_number(), version(), v.status});
  v.away = clock_.away(seats_, v.status == RoomStatus::Playing);
  v.takeback_offer = match_.takeback_offer();
  v.hints = &match_.hints();
  v.one_screen = one_screen();
  return StateSnapshot::of(v);
}

std::string Room::record_text() const {
  RecordView r;
  r.room = id_;
  r.setup = &setup();
  r.game = &game();
  r.status = status();
  r.version = version();
  r.game_number = game_number();
  r.players = seats_.views(setup().rated);
  r.actions = &log();
  r.takebacks = &match_.takebacks();
  r.hints = &match_.hints();
  r.games = match_.games();
  r.started_ms = started_ms();
  r.ended_ms = ended_ms();
  return record_json(r);
}

std::string Room::positions_text() const {
  StateView v;
  v.room = id_;
  v.players = seats_.views(setup().rated);
  v.status = status();
  v.one_screen = one_screen();
  std::vector<std::string> states;
  states.reserve(log().size() + 1);
  match_.for_each_position(v, [&](const StateView& at) { states.push_back(state_json(at)); });
  return positions_json(id_, match_.variant(), game_number(), states);
}

RoomSummary Room::summary() const {
  RoomSummary s;
  s.id = id_;
  s.variant = match_.variant();
  s.status = status();
  s.seats = seats_.views(setup().rated);
  s.spectators = seats_.spectator_count();
  s.version = version();
  s.game_number = game_number();
  s.clock = setup().clock;
  s.options = setup().options;
  s.one_screen = one_screen();
  s.rated = setup().rated;
  if (s.rated) s.perf = perf_of(setup());
  s.range = setup().range;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Requests

Outcome Room::handle(MemberId m, const ClientMessage& msg, std::string_view address,
                     std::optional<std::int64_t> received) {
  const std::string_view type = message_type(msg.body);
  if (const auto* j = std::get_if<JoinMsg>(&msg.body)) {
    set_compact(m, j->compact);
    return handle_join(m, msg.id, *j, address);
  }
  if (std::holds_alternative<CreateMsg>(msg.body)) {
    return refuse(m, msg.id, type, ErrorCode::BadMessage,
                  "create is answered by the server, not a room");
  }
  if (!is_member(m)) {
    return refuse(m, msg.id, type, ErrorCode::UnknownRoom,
                  "you are not in a room: create one or join one first");
  }
  return std::visit(
      Overloaded{
          [&](const ActMsg& a) {
            return handle_act(m, msg.id, a, received.value_or(time_->steady_ms()));
          },
          [&](const ResignMsg&) { return handle_resign(m, msg.id); },
          [&](const OfferDrawMsg&) { return handle_offer_draw(m, msg.id); },
          [&](const AnswerDrawMsg& a) { return handle_answer_draw(m, msg.id, a); },
          [&](const RematchMsg&) { return handle_rematch(m, msg.id); },
          [&](const ChatMsg& c) { return handle_chat(m, msg.id, c); },
          [&](const LeaveMsg&) { return handle_leave(m, msg.id); },
          [&](const ClaimMsg& c) { return handle_claim(m, msg.id, c); },
          [&](const TakebackMsg&) { return handle_takeback(m, msg.id); },
          [&](const AnswerTakebackMsg& a) { return handle_answer_takeback(m, msg.id, a); },
          [&](const AnalyseMsg& a) { return handle_analyse(m, msg.id, a); },
          [&](const SyncMsg&) {
            Outcome o;
            StateSnapshot state = snapshot();
            // Deltas follow only from the state everyone holds.
            const bool current = last_state_ && state == last_state_->snapshot();
            o.messages.push_back(current ? Outgoing{m, last_state_->text(), false}
                                         : to(m, state_json(state.view())));
            o.messages.back().kind = MessageKind::State;
            seats_.mark_current(m, current);
            return o;
          },
          // Answered above (create, join) or by the connection itself (ping). No catch-all arm:
          // a new message type does not compile until a room says what it does with it.
          [&](const CreateMsg&) { return Outcome{}; }, [&](const JoinMsg&) { return Outcome{}; },
          [&](const PingMsg&) { return Outcome{}; },
          [&](const PoolMsg&) { return Outcome{}; },  // the connection answers it
      },
      msg.body);
}

std::optional<Error> Room::check_player_in_game(MemberId m) const {
  auto side = seat_of(m);
  if (!side) {
    return Error{ErrorCode::NotAPlayer, "spectators cannot play; join a free seat to play"};
  }
  if (game().over()) {
    const auto& r = *game().result();
    std::string what = r.winner ? std::string(side_name(match_.variant(), *r.winner)) + " won"
                                : std::string("it was drawn");
    return Error{ErrorCode::GameOver, "the game is over (" + what + ", " +
                                          std::string(reason_name(r.reason)) +
                                          "); ask for a rematch to play again"};
  }
  if (status() == RoomStatus::Waiting) {
    return Error{ErrorCode::NotStarted,
                 "the game has not started: waiting for a player to take the "
                 "other seat"};
  }
  return std::nullopt;
}

Outcome Room::handle_act(MemberId m, const RequestId& id, const ActMsg& a, std::int64_t received) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "act", e->code, e->message);
  const Side side = *acting_side(m);
  const VariantId v = match_.variant();
  if (game().turn() != side) {
    return refuse(m, id, "act", ErrorCode::NotYourTurn,
                  "it is " + std::string(side_name(v, game().turn())) + "'s turn");
  }
  if (a.version != version()) {
    return refuse(m, id, "act", ErrorCode::StaleVersion,
                  "the game is at version " + std::to_string(version()) +
                      " but the action was chosen at version " + std::to_string(a.version) +
                      "; choose again from the latest state");
  }
  std::optional<Applied> applied = a.action ? game().apply(*a.action) : std::nullopt;
  if (!applied) {
    return refuse(
        m, id, "act", ErrorCode::IllegalAction,
        "that action is not legal now; send one of the `legal` actions of the latest state");
  }
  if (clock_ && clock_->charge(side, received, a.lag).out_of_time) {
    // S1: the flag fell before the action came (the timer had not run yet).
    Outcome o = time_out(side);
    o.messages.insert(
        o.messages.begin(),
        to(m, error_json(id,
                         Error{ErrorCode::GameOver, "your time ran out before that action arrived"},
                         "act")));
    return o;
  }

  return played(side, *a.action, std::move(*applied), m, id, received, a.lag);
}

Outcome Room::played(Side side, const Action& action, Applied applied, std::optional<MemberId> m,
                     const RequestId& id, std::int64_t received, std::int64_t lag) {
  Outcome o;
  o.action_accepted = true;
  o.durable.action = true;
  if (clock_) clock_->act(side, received, lag, applied.effects.turn_over);
  if (match_.accept(side, action, std::move(applied))) {
    mark_ended(o);
    if (clock_) clock_->stop(received);
  }
  if (m) add_ok(o, *m, id, "act");
  add_state(o);
  return o;
}

Outcome Room::handle_resign(MemberId m, const RequestId& id) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "resign", e->code, e->message);
  match_.resign(*acting_side(m));
  if (clock_) clock_->stop(time_->steady_ms());
  Outcome o;
  mark_ended(o);
  add_ok(o, m, id, "resign");
  add_state(o);
  return o;
}

Outcome Room::handle_offer_draw(MemberId m, const RequestId& id) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "offer_draw", e->code, e->message);
  const Side side = *acting_side(m);
  Outcome o;
  add_ok(o, m, id, "offer_draw");
  if (match_.draw_offer() == side) return o;  // asked again: nothing new to tell
  if (match_.offer_draw(side)) {
    if (clock_) clock_->stop(time_->steady_ms());
    mark_ended(o);
  } else {
    o.messages.push_back(everyone(draw_offer_json(match_.variant(), side)));
  }
  add_state(o);
  return o;
}

Outcome Room::handle_answer_draw(MemberId m, const RequestId& id, const AnswerDrawMsg& a) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "answer_draw", e->code, e->message);
  // At one screen the answer is the other side's, whoever's turn it is.
  const Side side = one_screen() && match_.draw_offer() ? other(*match_.draw_offer()) : *seat_of(m);
  if (match_.draw_offer() != other(side)) {
    return refuse(m, id, "answer_draw", ErrorCode::NoDrawOffer,
                  "your opponent has not offered a draw");
  }
  Outcome o;
  add_ok(o, m, id, "answer_draw");
  match_.withdraw_draw_offer();
  if (a.accept) {
    match_.agree_draw();
    if (clock_) clock_->stop(time_->steady_ms());
    mark_ended(o);
  } else {
    o.messages.push_back(everyone(draw_declined_json(match_.variant(), side)));
  }
  add_state(o);
  return o;
}

Outcome Room::handle_rematch(MemberId m, const RequestId& id) {
  auto side = seat_of(m);
  if (!side) {
    return refuse(m, id, "rematch", ErrorCode::NotAPlayer,
                  "only the players can ask for a rematch");
  }
  if (!game().over()) {
    return refuse(m, id, "rematch", ErrorCode::GameNotOver,
                  "the game is still on; a rematch can be asked for when it ends");
  }
  Outcome o;
  add_ok(o, m, id, "rematch");
  if (match_.rematch()[at(*side)]) return o;
  std::array<bool, 2> computers{};  // the computer always agrees, and so does one screen
  for (Side s : {Side::First, Side::Second})
    computers[at(s)] = one_screen() || (seats_[s] && seats_[s]->ai);
  if (!match_.ask_rematch(*side, computers)) {
    o.messages.push_back(everyone(rematch_offer_json(match_.variant(), *side)));
    add_state(o);
    return o;
  }
  // Both asked: a new game from the same start, the players changing sides with their tokens. A
  // game that ended with no move in it is not kept: else resign+rematch would pile up finished
  // games without end (issue 31).
  if (log().empty()) o.durable.drop_game = game_number();
  match_.next_game();
  clock_.reset(setup().clock, game().turn());
  takeback_asks_ = {};
  takeback_declined_at_ = {-1, -1};
  seats_.swap_sides(one_screen());
  o.durable.game = true;
  o.durable.seats = {true, true};
  for (Side s : {Side::First, Side::Second}) {
    const auto& seat = seats_[s];
    if (!seat || !seat->conn) continue;
    if (seats_.seat_of(*seat->conn) == s) {  // one joined per connection
      RequestId reply_id = *seat->conn == m ? id : RequestId{};
      o.messages.push_back(to(
          *seat->conn,
          joined_json(reply_id, id_, side_name(match_.variant(), s), seat->token, one_screen())));
    }
  }
  add_state(o);
  return o;
}

void Room::rate(Outcome& o) {
  const auto& result = game().result();
  if (!setup().rated || !result) return;
  auto& a = seats_[Side::First];
  auto& b = seats_[Side::Second];
  if (!a || !b || !a->player || !b->player) return;
  // An aborted game, or one in which a side never moved, is not rated (as lichess counts it).
  if (result->reason == Reason::Aborted || match_.moves() < 2) return;
  const double score_a = !result->winner ? 0.5 : (*result->winner == Side::First ? 1.0 : 0.0);
  const std::int64_t now = ended_ms() > 0 ? ended_ms() : time_->unix_ms();
  auto rated = players::rate_game(a->player->rating, b->player->rating, score_a, now);
  a->player->after = rated.a;
  a->player->score = score_a;
  b->player->after = rated.b;
  b->player->score = 1.0 - score_a;
  o.durable.ratings = true;
}

}  // namespace bc::server
