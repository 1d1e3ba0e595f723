// A room's seats and members (server/room/seats.hpp): tokens kept as hashes and compared in
// constant time, computer seats stored as "ai:L", and the chat budgets.
#include "server/room/seats.hpp"

#ifdef __EMSCRIPTEN__
#include <unistd.h>  // getentropy: the browser's crypto.getRandomValues (wasm/offline.cpp)
#else
#include <sys/random.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <random>

#include "bc/store.hpp"  // sha256_hex: tokens are kept and compared as hashes

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
#ifdef __EMSCRIPTEN__
  if (getentropy(bytes, sizeof bytes) != 0) {
    std::random_device rd;
    for (auto& b : bytes) b = static_cast<unsigned char>(rd());
  }
#else
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
#endif
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
// Seats

bool Seats::has_computer() const {
  return std::any_of(seats_.begin(), seats_.end(),
                     [](const std::optional<Seat>& s) { return s && s->ai; });
}

std::size_t Seats::connected_players() const {
  std::size_t n = 0;
  for (const auto& s : seats_) n += (s && s->conn) ? 1 : 0;
  return n;
}

void Seats::sit(Side s, std::string name, const std::string& token, MemberId m) {
  seats_[at(s)] = Seat{std::move(name), store::sha256_hex(token), token, m, std::nullopt};
}

void Seats::sit_computer(Side s, int level) {
  seats_[at(s)] = Seat{"Computer (level " + std::to_string(level) + ")", computer_marker(level), "",
                       std::nullopt, level};
}

std::vector<Side> Seats::held_by(std::string_view token) const {
  std::vector<Side> held;
  const std::string presented = store::sha256_hex(token);
  for (Side s : {Side::First, Side::Second}) {
    if (seats_[at(s)] && same_secret(seats_[at(s)]->token_hash, presented)) held.push_back(s);
  }
  return held;
}

void Seats::hand_over(const std::vector<Side>& sides, MemberId m, const std::string& token) {
  for (Side s : sides) {
    Seat& seat = *seats_[at(s)];
    seat.conn = m;
    seat.token = token;
    seat.away_since.reset();
  }
}

void Seats::mark_away(Seat& seat) const {
  seat.away_since = time_->steady_ms();
  seat.away_unix = time_->unix_ms();
}

void Seats::swap_sides(bool one_screen) {
  std::swap(seats_[0], seats_[1]);
  // A rated game's result carries into the next: its rating after is the next one's before.
  for (auto& seat : seats_) {
    if (!seat || !seat->player || !seat->player->after) continue;
    SeatPlayer& p = *seat->player;
    (p.score == 1.0 ? p.wins : p.score == 0.0 ? p.losses : p.draws) += 1;
    p.rating = *p.after;
    p.after.reset();
  }
  for (auto& [m, member] : members_) {
    if (member.side && !one_screen) member.side = other(*member.side);
  }
}

PlayerView Seat::view(bool rated) const {
  PlayerView v{name, conn.has_value() || ai.has_value(), ai};
  if (!player) return v;
  v.account = player->account;
  v.bot = player->bot;
  if (!rated) return v;
  const players::Rating& now = player->after ? *player->after : player->rating;
  v.rating = static_cast<int>(std::lround(now.rating));
  v.provisional = now.deviation >= players::Glicko2Params::lichess().provisional_deviation;
  if (player->after)
    v.rating_diff = *v.rating - static_cast<int>(std::lround(player->rating.rating));
  return v;
}

std::array<std::optional<PlayerView>, 2> Seats::views(bool rated) const {
  std::array<std::optional<PlayerView>, 2> out;
  for (std::size_t i = 0; i < 2; ++i) {
    if (seats_[i]) out[i] = seats_[i]->view(rated);
  }
  return out;
}

std::optional<StoredSeat> Seats::stored(Side s) const {
  const auto& seat = seats_[at(s)];
  if (!seat) return std::nullopt;
  return StoredSeat{seat->name, seat->token_hash, seat->player};
}

SeatNames Seats::names() const {
  SeatNames out;
  for (std::size_t i = 0; i < 2; ++i) {
    if (seats_[i]) out[i] = seats_[i]->name;
  }
  return out;
}

