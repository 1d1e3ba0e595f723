// Matches between computer levels: the random openings that make the games of a match differ,
// one game played to its end, and A's score with its 95% margin and the Elo difference it implies.
// `bombcheckers selfplay` (app/cmd_selfplay.cpp) prints them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "bc/core.hpp"

namespace bc::ai {

// `turns` uniformly random turns from `start`, seeded: the same seed gives the same opening. An
// opening that ends the game is drawn again (up to 50 times).
Game random_opening(const Game& start, int turns, std::uint64_t seed);

struct MatchSettings {
  int level_a = 8;
  int level_b = 4;
  std::optional<std::chrono::milliseconds> time;  // per turn
  std::optional<std::uint64_t> nodes;             // per turn (deterministic)
  int max_turns = 600;                            // then the game is scored a draw
  std::uint64_t seed = 1;
};

struct MatchGame {
  std::optional<bool> a_won;  // nullopt: drawn (or stopped at max_turns)
  std::string reason;         // the result's reason, or "turn_limit"
  int turns = 0;
  std::uint64_t nodes = 0;
};

// Plays `g` to its end (or max_turns), A playing `a_side`; `index` varies the searches' seeds.
// Nullopt if the engine chose an action the rules refuse (a bug).
std::optional<MatchGame> play_match_game(Game g, Side a_side, const MatchSettings& s, int index);

struct MatchScore {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int games() const { return wins + draws + losses; }
  void add(const MatchGame& g);
};

struct ScoreEstimate {
  double score = 0;   // A's score, 0..1
  double margin = 0;  // half-width of its 95% interval
  double elo = 0;     // the Elo difference the score implies, with the interval's ends
  double elo_low = 0;
  double elo_high = 0;
};
ScoreEstimate estimate(const MatchScore& s);

}  // namespace bc::ai
