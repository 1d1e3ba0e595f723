// Glicko-2: Glickman's worked example, and lichess's way of rating one game at a time (bounds,
// the deviation growing with the time since a player's last game, provisional ratings).
#include "bc/players/glicko2.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace bc::players {
namespace {

constexpr std::int64_t kDay = 24LL * 60 * 60 * 1000;
constexpr std::int64_t kT0 = 1'800'000'000'000;  // a fixed "now", in ms since the epoch

TEST(Glicko2, GlickmansWorkedExample) {
  // "Example of the Glicko-2 system" (Glickman, 2012): one rating period, tau 0.5.
  const Rating player{1500, 200, 0.06, std::nullopt};
  const std::array<Outcome, 3> games{{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}}};
  const Rating after = glicko2_update(player, games, 1.0, 0.5);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Rating player{1700, 100, 0.06, std::nullopt};
  const Rating after = glicko2_update(player, {}, 1.0, 0.5);
  EXPECT_EQ(after.rating, 1700);
  EXPECT_EQ(after.volatility, 0.06);
  const double phi = 100 / 173.7178;
  EXPECT_NEAR(after.deviation, std::sqrt(phi * phi + 0.06 * 0.06) * 173.7178, 1e-9);
  EXPECT_GT(after.deviation, 100);
}

TEST(Glicko2, ANewPlayerIsRatedLikeLichesssAndProvisional) {
  const auto p = Glicko2Params::lichess();
  const Rating fresh;
  EXPECT_EQ(fresh.rating, 1500);
  EXPECT_EQ(fresh.deviation, 500);
  EXPECT_EQ(fresh.volatility, 0.09);
  EXPECT_EQ(p.tau, 0.75);
  EXPECT_EQ(p.rating_periods_per_day, 0.21436);
  EXPECT_TRUE(provisional(fresh, kT0, p));
}

TEST(Glicko2, AWinBetweenEqualsMovesBothTheSameDistanceAndNarrowsTheirDeviations) {
  const Rating a;
  const Rating b;
  const auto [a1, b1] = rate_game(a, b, 1.0, kT0);
  EXPECT_GT(a1.rating, 1500);
  EXPECT_LT(b1.rating, 1500);
  EXPECT_NEAR(a1.rating - 1500, 1500 - b1.rating, 1e-9);
  EXPECT_LT(a1.deviation, 500);
  EXPECT_NEAR(a1.deviation, b1.deviation, 1e-9);
  EXPECT_EQ(a1.last_game_ms, kT0);
  EXPECT_EQ(b1.last_game_ms, kT0);
}

TEST(Glicko2, ADrawBetweenEqualsKeepsTheirRatings) {
  const Rating a{1620, 80, 0.06, kT0 - kDay};
  const auto [a1, b1] = rate_game(a, a, 0.5, kT0);
  EXPECT_NEAR(a1.rating, 1620, 1e-9);
  EXPECT_NEAR(b1.rating, 1620, 1e-9);
}

TEST(Glicko2, TheSameGameSeenFromEitherSideGivesTheSameRatings) {
  const Rating a{1810, 120, 0.07, kT0 - 3 * kDay};
  const Rating b{1650, 60, 0.05, kT0 - 40 * kDay};
  const auto [a1, b1] = rate_game(a, b, 0.0, kT0);
  const auto [b2, a2] = rate_game(b, a, 1.0, kT0);
  EXPECT_EQ(a1, a2);
  EXPECT_EQ(b1, b2);
  EXPECT_LT(a1.rating, 1810);
  EXPECT_GT(b1.rating, 1650);
  EXPECT_GT(1810 - a1.rating, b1.rating - 1650) << "the surer rating moves less";
}

TEST(Glicko2, TheDeviationGrowsWithTheTimeSinceTheLastGameUpToItsBound) {
  const auto p = Glicko2Params::lichess();
  const Rating r{1900, 60, 0.06, kT0};
  EXPECT_EQ(rating_periods(r, kT0, p), 0);
  EXPECT_NEAR(rating_periods(r, kT0 + 10 * kDay, p), 2.1436, 1e-12);
  EXPECT_NEAR(current_deviation(r, kT0, p), 60, 1e-9);
  const double month = current_deviation(r, kT0 + 30 * kDay, p);
  const double year = current_deviation(r, kT0 + 365 * kDay, p);
  EXPECT_GT(month, 60);
  EXPECT_GT(year, month);
  const double phi = 60 / 173.7178;
  EXPECT_NEAR(month, std::sqrt(phi * phi + 30 * 0.21436 * 0.06 * 0.06) * 173.7178, 1e-9);
  EXPECT_EQ(current_deviation(r, kT0 + 100 * 365 * kDay, p), p.max_deviation);
  EXPECT_FALSE(provisional(r, kT0, p));
  EXPECT_TRUE(provisional(r, kT0 + 3 * 365 * kDay, p))
      << "a player away for years is provisional again";
}

TEST(Glicko2, RatingsStayWithinLichesssBoundsOverManyGames) {
  const auto p = Glicko2Params::lichess();
  Rating a;
  Rating b;
  std::int64_t now = kT0;
  for (int i = 0; i < 500; ++i) {
    now += 60'000;
    const auto [a1, b1] = rate_game(a, b, i % 3 == 0 ? 0.0 : 1.0, now);
    a = a1;
    b = b1;
    ASSERT_GE(a.deviation, p.min_deviation);
    ASSERT_LE(a.deviation, p.max_deviation);
    ASSERT_LE(a.volatility, p.max_volatility);
    ASSERT_TRUE(std::isfinite(a.rating) && std::isfinite(b.rating));
  }
  EXPECT_EQ(a.deviation, p.min_deviation) << "500 games in a day: as sure as a rating gets";
  EXPECT_GT(a.rating, b.rating) << "a won two games in three";
  EXPECT_FALSE(provisional(a, now, p));
}

}  // namespace
}  // namespace bc::players
