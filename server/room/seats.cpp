// A room's people: seats and their tokens, members (players and spectators), joining and leaving,
// computer seats, and rebuilding the seats from the store. The checks of requests are in room.cpp.
#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>

#include "bc/store.hpp"  // sha256_hex: tokens are kept and compared as hashes
#include "server/room/room.hpp"

namespace bc::server {

namespace {

// Compares secrets in time independent of where they differ.
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::size_t at(Side s) {
  return static_cast<std::size_t>(index(s));
}

// A computer seat is stored with the token hash "ai:L"; a SHA-256 hex digest never has a colon.
std::string computer_marker(int level) {
  return "ai:" + std::to_string(level);
}
std::optional<int> computer_level(std::string_view token_hash) {
  if (token_hash.size() != 4 || token_hash.substr(0, 3) != "ai:") return std::nullopt;
  const int level = token_hash[3] - '0';
  if (level < kComputerMinLevel || level > kComputerMaxLevel) return std::nullopt;
  return level;
}

}  // namespace

std::string random_token() {
  unsigned char bytes[16];
  // getrandom(2): the kernel's CSPRNG (std::random_device may prefer the CPU's RDRAND).
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (errno != EINTR) {
      std::random_device urandom("/dev/urandom");
      for (auto& b : bytes) b = static_cast<unsigned char>(urandom());
      break;
    }
  }
  std::string out;
  out.reserve(2 * sizeof bytes);
  for (unsigned char b : bytes) {
    char buf[3];
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Restoring from the store

std::optional<ReplayError> Room::restore(const GameRecord& image) {
  if (image.created_ms > 0) created_ms_ = image.created_ms;
  for (Side s : {Side::First, Side::Second}) {
    const auto& stored = image.seats[at(s)];
    if (stored) {
      seats_[at(s)] = Seat{
          stored->name, stored->token_hash, {}, std::nullopt, computer_level(stored->token_hash)};
      mark_away(*seats_[at(s)]);  // after a restart everyone has the grace to come back
    } else {
      seats_[at(s)].reset();
    }
  }
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
  for (const auto& [m, member] : old.members_) {
    std::optional<Side> side;
    // Every seat the connection held (both, at one screen).
    for (Side s : {Side::First, Side::Second}) {
      if (!member.side) break;
      const auto& was = old.seats_[at(s)];
      auto& seat = seats_[at(s)];
      if (was && was->conn == m && seat && seat->token_hash == was->token_hash) {
        seat->conn = m;
        seat->token = was->token;
        if (!side || s == *member.side) side = s;
      }
    }
    members_[m] = Member{member.name, side, false, member.address, std::nullopt};
  }
}

// ---------------------------------------------------------------------------------------------
// Membership

Outcome Room::take_seat(MemberId m, std::string name, std::optional<Side> side, const RequestId& id,
                        std::string_view address) {
  Outcome o;
  name = clean_name(name, limits_.name_max_chars);
  std::optional<std::string> token;
  if (side) {
    std::string t = tokens_();
    seats_[at(*side)] = Seat{name, store::sha256_hex(t), t, m, std::nullopt};
    token = std::move(t);
    o.durable.seats[at(*side)] = true;
    o.durable.game = true;  // the game row keeps the players' names
  }
  members_[m] = Member{std::move(name), side, false, std::string(address), std::nullopt};
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
  const std::string hash = store::sha256_hex(token);
  for (Side s : {Side::First, Side::Second}) {
    std::string_view seat_name = name;
    for (const auto& [side, given] : choice.names) {
      if (side == side_name(v, s)) seat_name = given;
    }
    seats_[at(s)] =
        Seat{clean_name(seat_name, limits_.name_max_chars), hash, token, m, std::nullopt};
    o.durable.seats[at(s)] = true;
  }
  o.durable.game = true;
  members_[m] = Member{clean_name(name, limits_.name_max_chars), Side::First, false,
                       std::string(address), std::nullopt};
  o.sender = Membership::Joined;
  o.messages.push_back(to(m, joined_json(id, id_, side_name(v, Side::First), token, true)));
  add_membership_state(o);
  return o;
}

void Room::remove_member(MemberId m, bool free_seat, Durable* durable) {
  auto it = members_.find(m);
  if (it == members_.end()) return;
  if (it->second.side) {
    for (auto& held : seats_) {  // both, at one screen
      if (held && held->conn == m) {
        held->conn.reset();
        mark_away(*held);
      }
    }
    auto& seat = seats_[at(*it->second.side)];
    // A one-screen room's seats are never freed: nobody else may sit in them.
    if (free_seat && seat && !one_screen()) {
      seat.reset();
      if (durable) {
        durable->seats[at(*it->second.side)] = true;
        durable->game = true;
      }
    }
  }
  members_.erase(it);
}

Outcome Room::seat_creator(MemberId m, std::string_view name, SeatChoice choice,
                           const RequestId& id, std::string_view address) {
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
  Outcome o = take_seat(m, std::string(name), side, id, address);
  o.durable.room = true;
  o.durable.game = true;
  return o;
}

// A token presented with `join`: the seat it holds is taken back by this connection (a reload, a
// second tab); the connection that held it is told why and detached.
Outcome Room::rejoin(MemberId m, const RequestId& id, const std::string& token,
                     std::string_view address) {
  const VariantId v = match_.variant();
  std::vector<Side> held;  // both seats at one screen, where one token holds them
  const std::string presented = store::sha256_hex(token);
  for (Side s : {Side::First, Side::Second}) {
    if (seats_[at(s)] && same_secret(seats_[at(s)]->token_hash, presented)) held.push_back(s);
  }
  const std::optional<Side> found = held.empty() ? std::nullopt : std::optional<Side>(held.front());
  if (!found) {
    return refuse(m, id, "join", ErrorCode::BadToken,
                  "that token holds no seat in room " + id_ +
                      "; join without it to watch or "
                      "take a free seat");
  }
  Outcome o;
  for (Side s : held) {
    Seat& seat = *seats_[at(s)];
    if (seat.conn && *seat.conn != m && is_member(*seat.conn)) {
      // A newer connection takes the seat over (a reload, a second tab): the old one is told why.
      MemberId old = *seat.conn;
      o.messages.push_back(Outgoing{
          old,
          std::make_shared<const std::string>(notice_json(
              "replaced", "your seat was taken over by another connection with your token")),
          true});
      members_.erase(old);
    }
  }
  if (is_member(m) && seat_of(m) != found) remove_member(m, false);
  for (Side s : held) {
    Seat& seat = *seats_[at(s)];
    seat.conn = m;
    seat.token = token;
    seat.away_since.reset();
  }
  const Seat& seat = *seats_[at(*found)];
  members_[m] = Member{seat.name, found, false, std::string(address), std::nullopt};
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
      if (seated(c.side)) {
        const Seat& s = *seats_[at(c.side)];
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
      side = c.side;
      break;
    case SeatKind::Any:
    case SeatKind::Random: {
      std::vector<Side> free;
      for (Side s : {Side::First, Side::Second}) {
        if (!seated(s)) free.push_back(s);
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
    const auto mine = static_cast<std::size_t>(
        std::count_if(members_.begin(), members_.end(), [&](const auto& kv) {
          return kv.first != m && !kv.second.side && kv.second.address == address;
        }));
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
  Outcome o = take_seat(m, j.name, side, id, address);
  for (std::size_t i = 0; i < 2; ++i) o.durable.seats[i] = o.durable.seats[i] || freed.seats[i];
  o.durable.game = o.durable.game || freed.game;
  return o;
}

Outcome Room::handle_leave(MemberId m, const RequestId& id) {
  Outcome o;
  add_ok(o, m, id, "leave");
  auto side = seat_of(m);
  remove_member(m, side.has_value() && !match_.started() && !game().over(), &o.durable);
  compact_.erase(m);
  short_.erase(m);
  o.sender = Membership::Left;
  add_membership_state(o);
  return o;
}

Outcome Room::disconnect(MemberId m) {
  Outcome o;
  compact_.erase(m);
  short_.erase(m);
  if (!is_member(m)) return o;
  remove_member(m, false);
  o.sender = Membership::Left;
  add_membership_state(o);
  return o;
}

Outcome Room::close(std::string_view why) {
  Outcome o;
  auto text = std::make_shared<const std::string>(notice_json("room_closed", why));
  for (const auto& [m, member] : members_) o.messages.push_back(Outgoing{m, text, true});
  members_.clear();
  for (auto& s : seats_) {
    if (s) s->conn.reset();
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Computer seats

Outcome Room::seat_computers(const Opponent& opponent) {
  Outcome o;
  if (opponent.ai == 0) return o;
  const bool both = !seated(Side::First) && !seated(Side::Second);
  for (Side s : {Side::First, Side::Second}) {
    if (seated(s)) continue;
    const int level = (both && s == Side::Second && opponent.ai2 != 0) ? opponent.ai2 : opponent.ai;
    seats_[at(s)] = Seat{"Computer (level " + std::to_string(level) + ")", computer_marker(level),
                         "", std::nullopt, level};
    o.durable.seats[at(s)] = true;
    o.durable.game = true;
  }
  add_state(o);
  return o;
}

std::optional<Room::ComputerTurn> Room::computer_to_move() const {
  // Nobody to watch: the computer waits, unless its clock is running (it would lose on time).
  if ((members_.empty() && !clock_running()) || status() != RoomStatus::Playing)
    return std::nullopt;
  const Side s = game().turn();
  const auto& seat = seats_[at(s)];
  if (!seat || !seat->ai) return std::nullopt;
  return ComputerTurn{s, *seat->ai, version(), game_number()};
}

Outcome Room::act_for_computer(Side side, const Action& action) {
  Outcome refused;
  refused.refused = ErrorCode::IllegalAction;
  const auto& seat = seats_[at(side)];
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
  if (auto limit = chat_limited(m)) {
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
  const Member& who = members_.at(m);
  Outcome o;
  add_ok(o, m, id, "chat");
  o.messages.push_back(everyone(chat_json(who.name, seat_label(who.side), text)));
  o.messages.back().kind = MessageKind::Chat;
  return o;
}

std::optional<Limited> Room::chat_limited(MemberId m) {
  Member& who = members_.at(m);
  if (limits_.chat_per_second > 0) {
    auto& own = who.side && seats_[at(*who.side)] ? seats_[at(*who.side)]->chat : who.chat;
    if (!own) own.emplace(limits_.chat_per_second, limits_.chat_burst);
    if (!own->take()) return Limited::MemberChat;
  }
  // The players' chat never takes from this: spectators together cannot crowd them out.
  if (!who.side && limits_.spectator_chat_per_second > 0) {
    if (!spectator_chat_)
      spectator_chat_.emplace(limits_.spectator_chat_per_second, limits_.spectator_chat_burst);
    if (!spectator_chat_->take()) return Limited::SpectatorChat;
  }
  return std::nullopt;
}

}  // namespace bc::server
