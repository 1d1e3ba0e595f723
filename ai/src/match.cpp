#include <algorithm>
#include <cmath>

#include "bc/ai.hpp"
#include "bc/ai_match.hpp"

namespace bc::ai {

Game random_opening(const Game& start, int turns, std::uint64_t seed) {
  for (std::uint64_t attempt = 0;; ++attempt) {
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + attempt * 0xD1B54A32D192ED03ull + 1;
    Game g = start;
    for (int t = 0; t < turns && !g.over(); ++t) {
      const auto all = g.turns();
      x ^= x >> 31;
      x *= 0xBF58476D1CE4E5B9ull;
      x ^= x >> 29;
      const Turn& pick = all[static_cast<std::size_t>(x % all.size())];
      for (const Action& a : pick.actions) g = g.apply(a)->next;
    }
    if (!g.over() || attempt > 50) return g;
  }
}

std::optional<MatchGame> play_match_game(Game g, Side a_side, const MatchSettings& s, int index) {
  MatchGame out;
  while (!g.over() && out.turns < s.max_turns) {
    const bool a_moves = g.turn() == a_side;
    SearchLimits limits;
    limits.level = a_moves ? s.level_a : s.level_b;
    limits.seed = s.seed * 7919 + static_cast<std::uint64_t>(index) * 104729 +
                  static_cast<std::uint64_t>(out.turns);
    limits.time = s.time;
    limits.nodes = s.nodes;
    const SearchResult r = choose_turn(g, limits);
    out.nodes += r.nodes;
    for (const Action& act : r.best.actions) {
      auto applied = g.apply(act);
      if (!applied) return std::nullopt;
      g = applied->next;
    }
    ++out.turns;
  }
  out.reason = g.over() ? std::string(reason_name(g.result()->reason)) : "turn_limit";
  if (g.over() && g.result()->winner) out.a_won = *g.result()->winner == a_side;
  return out;
}

void MatchScore::add(const MatchGame& g) {
  if (!g.a_won) {
    ++draws;
  } else if (*g.a_won) {
    ++wins;
  } else {
    ++losses;
  }
}

ScoreEstimate estimate(const MatchScore& s) {
  ScoreEstimate e;
  const double n = s.games();
  if (n == 0) return e;
  e.score = (s.wins + 0.5 * s.draws) / n;
  const double sq = (s.wins + 0.25 * s.draws) / n;
  const double var = std::max(0.0, sq - e.score * e.score);
  e.margin = n > 1 ? 1.96 * std::sqrt(var / (n - 1)) : 1.0;
  // A clean sweep has no spread to measure; the rule of three bounds it instead.
  if (var == 0.0 && (e.score == 0.0 || e.score == 1.0)) e.margin = std::min(1.0, 3.0 / n);
  auto elo = [](double p) {
    p = std::clamp(p, 0.001, 0.999);
    return -400.0 * std::log10(1.0 / p - 1.0);
  };
  e.elo = elo(e.score);
  e.elo_low = elo(e.score - e.margin);
  e.elo_high = elo(e.score + e.margin);
  return e;
}

}  // namespace bc::ai
