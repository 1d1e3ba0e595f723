// Whole turns as text for programs (docs/BOTS.md): the record notation a person exports (PDN for
// the checkers variants, the Kaboom record's lines), read back from that and from the analyse
// command's notation. Matched against the position's legal turns, so only a legal turn is read.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bc/core.hpp"
#include "server/room/room.hpp"

namespace bc::server {

// "11-15", "9x18x27" (a bomb capture that stops early: up to where it stops); Kaboom "drop 3",
// "drop bomb 3", "detonate [2,0]".
std::string turn_text(VariantId v, const Turn& t);
// The legal turns of the side to move, in turn_text's notation (none once the game is over).
std::vector<std::string> legal_turn_texts(const Game& g);
// The legal turn `text` names, or why none: turn_text's notation, the analyse command's ("c3-d4",
// "c3xe5", "d", "Bd", "*c2"), and Kaboom's short "3" and "3 bomb". Case and spaces do not matter.
std::variant<Turn, std::string> read_turn(const Game& g, std::string_view text);

// The room's current game so far: every whole turn made, in turn_text's notation, and whether the
// side to move is in the middle of one (a multi-jump made a hop at a time).
struct PlayedTurns {
  std::vector<std::string> turns;
  bool mid_turn = false;
};
PlayedTurns played_turns(const Room& room);

}  // namespace bc::server
