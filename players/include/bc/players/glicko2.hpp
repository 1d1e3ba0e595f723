// Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), as lichess rates games: each game
// updates both players at once, against the other's rating before it, over the fraction of a
// rating period since each one's last rated game; deviation and volatility kept within bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace bc::players {

/** A rating on the Glicko scale: 1500 is the new player's, deviation is RD. */
struct Rating {
  double rating = 1500.0;
  double deviation = 500.0;
  double volatility = 0.09;
  /** When its player's last rated game ended (ms since the epoch), if they have played one. */
  std::optional<std::int64_t> last_game_ms;

  bool operator==(const Rating&) const = default;
};

/** The system's constants. `lichess()` are the ones this server rates with. */
struct Glicko2Params {
  double tau = 0.75;  // how much volatility may change
  double rating_periods_per_day = 0.21436;
  double min_deviation = 45.0;  // bounds kept after every update
  double max_deviation = 500.0;
  double max_volatility = 0.1;
  double provisional_deviation = 110.0;  // at or above it the rating is shown with a "?"
  double convergence = 1e-6;             // of the volatility's iteration (Glickman's epsilon)

  static Glicko2Params lichess() { return {}; }
};

/** One game's result for the player being rated: the opponent's rating before it, and the score
 *  (1 a win, 0.5 a draw, 0 a loss). */
struct Outcome {
  double opponent_rating;
  double opponent_deviation;
  double score;
};

/**
 * Glickman's step 1 to 8 for one player over `periods` rating periods (1 in his example) with
 * the results of that time, none meaning the player did not play (only the deviation grows).
 * No bounds are applied: this is the algorithm as published.
 */
Rating glicko2_update(const Rating& player, std::span<const Outcome> outcomes, double periods,
                      double tau, double convergence = 1e-6);

/** The rating periods between `since_ms` and `now_ms` (none before a first game). */
double rating_periods(const Rating& r, std::int64_t now_ms, const Glicko2Params& p);

/** The deviation as it stands at `now_ms`: grown with the time since the last game, within the
 *  bounds. What a profile shows, and what a game starts from. */
double current_deviation(const Rating& r, std::int64_t now_ms, const Glicko2Params& p);

/** Whether a rating is still provisional at `now_ms` (shown as "1500?"). */
bool provisional(const Rating& r, std::int64_t now_ms, const Glicko2Params& p);

/** Both players' ratings after a game between them that ended at `now_ms`; `score_a` is the first
 *  player's (1, 0.5 or 0). */
struct GameRatings {
  Rating a;
  Rating b;
};
GameRatings rate_game(const Rating& a, const Rating& b, double score_a, std::int64_t now_ms,
                      const Glicko2Params& p = Glicko2Params::lichess());

}  // namespace bc::players
