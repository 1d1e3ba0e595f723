// Who sent a request, when the connection is signed in (docs/PLAYERS.md): the player's id, its
// account name if it has one, and its ratings as they were read when the request came. Not on the
// wire: the connection fills it from its session cookie.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bc/players/glicko2.hpp"

namespace bc::server {

struct PerfRating {
  std::string perf;  // "bomb:blitz": the variant and the speed of its clock
  players::Rating rating;
  int wins = 0, draws = 0, losses = 0;
};

struct Identity {
  std::string id;    // the player's id (not a secret)
  std::string name;  // the account's name; "" for a guest
  std::vector<PerfRating> ratings;
  bool bot = false;  // a bot account (docs/BOTS.md)
  bool account() const { return !name.empty(); }
  // The rating in `perf`, or a new player's.
  players::Rating rating_in(std::string_view perf) const {
    for (const auto& r : ratings) {
      if (r.perf == perf) return r.rating;
    }
    return players::Rating{};
  }
};

// A signed-in player's part of a seat (docs/PLAYERS.md): who, and in a rated game the rating in the
// room's perf as the game started and, once it is rated, after it.
struct SeatPlayer {
  std::string id;
  std::string account;  // "" for a guest
  bool bot = false;     // a bot account's seat (docs/BOTS.md)
  players::Rating rating;
  int wins = 0, draws = 0, losses = 0;  // in the room's perf, before this game
  std::optional<players::Rating> after = std::nullopt;
  double score = 0;  // with `after`: 1 won, 0.5 drawn, 0 lost
};

}  // namespace bc::server
