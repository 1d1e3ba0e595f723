// A room's game as the bot API shows it (docs/BOTS.md): gameFull, gameState and a game's summary
// (the event stream's `game`). Built on the room's strand, from the Room itself.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/room/room.hpp"

namespace bc::server {

// A gameState line; `mine`: the bot's side, whose turn alone lists `legal`. nullopt while the side
// to move is in the middle of a multi-jump (made a hop at a time): nothing to show until it ends.
std::optional<nlohmann::ordered_json> bot_game_state(const Room& room, Side mine,
                                                     std::int64_t now_ms);
// The gameFull line: the game's setup, its players, and its state as bot_game_state (a mid-turn
// state is shown as it stands, without `legal`).
nlohmann::ordered_json bot_game_full(const Room& room, Side mine, std::int64_t now_ms);
// The event stream's `game`: {"id","url","variant","rated","side","opponent","result"}.
nlohmann::ordered_json bot_game_summary(const Room& room, Side mine);
// `opponentGone` for `mine`'s opponent, when it changed: gone, or back (`gone` false).
std::optional<nlohmann::ordered_json> bot_opponent_gone(const Room& room, Side mine,
                                                        std::int64_t now_ms);

}  // namespace bc::server
