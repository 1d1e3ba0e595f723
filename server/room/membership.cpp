// A room's requests about its people: joining and leaving, taking a seat back with a token,
// computer seats, chat, and rebuilding the seats from the store. The seats and members themselves
// are kept by Seats (server/room/seats.hpp); the checks of game requests are in room.cpp.
#include <cctype>
#include <cmath>
#include <utility>

#include "server/room/room.hpp"

namespace bc::server {

namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::size_t at(Side s) {
  return static_cast<std::size_t>(index(s));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Restoring from the store

std::optional<ReplayError> Room::restore(const GameRecord& image) {
  if (image.created_ms > 0) created_ms_ = image.created_ms;
  seats_.restore(image.seats);
  auto error =
      match_.restore(Match::Stored{image.game_number, image.games, image.started_ms, image.ended_ms,
                                   &image.actions, image.result, &image.takebacks, &image.hints});
  if (!error && clock_) {
    // The time since the last committed action is charged to no one (docs/PERSISTENCE.md).
    const std::int64_t base = clock_->control().base_ms;
    auto left = image.clock_left.value_or(std::array<std::int64_t, 2>{base, base});
    std::optional<Side> to_move;
    if (!game().over()) to_move = game().turn();
    // A flag is stored as the result; the flagged side (the one to move) had no time left.
    if (game().over() && game().result()->reason == Reason::Timeout) left[at(game().turn())] = 0;
    clock_->resume(left, match_.moves(), to_move);
  }
  return error;
}

void Room::adopt_members(const Room& old) {
  seats_.adopt(old.seats_);
}

// ---------------------------------------------------------------------------------------------
// Membership

std::optional<Error> Room::seat_refusal(Side side, const std::optional<Identity>& who) const {
  const auto& opponent = seats_[other(side)];
  const std::string& kept_for = setup().kept_for;
  if (!kept_for.empty() && (!who || who->id != kept_for)) {
    return Error{ErrorCode::SeatTaken,
                 "this seat is kept for the player the pool paired with your opponent"};
  }
  if (!setup().rated) return std::nullopt;
  if (!who) {
    return Error{ErrorCode::SignInRequired,
                 "this game is rated: to play it, sign in (or play as a guest) on this server's "
                 "page first; you can watch it without"};
  }
  if (opponent && opponent->player && opponent->player->id == who->id) {
    return Error{ErrorCode::SeatTaken, "you already play the other side of this rated game"};
  }
  if (const auto& range = setup().range) {
    const std::string perf = perf_of(setup());
    const int rating = static_cast<int>(std::lround(who->rating_in(perf).rating));
    if (rating < range->first || rating > range->second) {
      return Error{ErrorCode::RatingOutOfRange, "this game is for ratings from " +
                                                    std::to_string(range->first) + " to " +
                                                    std::to_string(range->second) + "; yours in " +
                                                    perf + " is " + std::to_string(rating)};
    }
  }
  return std::nullopt;
}

Outcome Room::take_seat(MemberId m, std::string name, std::optional<Side> side, const RequestId& id,
                        std::string_view address, const std::optional<Identity>& who) {
  Outcome o;
  // An account plays under its name; a guest under the name it typed.
  if (who && who->account()) name = who->name;
  name = clean_name(name, limits_.name_max_chars);
  std::optional<std::string> token;
  if (side) {
    token = tokens_();
    seats_.sit(*side, name, *token, m);
    if (who) {
      SeatPlayer p;
      p.id = who->id;
      p.account = who->name;
      p.bot = who->bot;
      if (setup().rated) {
        const std::string perf = perf_of(setup());
        p.rating = who->rating_in(perf);
        // A game starts from the deviation as it stands today (it grows while one does not play).
        p.rating.deviation = players::current_deviation(p.rating, time_->unix_ms(),
                                                        players::Glicko2Params::lichess());
        for (const auto& r : who->ratings) {
          if (r.perf == perf) {
            p.wins = r.wins;
            p.draws = r.draws;
            p.losses = r.losses;
          }
        }
      }
      seats_[*side]->player = std::move(p);
    }
    o.durable.seats[at(*side)] = true;
    o.durable.game = true;  // the game row keeps the players' names
  }
  seats_.admit(m, Member{std::move(name), side, false, std::string(address), std::nullopt});
  o.sender = Membership::Joined;
  o.messages.push_back(to(m, joined_json(id, id_, seat_label(side), token)));
  add_membership_state(o);
  return o;
}

Outcome Room::take_both_seats(MemberId m, const std::string& name, const SeatChoice& choice,
                              const RequestId& id, std::string_view address) {
  const VariantId v = match_.variant();
  Outcome o;
  const std::string token = tokens_();
  for (Side s : {Side::First, Side::Second}) {
    std::string_view seat_name = name;
    for (const auto& [side, given] : choice.names) {
      if (side == side_name(v, s)) seat_name = given;
    }
    seats_.sit(s, clean_name(seat_name, limits_.name_max_chars), token, m);
    o.durable.seats[at(s)] = true;
  }
  o.durable.game = true;
  seats_.admit(m, Member{clean_name(name, limits_.name_max_chars), Side::First, false,
                         std::string(address), std::nullopt});
  o.sender = Membership::Joined;
  o.messages.push_back(to(m, joined_json(id, id_, side_name(v, Side::First), token, true)));
  add_membership_state(o);
  return o;
}

void Room::remove_member(MemberId m, bool free_seat, Durable* durable) {
  const auto freed = seats_.remove(m, free_seat, one_screen());
  if (freed && durable) {
    durable->seats[at(*freed)] = true;
    durable->game = true;
  }
}

Outcome Room::seat_creator(MemberId m, std::string_view name, SeatChoice choice,
                           const RequestId& id, std::string_view address,
                           const std::optional<Identity>& who) {
  if (setup().rated && !who) {
    return refuse(m, id, "create", ErrorCode::SignInRequired,
                  "a rated game is between signed-in players: sign in (or play as a guest) on "
                  "this server's page first");
  }
  if (setup().rated && (choice.kind == SeatKind::Spectator || choice.kind == SeatKind::Both)) {
    return refuse(m, id, "create", ErrorCode::BadOptions,
                  "the creator of a rated game plays in it: choose a side or random");
  }
  std::optional<Side> side;
  switch (choice.kind) {
    case SeatKind::Side:
      side = choice.side;
      break;
    case SeatKind::Random:
    case SeatKind::Any:
      side = (rng_() & 1) ? Side::Second : Side::First;
      break;
    case SeatKind::Spectator:
      break;
    case SeatKind::Both: {
      Outcome o = take_both_seats(m, std::string(name), choice, id, address);
      o.durable.room = true;
      return o;
    }
  }
  Outcome o = take_seat(m, std::string(name), side, id, address, who);
  o.durable.room = true;
  o.durable.game = true;
  return o;
}

// A token presented with `join`: the seat it holds is taken back by this connection (a reload, a
// second tab); the connection that held it is told why and detached.
Outcome Room::rejoin(MemberId m, const RequestId& id, const std::string& token,
                     std::string_view address) {
  const VariantId v = match_.variant();
  const std::vector<Side> held = seats_.held_by(token);
  const std::optional<Side> found = held.empty() ? std::nullopt : std::optional<Side>(held.front());
  if (!found) {
    return refuse(m, id, "join", ErrorCode::BadToken,
                  "that token holds no seat in room " + id_ +
                      "; join without it to watch or "
                      "take a free seat");
  }
  Outcome o;
  // Back within this of losing the seat's connection with a server node: the wait for the node's
  // death to be noticed and the reconnection are forgiven (a node hung for a lease, say).
  constexpr std::int64_t kOutageGraceMs = 10'000;
  for (Side s : held) {
    if (auto lost = std::exchange(lost_in_outage_[at(s)], std::nullopt)) {
      const std::int64_t now = time_->steady_ms();
      if (now - *lost <= kOutageGraceMs && clock_running() && clock_->running() == s)
        clock_.forgive(now);
    }
    const Seat& seat = *seats_[s];
    if (seat.conn && *seat.conn != m && is_member(*seat.conn)) {
      // A newer connection takes the seat over (a reload, a second tab): the old one is told why.
      MemberId old = *seat.conn;
      o.messages.push_back(Outgoing{
          old,
          std::make_shared<const std::string>(notice_json(
              "replaced", "your seat was taken over by another connection with your token")),
          true});
      seats_.drop(old);
    }
  }
  if (is_member(m) && seat_of(m) != found) remove_member(m, false);
  seats_.hand_over(held, m, token);
  const Seat& seat = *seats_[*found];
  seats_.admit(m, Member{seat.name, found, false, std::string(address), std::nullopt});
  o.sender = Membership::Joined;
  o.messages.push_back(to(m, joined_json(id, id_, side_name(v, *found), seat.token, one_screen())));
  // Taking a seat over from a live connection changes nothing the others see: no state for them.
  add_membership_state(o);
  return o;
}

Outcome Room::handle_join(MemberId m, const RequestId& id, const JoinMsg& j,
                          std::string_view address) {
  if (upper(j.room) != id_) {
    return refuse(m, id, "join", ErrorCode::UnknownRoom, "there is no room '" + j.room + "'");
  }
  const VariantId v = match_.variant();

  if (j.token) return rejoin(m, id, *j.token, address);

  auto choice = resolve_seat(v, j.seat, false);
  if (auto* e = std::get_if<Error>(&choice)) return refuse(m, id, "join", e->code, e->message);
  SeatChoice c = std::get<SeatChoice>(choice);
  std::optional<Side> side;
  switch (c.kind) {
    case SeatKind::Side:
      if (seats_.seated(c.side)) {
        const Seat& s = *seats_[c.side];
        if (s.conn == m) {  // asking again for the seat it holds: answer as before
          Outcome o;
          o.sender = Membership::Joined;
          o.messages.push_back(
              to(m, joined_json(id, id_, side_name(v, c.side), s.token, one_screen())));
          add_membership_state(o);
          return o;
        }
        return refuse(m, id, "join", ErrorCode::SeatTaken,
                      "the " + std::string(side_name(v, c.side)) + " seat is taken by " + s.name +
                          "; join as spectator to watch");
      }
      if (auto no = seat_refusal(c.side, j.who))
        return refuse(m, id, "join", no->code, no->message);
      side = c.side;
      break;
    case SeatKind::Any:
    case SeatKind::Random: {
      // A seat this player may not take (a rated game, a seat kept for another) is not free to it:
      // it watches instead.
      std::vector<Side> free;
      for (Side s : {Side::First, Side::Second}) {
        if (!seats_.seated(s) && !seat_refusal(s, j.who)) free.push_back(s);
      }
      if (!free.empty()) side = free[rng_() % free.size()];
      break;
    }
    case SeatKind::Spectator:
    case SeatKind::Both:  // resolve_seat gives it to create only
      break;
  }
  if (!side && limits_.spectators_per_room_per_address > 0 && !address.empty()) {
    // Room codes are public: one address must not fill a room with watchers.
    const std::size_t mine = seats_.spectators_from(address, m);
    if (mine >= limits_.spectators_per_room_per_address) {
      Outcome o = refuse(m, id, "join", ErrorCode::TooManySpectators,
                         "your address already has " + std::to_string(mine) +
                             " connections watching room " + id_ + "; close one to watch here");
      o.limited = Limited::RoomSpectators;
      return o;
    }
  }
  // Moving within the room: the old seat is given up only if the game has not started.
  Durable freed;
  if (is_member(m)) remove_member(m, !match_.started(), &freed);
  Outcome o = take_seat(m, j.name, side, id, address, j.who);
  for (std::size_t i = 0; i < 2; ++i) o.durable.seats[i] = o.durable.seats[i] || freed.seats[i];
  o.durable.game = o.durable.game || freed.game;
  return o;
}

Outcome Room::handle_leave(MemberId m, const RequestId& id) {
  Outcome o;
  add_ok(o, m, id, "leave");
  auto side = seat_of(m);
  remove_member(m, side.has_value() && !match_.started() && !game().over(), &o.durable);
  seats_.forget_form(m);
  o.sender = Membership::Left;
  add_membership_state(o);
  return o;
}

Outcome Room::disconnect(MemberId m, bool outage) {
  Outcome o;
  seats_.forget_form(m);
  if (!is_member(m)) return o;
  if (const auto s = seat_of(m); outage && s) {
    lost_in_outage_[at(*s)] = time_->steady_ms();
    if (clock_running() && clock_->running() == s) clock_.forgive(time_->steady_ms());
  }
  remove_member(m, false);
  o.sender = Membership::Left;
  add_membership_state(o);
  return o;
}

Outcome Room::close(std::string_view why) {
  Outcome o;
  auto text = std::make_shared<const std::string>(notice_json("room_closed", why));
  for (MemberId m : seats_.clear()) o.messages.push_back(Outgoing{m, text, true});
  return o;
}

// ---------------------------------------------------------------------------------------------
// Computer seats

Outcome Room::seat_computers(const Opponent& opponent) {
  Outcome o;
  if (opponent.ai == 0) return o;
  const bool both = !seats_.seated(Side::First) && !seats_.seated(Side::Second);
  for (Side s : {Side::First, Side::Second}) {
    if (seats_.seated(s)) continue;
    const int level = (both && s == Side::Second && opponent.ai2 != 0) ? opponent.ai2 : opponent.ai;
    seats_.sit_computer(s, level);
    o.durable.seats[at(s)] = true;
    o.durable.game = true;
  }
  add_state(o);
  return o;
}

std::optional<Room::ComputerTurn> Room::computer_to_move() const {
  // Nobody to watch: the computer waits, unless its clock is running (it would lose on time).
  if ((seats_.members().empty() && !clock_running()) || status() != RoomStatus::Playing)
    return std::nullopt;
  const Side s = game().turn();
  const auto& seat = seats_[s];
  if (!seat || !seat->ai) return std::nullopt;
  return ComputerTurn{s, *seat->ai, version(), game_number()};
}

Outcome Room::act_for_computer(Side side, const Action& action) {
  Outcome refused;
  refused.refused = ErrorCode::IllegalAction;
  const auto& seat = seats_[side];
  if (!seat || !seat->ai || status() != RoomStatus::Playing || game().turn() != side)
    return refused;
  std::optional<Applied> applied = game().apply(action);
  if (!applied) return refused;
  const std::int64_t now = time_->steady_ms();
  if (clock_ && clock_->charge(side, now, 0).out_of_time) return time_out(side);
  return played(side, action, std::move(*applied), std::nullopt, RequestId{}, now, 0);
}

// ---------------------------------------------------------------------------------------------
// Chat

Outcome Room::handle_chat(MemberId m, const RequestId& id, const ChatMsg& c) {
  std::string text = clean_text(c.text);
  if (text.empty()) return refuse(m, id, "chat", ErrorCode::BadMessage, "the chat text is empty");
  if (utf8_length(text) > limits_.chat_max_chars) {
    return refuse(
        m, id, "chat", ErrorCode::TooLarge,
        "chat messages are limited to " + std::to_string(limits_.chat_max_chars) + " characters");
  }
  if (auto limit = seats_.take_chat(m, limits_)) {
    Outcome o =
        refuse(m, id, "chat", ErrorCode::RateLimited,
               *limit == Limited::SpectatorChat
                   ? "the spectators of this room are chatting too fast: together at most " +
                         std::to_string(static_cast<int>(limits_.spectator_chat_per_second)) +
                         " messages a second; this one was not sent, try again in a moment"
                   : "you are chatting too fast: at most " +
                         std::to_string(static_cast<int>(limits_.chat_per_second)) +
                         " message a second (a few more in a burst); this one was not sent");
    o.limited = limit;
    return o;
  }
  const Member& who = seats_.member(m);
  Outcome o;
  add_ok(o, m, id, "chat");
  o.messages.push_back(everyone(chat_json(who.name, seat_label(who.side), text)));
  o.messages.back().kind = MessageKind::Chat;
  return o;
}

}  // namespace bc::server
