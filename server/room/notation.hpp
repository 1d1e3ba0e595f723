// Game notation for people and other programs (docs/PERSISTENCE.md): Portable Draughts Notation for
// the checkers variants, a plain text record for Kaboom.
#pragma once

#include <optional>
#include <string>

#include "bc/core.hpp"
#include "server/room/room.hpp"

namespace bc::server {

// PDN square numbers 1..32 as for English draughts: the first side (black, fire) holds 1..12 at
// the start, 1..4 on its back row; square 1 is the top-left playable square when the board is shown
// from the second side (white, water) with the first side at the top. [x, y] -> number:
// 4*y + (7-x)/2 + 1. nullopt off the playable squares.
std::optional<int> pdn_square(Square s);
std::optional<Square> pdn_square_at(int number);

// PDN FEN of a checkers position: "B:W21,22,K30:B1,2" with extensions for the bomb and
// triple-king variants (T prefix: triple king; s / b suffix: shield / bomb piece).
std::string pdn_fen(const Game& g);

// The whole game of a room as text: PDN for checkers variants, the plain record for Kaboom.
std::string game_notation(const Room& room);
// The content type of game_notation's text.
inline constexpr const char* kNotationContentType = "text/plain; charset=utf-8";

}  // namespace bc::server