SeatPlayers Seats::players() const {
  SeatPlayers out;
  for (std::size_t i = 0; i < 2; ++i) {
    if (seats_[i]) out[i] = seats_[i]->player;
  }
  return out;
}

void Seats::restore(const std::array<std::optional<StoredSeat>, 2>& stored) {
  for (std::size_t i = 0; i < 2; ++i) {
    if (stored[i]) {
      seats_[i] = Seat{stored[i]->name,
                       stored[i]->token_hash,
                       {},
                       std::nullopt,
                       computer_level(stored[i]->token_hash)};
      seats_[i]->player = stored[i]->player;
      mark_away(*seats_[i]);
    } else {
      seats_[i].reset();
    }
  }
}

void Seats::adopt(const Seats& old) {
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
// Members

std::optional<Side> Seats::seat_of(MemberId m) const {
  auto it = members_.find(m);
  return it == members_.end() ? std::nullopt : it->second.side;
}

std::vector<MemberId> Seats::ids() const {
  std::vector<MemberId> out;
  out.reserve(members_.size());
  for (const auto& kv : members_) out.push_back(kv.first);
  return out;
}

std::optional<Side> Seats::remove(MemberId m, bool free_seat, bool one_screen) {
  auto it = members_.find(m);
  if (it == members_.end()) return std::nullopt;
  std::optional<Side> freed;
  if (const auto side = it->second.side) {
    for (auto& held : seats_) {  // both, at one screen
      if (held && held->conn == m) {
        held->conn.reset();
        mark_away(*held);
      }
    }
    auto& seat = seats_[at(*side)];
    if (free_seat && seat && !one_screen) {
      seat.reset();
      freed = side;
    }
  }
  members_.erase(it);
  return freed;
}

std::vector<MemberId> Seats::clear() {
  std::vector<MemberId> out = ids();
  members_.clear();
  for (auto& s : seats_) {
    if (s) s->conn.reset();
  }
  return out;
}

int Seats::spectator_count() const {
  return static_cast<int>(std::count_if(members_.begin(), members_.end(),
                                        [](const auto& kv) { return !kv.second.side; }));
}

std::size_t Seats::spectators_from(std::string_view address, MemberId except) const {
  return static_cast<std::size_t>(
      std::count_if(members_.begin(), members_.end(), [&](const auto& kv) {
        return kv.first != except && !kv.second.side && kv.second.address == address;
      }));
}

// ---------------------------------------------------------------------------------------------
// States

void Seats::mark_all_current() {
  for (auto& [m, member] : members_) member.current = true;
}

std::vector<MemberId> Seats::catch_up() {
  std::vector<MemberId> out;
  for (auto& [m, member] : members_) {
    if (member.current) continue;
    out.push_back(m);
    member.current = true;
  }
  return out;
}

void Seats::set_form(MemberId m, StateForm form) {
  if (form == StateForm::Full) return;
  compact_.insert(m);
  if (form == StateForm::ShortDelta) {
    short_.insert(m);
  } else {
    short_.erase(m);
  }
}

void Seats::forget_form(MemberId m) {
  compact_.erase(m);
  short_.erase(m);
}

std::array<std::vector<MemberId>, 2> Seats::current_compact() const {
  std::array<std::vector<MemberId>, 2> out;  // sorted as compact_ is
  for (MemberId m : compact_) {
    if (auto it = members_.find(m); it != members_.end() && it->second.current) {
      out[short_.count(m)].push_back(m);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Chat

std::optional<Limited> Seats::take_chat(MemberId m, const Limits& limits) {
  Member& who = members_.at(m);
  if (limits.chat_per_second > 0) {
    auto& own = who.side && seats_[at(*who.side)] ? seats_[at(*who.side)]->chat : who.chat;
    if (!own) own.emplace(limits.chat_per_second, limits.chat_burst);
    if (!own->take()) return Limited::MemberChat;
  }
  // The players' chat never takes from this: spectators together cannot crowd them out.
  if (!who.side && limits.spectator_chat_per_second > 0) {
    if (!spectator_chat_)
      spectator_chat_.emplace(limits.spectator_chat_per_second, limits.spectator_chat_burst);
    if (!spectator_chat_->take()) return Limited::SpectatorChat;
  }
  return std::nullopt;
}

}  // namespace bc::server
