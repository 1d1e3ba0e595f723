// Text for positions, turns and scores, used by the command-line tools (std only, no JSON).
//
// Position text (a FEN-like line):  <to-move>:<first side's pieces>:<second side's
// pieces>[:<a>,<b>]
//   <to-move>  a side name (fire, water, black, white, x, o) or 1 / 2
//   pieces     comma-separated squares, file letter then rank from 1 ("c3" is [2,2]), each with
//              optional prefixes: K king, T triple king, S shield, B bomb ("KSe5" a shield king)
//   <a>,<b>    kaboom: bombs left in hand for the first and second side (default 0,0)
//   "start"    the variant's start position
// Examples: "fire:c3,Bd4,KSe5:Bf6,g7"   "black:a1,c1:Kh8"   "x:a1,Bb1,a2:c1,c2:1,0"
//
// Turn text: checkers "c3-d4" (step), "c3xe5xc7" (jumps; in bomb a sequence that stops before
// the piece runs out of jumps is written up to where it stops), "end" (end a turn mid-capture);
// kaboom "d" (drop in column d), "Bd" (drop a bomb in column d), "*c2" (detonate the bomb on c2).
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bc/core.hpp"

namespace bc::ai {

std::variant<Game, std::string> parse_position(VariantId v, const Options& o,
                                               std::string_view text);
std::string format_position(const Game& g);

std::string format_square(Square s);
std::string format_turn(const Turn& t);
// Matched against before.turns(): only a legal turn is ever returned.
std::variant<Turn, std::string> parse_turn(const Game& before, std::string_view text);
// Applies a list of turns separated by spaces or commas.
std::variant<Game, std::string> play_turns(const Game& start, std::string_view text);

// "+1.25" (hundredths of a man), "win in 5", "loss in 4".
std::string format_score(int score);
// A text picture of the board (top row first).
std::string board_picture(const Game& g);

}  // namespace bc::ai
