// What anyone may read of players (docs/PLAYERS.md): a profile (/api/players/{name}) and the
// leaderboards (/api/leaderboard). Store reads: call them off the I/O threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bc/store.hpp"
#include "server/players/accounts.hpp"

namespace bc::server {

// Every perf a game can be rated in: each variant, by each speed ("bomb:blitz").
std::vector<std::string> all_perfs();

// A named player's ratings with their history, won/drawn/lost counts and latest rated games.
AccountAnswer profile_answer(store::Store& store, std::string_view name, std::int64_t now_ms);
// The best ratings that are no longer provisional: of `perf`, or ("") the top of every perf that
// has any.
AccountAnswer leaderboard_answer(store::Store& store, std::string_view perf, int limit,
                                 std::int64_t now_ms);

}  // namespace bc::server
