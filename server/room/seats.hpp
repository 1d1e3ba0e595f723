// A room's people: its two seats (a player's name, token and connection, or the computer's level)
// and its members (every connection in the room, player or spectator, and how it takes states).
// Keeps each seat and its holder's membership consistent; the room decides who may sit where and
// says so on the wire (server/room/membership.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bc/core.hpp"
#include "server/game/clock.hpp"
#include "server/room/rate_limit.hpp"
#include "server/wire/client.hpp"
#include "server/wire/limits.hpp"
#include "server/wire/stored.hpp"
#include "server/wire/views.hpp"

namespace bc::server {

using MemberId = std::uint64_t;  // one per connection, unique in the server

// 128 random bits as 32 hex digits, from the operating system's CSPRNG.
std::string random_token();

struct Seat {
  std::string name;
  std::string token_hash;  // sha256_hex of the token: what is stored and compared
  std::string token;       // the token itself, while this process knows it ("" after a restart
                           // until its holder presents it again); never stored or logged
  std::optional<MemberId> conn;  // the live connection holding the seat, if any
  std::optional<int> ai;         // a computer seat's level (stored as the token hash "ai:L")
  std::optional<TokenBucket> chat = std::nullopt;  // the seat's chat budget (made at its first
                                                   // chat): a player keeps it across reconnects
  std::optional<std::int64_t> away_since = std::nullopt;  // steady ms: its connections went
  std::int64_t away_unix = 0;                             // the same, Unix ms (for the state)
  std::optional<std::int64_t> lag = std::nullopt;         // as its client last reported, ms
  std::optional<SeatPlayer> player = std::nullopt;        // a signed-in player's seat

  // `rated`: the room's games are rated, so the view shows the rating.
  PlayerView view(bool rated = false) const;
};

struct Member {
  std::string name;
  std::optional<Side> side;                        // nullopt: a spectator
  bool current = false;                            // it was sent the room's last state
  std::string address;                             // the client's ("": not known)
  std::optional<TokenBucket> chat = std::nullopt;  // a spectator's, made at its first chat
};

class Seats {
 public:
  explicit Seats(const TimeSource* time) : time_(time) {}

  // ---- The seats, by side.
  const std::optional<Seat>& operator[](Side s) const { return seats_[at(s)]; }
  std::optional<Seat>& operator[](Side s) { return seats_[at(s)]; }
  bool seated(Side s) const { return seats_[at(s)].has_value(); }
  bool has_computer() const;
  std::size_t connected_players() const;
  // Connection m takes side s as a player with a fresh `token` (kept as its hash).
  void sit(Side s, std::string name, const std::string& token, MemberId m);
  void sit_computer(Side s, int level);
  // The sides whose seats `token` holds (both at one screen, where one token holds them).
  std::vector<Side> held_by(std::string_view token) const;
  // Connection m holds the seats `sides` with `token` from now (a reload, a second tab).
  void hand_over(const std::vector<Side>& sides, MemberId m, const std::string& token);
  // Its connections went: the time it went, for a claim's grace.
  void mark_away(Seat& seat) const;
  // A rematch: the players change sides with their tokens (a one-screen connection stays first).
  void swap_sides(bool one_screen);
  std::array<std::optional<PlayerView>, 2> views(bool rated = false) const;

  // ---- The store's part: seats as kept, names, and rebuilding from it.
  std::optional<StoredSeat> stored(Side s) const;
  SeatNames names() const;
  SeatPlayers players() const;
  // The seats of a stored room, everyone away (after a restart all have the grace to come back).
  void restore(const std::array<std::optional<StoredSeat>, 2>& stored);
  // After a failed commit: the connections of `old` (the same room, ahead of the store). A player
  // keeps its seat if this one has it with the same token; anyone else watches.
  void adopt(const Seats& old);

  // ---- Members.
  bool is_member(MemberId m) const { return members_.count(m) != 0; }
  std::optional<Side> seat_of(MemberId m) const;
  const Member& member(MemberId m) const { return members_.at(m); }
  const std::map<MemberId, Member>& members() const { return members_; }
  std::vector<MemberId> ids() const;
  void admit(MemberId m, Member member) { members_[m] = std::move(member); }
  // Drops m's membership and its seats' connection; with `free_seat` its seat is emptied too
  // (never at one screen: nobody else may sit there). The side freed, if any.
  std::optional<Side> remove(MemberId m, bool free_seat, bool one_screen);
  // Drops m's membership alone (a connection replaced by another with its token).
  void drop(MemberId m) { members_.erase(m); }
  // The room closes: every member's id, and nobody left.
  std::vector<MemberId> clear();
  int spectator_count() const;
  // Members other than `except` watching from `address`.
  std::size_t spectators_from(std::string_view address, MemberId except) const;

  // ---- Which members hold the room's last state, and how they take the next.
  void mark_current(MemberId m, bool current) { members_.at(m).current = current; }
  void mark_all_current();
  // Those who lack the last state, now marked as holding it.
  std::vector<MemberId> catch_up();
  // Member m (now or once it joins) takes deltas (Delta) or deltas with short actions.
  void set_form(MemberId m, StateForm form);
  void forget_form(MemberId m);
  bool any_compact() const { return !compact_.empty(); }
  // The members holding the last state that take deltas: [0] with actions as objects, [1] short;
  // each sorted.
  std::array<std::vector<MemberId>, 2> current_compact() const;

  // ---- Chat: the member's own budget (a player's seat's), then the spectators' shared one.
  std::optional<Limited> take_chat(MemberId m, const Limits& limits);

 private:
  static std::size_t at(Side s) { return static_cast<std::size_t>(index(s)); }

  const TimeSource* time_;
  std::array<std::optional<Seat>, 2> seats_;
  std::map<MemberId, Member> members_;
  std::set<MemberId> compact_;                 // members that take deltas
  std::set<MemberId> short_;                   // those of them that take short actions
  std::optional<TokenBucket> spectator_chat_;  // all spectators' chat together
};

}  // namespace bc::server
