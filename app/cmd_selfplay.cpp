// `bombcheckers selfplay`: a match between two computer levels, with A's score, its 95% margin and
// the Elo difference it implies (the match itself: bc/ai_match.hpp).
#include <cstdio>
#include <optional>
#include <string>

#include "bc/ai.hpp"
#include "bc/ai_match.hpp"
#include "bc/ai_notation.hpp"
#include "commands.hpp"
#include "engine_flags.hpp"

namespace bc::app {
namespace {

using Setting = std::optional<std::string>;

struct Settings {
  EngineFlags engine;
  ai::MatchSettings match;
  int games = 10;
  std::optional<int> random_turns;
  bool quiet = false;
};

Setting set_level(int& level, std::string_view v) {
  const auto l = parse_whole(v, ai::kMinLevel, ai::kMaxLevel);
  if (!l) return "levels are 1..8";
  level = static_cast<int>(*l);
  return std::nullopt;
}
Setting set_a(Settings& s, std::string_view v) {
  return set_level(s.match.level_a, v);
}
Setting set_b(Settings& s, std::string_view v) {
  return set_level(s.match.level_b, v);
}

Setting set_games(Settings& s, std::string_view v) {
  const auto n = parse_whole(v, 1, 100000);
  if (!n) return "wants 1..100000";
  s.games = static_cast<int>(*n);
  return std::nullopt;
}

Setting set_seed(Settings& s, std::string_view v) {
  const auto n = parse_whole(v, 0, 1'000'000'000'000'000LL);
  if (!n) return "wants a whole number";
  s.match.seed = static_cast<std::uint64_t>(*n);
  return std::nullopt;
}

Setting set_random_turns(Settings& s, std::string_view v) {
  const auto k = parse_whole(v, 0, 40);
  if (!k) return "wants 0..40";
  s.random_turns = static_cast<int>(*k);
  return std::nullopt;
}

Setting set_max_turns(Settings& s, std::string_view v) {
  const auto m = parse_whole(v, 1, 100000);
  if (!m) return "wants a positive number";
  s.match.max_turns = static_cast<int>(*m);
  return std::nullopt;
}

Setting set_quiet(Settings& s, std::string_view) {
  s.quiet = true;
  return std::nullopt;
}

const Flag<Settings> kSelfplayFlags[] = {
    kVariantFlag<Settings>,
    {"--a", "", "LEVEL", "the level of A, 1..8 (default 8)", set_a},
    {"--b", "", "LEVEL", "the level of B, 1..8 (default 4)", set_b},
    {"--games", "", "N", "games to play (default 10); A moves first in every other one", set_games},
    {"--seed", "", "S", "seed of the openings and searches (default 1)", set_seed},
    {"--random-turns", "", "K",
     "random turns that open each pair of games, played once from each side\n"
     "                             (default 4 for checkers, 2 for kaboom)",
     set_random_turns},
    {"--max-turns", "", "M", "a game still running after M turns is scored a draw (default 600)",
     set_max_turns},
    kTimeFlag<Settings>,
    kNodesFlag<Settings>,
    kOptFlag<Settings>,
    {"--quiet", "", "", "print only the score, not every game", set_quiet},
};

void usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers selfplay [options]\n\n"
      "Plays a match between computer levels A and B, then prints every result, A's score\n"
      "with its 95%% error margin, and the Elo difference it implies.\n\n");
  print_flags<Settings>(out, kSelfplayFlags);
}

}  // namespace

int cmd_selfplay(Args args) {
  const char* cmd = "selfplay";
  Settings s;
  if (auto done = read_command_flags<Settings>(cmd, kSelfplayFlags, args, s, usage)) return *done;
  if (auto err = s.engine.finish()) return usage_error(cmd, *err);
  const auto created = Game::create(s.engine.variant, s.engine.options);
  if (const auto* err = std::get_if<std::string>(&created)) return usage_error(cmd, *err);
  s.match.time = s.engine.time;
  s.match.nodes = s.engine.nodes;
  const int opening_turns = s.random_turns.value_or(is_checkers(s.engine.variant) ? 4 : 2);

  ai::MatchScore score;
  for (int game = 0; game < s.games; ++game) {
    const Side a_side = game % 2 == 0 ? Side::First : Side::Second;
    const Game opening =
        ai::random_opening(std::get<Game>(created), opening_turns,
                           s.match.seed * 1000003 + static_cast<std::uint64_t>(game / 2));
    const auto played = ai::play_match_game(opening, a_side, s.match, game);
    if (!played) {
      std::fprintf(stderr, "selfplay: the engine chose an illegal action (a bug)\n");
      return 1;
    }
    score.add(*played);
    if (s.quiet) continue;
    const char* outcome = !played->a_won ? "draw" : *played->a_won ? "A wins" : "B wins";
    std::printf("game %d: A (level %d) plays %s: %s (%s) after %d turns, %llu nodes; opening %s\n",
                game + 1, s.match.level_a, std::string(side_name(s.engine.variant, a_side)).c_str(),
                outcome, played->reason.c_str(), played->turns,
                static_cast<unsigned long long>(played->nodes),
                ai::format_position(opening).c_str());
    std::fflush(stdout);
  }
  const ai::ScoreEstimate e = ai::estimate(score);
  std::printf(
      "A (level %d) vs B (level %d): +%d =%d -%d in %d games; score of A %.1f%% +- %.1f%% "
      "(95%%); Elo %+.0f [%+.0f, %+.0f]\n",
      s.match.level_a, s.match.level_b, score.wins, score.draws, score.losses, score.games(),
      100.0 * e.score, 100.0 * e.margin, e.elo, e.elo_low, e.elo_high);
  return 0;
}

}  // namespace bc::app
