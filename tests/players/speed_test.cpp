// The speed a clocked game is rated in: lichess's estimate (initial + 40 increments) and bounds.
#include "bc/players/speed.hpp"

#include <gtest/gtest.h>

namespace bc::players {
namespace {

constexpr std::int64_t kMin = 60'000;
constexpr std::int64_t kSec = 1'000;

TEST(Speed, AClockIsRatedByItsEstimatedDuration) {
  EXPECT_EQ(estimated_seconds(3 * kMin, 2 * kSec), 260);
  EXPECT_EQ(speed_of_clock(1 * kMin, 0), Speed::bullet);
  EXPECT_EQ(speed_of_clock(15 * kSec, 0), Speed::bullet) << "lichess's ultra-bullet is bullet here";
  EXPECT_EQ(speed_of_clock(2 * kMin, 1 * kSec), Speed::bullet);  // 160 s
  EXPECT_EQ(speed_of_clock(3 * kMin, 0), Speed::blitz);          // 180 s: the bound is blitz's
  EXPECT_EQ(speed_of_clock(5 * kMin, 3 * kSec), Speed::blitz);   // 420 s
  EXPECT_EQ(speed_of_clock(8 * kMin, 0), Speed::rapid);
  EXPECT_EQ(speed_of_clock(15 * kMin, 10 * kSec), Speed::rapid);  // 1300 s
  EXPECT_EQ(speed_of_clock(25 * kMin, 0), Speed::classical);
  EXPECT_EQ(speed_of_clock(90 * kMin, 30 * kSec), Speed::classical);
  EXPECT_EQ(speed_of_clock(6 * 60 * kMin, 0), Speed::correspondence);
}

TEST(Speed, NamesGoBothWays) {
  for (Speed s : kSpeeds) EXPECT_EQ(speed_from_name(speed_name(s)), s);
  EXPECT_EQ(speed_name(Speed::blitz), "blitz");
  EXPECT_EQ(speed_from_name("ultrabullet"), std::nullopt);
  EXPECT_EQ(speed_from_name(""), std::nullopt);
}

}  // namespace
}  // namespace bc::players
