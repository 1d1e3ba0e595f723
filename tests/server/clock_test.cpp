// GameClock and LagTracker on a fake clock: every time is a number the test chooses, so nothing
// here waits. The lag vectors are scalachess's (ClockLagCompTest), in milliseconds.
#include "server/game/clock.hpp"

#include <gtest/gtest.h>

namespace {

using bc::Side;
using bc::server::GameClock;
using bc::server::LagTracker;
using bc::server::TimeControl;

TimeControl fischer(std::int64_t base_s, std::int64_t inc_s) {
  return TimeControl{TimeControl::Kind::Fischer, base_s * 1000, inc_s * 1000};
}

// A clock past both first turns (which are not timed), fire to move at t = 0.
GameClock started(TimeControl tc) {
  GameClock c(tc, 30'000);
  c.start(Side::First, 0);
  c.act(Side::First, 0, 0, true);
  c.start(Side::Second, 0);
  c.act(Side::Second, 0, 0, true);
  EXPECT_TRUE(c.timed());
  return c;
}

// Water's time left after moves that each take `wait` ms of thought plus their lag, every move
// claiming its lag; fire answers at once.
std::int64_t water_after(TimeControl tc, std::int64_t wait,
                         std::initializer_list<std::int64_t> lags) {
  GameClock c = started(tc);
  std::int64_t t = 0;
  for (std::int64_t lag : lags) {
    c.start(Side::First, t);
    c.act(Side::First, t, 0, true);
    c.start(Side::Second, t);
    t += wait + lag;
    EXPECT_FALSE(c.charge(Side::Second, t, lag).out_of_time);
    c.act(Side::Second, t, lag, true);
  }
  return c.left(Side::Second);
}

TEST(Clock, AForgivenTurnBeginsAgainWithNothingCharged) {
  GameClock c = started(fischer(60, 0));
  c.start(Side::First, 1'000);
  c.forgive(5'000);
  EXPECT_EQ(c.charge(Side::First, 7'000, 0).elapsed, 2'000);
  EXPECT_EQ(c.left(Side::First, 7'000), 58'000);
  c.act(Side::First, 7'000, 0, true);
  EXPECT_EQ(c.left(Side::First), 58'000);
  c.forgive(8'000);  // not ticking yet for water: nothing to forgive, nothing started
  EXPECT_FALSE(c.ticking());
}

TEST(Clock, LagTrackerGainQuotaAndCapFollowTheControl) {
  const LagTracker fast(fischer(60, 0));  // 60 s estimated: 60 * 4 + 150 ms
  EXPECT_EQ(fast.gain(), 390);
  EXPECT_EQ(fast.quota(), 3 * 390);
  EXPECT_EQ(fast.quota_max(), 7 * 390);
  for (auto tc : {fischer(180, 2), fischer(300, 3), fischer(600, 5), fischer(900, 10)}) {
    EXPECT_EQ(LagTracker(tc).gain(), 1000) << bc::server::time_control_text(tc);
  }
  const LagTracker days(TimeControl{TimeControl::Kind::Correspondence, 86'400'000, 0});
  EXPECT_EQ(days.quota(), 0);
}

TEST(Clock, LagIsForgivenUpToTheQuota_ScalachessVectors) {
  EXPECT_EQ(water_after(fischer(600, 0), 0, {4000}), 599'000);            // a premove, 4 s lag
  EXPECT_EQ(water_after(fischer(600, 0), 1000, {4000}), 598'000);         // 1 s of thought, 4 s lag
  EXPECT_EQ(water_after(fischer(600, 0), 0, {3000, 3000}), 598'000);      // two premoves, 3 s lag
  EXPECT_EQ(water_after(fischer(60, 0), 0, {0, 3000}), 58'560);           // quota refilled once
  EXPECT_EQ(water_after(fischer(60, 0), 0, {0, 0, 0, 0, 7000}), 55'730);  // refilled to the cap
}

TEST(Clock, AClientThatClaimsTooMuchLagGainsAtMostTheGainPerMove) {
  // 40 moves that each take 10 s and claim all 10 s as lag: forgiven 3 s first, then 1 s each.
  GameClock c = started(fischer(600, 0));
  std::int64_t t = 0;
  for (int i = 0; i < 40; ++i) {
    c.start(Side::First, t);
    c.act(Side::First, t, 0, true);
    c.start(Side::Second, t);
    t += 10'000;
    c.act(Side::Second, t, 10'000, true);
  }
  EXPECT_EQ(c.left(Side::Second), 600'000 - 400'000 + 3'000 + 39 * 1'000);
}

TEST(Clock, TheFlagFallsAfterTheTimeAndAGraceOfTheQuotaAtMostTwoSeconds) {
  GameClock c = started(fischer(60, 0));  // quota 1170 ms
  c.start(Side::First, 1000);
  EXPECT_EQ(c.flag_deadline(), 1000 + 60'000 + 1170);
  EXPECT_FALSE(c.out_of_time(1000 + 60'000));
  EXPECT_TRUE(c.out_of_time(1000 + 61'900));
  EXPECT_EQ(c.left(Side::First, 1000 + 30'000), 30'000);
  c.flag();
  EXPECT_EQ(c.left(Side::First), 0);
  EXPECT_EQ(c.running(), std::nullopt);
  EXPECT_EQ(c.flag_deadline(), std::nullopt);

  GameClock slow = started(fischer(600, 0));  // quota 3 s: the grace stops at 2 s
  slow.start(Side::First, 0);
  EXPECT_EQ(slow.flag_deadline(), 600'000 + 2000);
}

TEST(Clock, AnActionThatComesAfterTheTimeIsOutOfTimeUnlessItsLagCoversIt) {
  GameClock c = started(fischer(60, 0));
  c.start(Side::First, 0);
  EXPECT_TRUE(c.charge(Side::First, 60'500, 0).out_of_time);
  EXPECT_FALSE(c.charge(Side::First, 60'500, 600).out_of_time);  // 600 ms of it was lag
  EXPECT_FALSE(c.charge(Side::First, 60'500, 5000).out_of_time);
  EXPECT_EQ(c.charge(Side::First, 60'500, 5000).compensated, 1170);  // the quota, not the claim
}

TEST(Clock, TheIncrementIsAddedOnceWhenTheTurnEndsNotPerHop) {
  GameClock c = started(fischer(180, 2));
  c.start(Side::First, 0);
  c.act(Side::First, 3000, 0, false);  // a jump with another to follow: fire's time stays fire's
  EXPECT_EQ(c.running(), Side::First);
  EXPECT_FALSE(c.ticking());  // until the next hop's state is sent
  EXPECT_EQ(c.flag_deadline(), std::nullopt);
  c.start(Side::First, 3100);  // the commit took 100 ms: not charged
  c.act(Side::First, 5100, 0, true);
  EXPECT_EQ(c.left(Side::First), 180'000 - 3000 - 2000 + 2000);
  EXPECT_EQ(c.running(), Side::Second);
  EXPECT_EQ(c.left(Side::Second), 180'000);
}

TEST(Clock, EachHopOfATurnIsCompensatedForItsOwnRoundTrip) {
  GameClock c = started(fischer(600, 0));  // quota 3 s, gain 1 s
  c.start(Side::First, 0);
  c.act(Side::First, 500, 200, false);
  c.start(Side::First, 600);
  c.act(Side::First, 1100, 200, false);
  c.start(Side::First, 1200);
  c.act(Side::First, 1700, 200, true);
  EXPECT_EQ(c.left(Side::First), 600'000 - 3 * (500 - 200));
}

TEST(Clock, TheFirstTurnsAreNotTimedButMustComeBeforeTheAbortDeadline) {
  GameClock c(fischer(60, 0), 30'000);
  EXPECT_FALSE(c.timed());
  EXPECT_EQ(c.abort_deadline(), std::nullopt);  // not before fire's turn is sent
  c.start(Side::First, 100);
  EXPECT_EQ(c.abort_deadline(), 30'100);
  EXPECT_EQ(c.flag_deadline(), std::nullopt);
  c.act(Side::First, 20'000, 0, true);
  EXPECT_EQ(c.left(Side::First), 60'000);  // fire's first turn cost nothing
  c.start(Side::Second, 20'050);
  EXPECT_EQ(c.abort_deadline(), 50'050);
  c.act(Side::Second, 45'000, 0, true);
  EXPECT_EQ(c.left(Side::Second), 60'000);
  EXPECT_TRUE(c.timed());
  c.start(Side::First, 45'100);
  EXPECT_EQ(c.abort_deadline(), std::nullopt);
  EXPECT_EQ(c.flag_deadline(), 45'100 + 60'000 + 1170);
}

TEST(Clock, CorrespondenceSetsTheTimeBackEachTurnAndForgivesNoLag) {
  const std::int64_t day = 86'400'000;
  GameClock c = started(TimeControl{TimeControl::Kind::Correspondence, 3 * day, 0});
  c.start(Side::First, 0);
  EXPECT_EQ(c.flag_deadline(), 3 * day);  // no grace
  c.act(Side::First, 2 * day, 5000, true);
  EXPECT_EQ(c.left(Side::First), 3 * day);
  EXPECT_EQ(bc::server::time_control_text(c.control()), "3d");
}

TEST(Clock, StopChargesTheRunningTurnAndResumeForgivesTheDowntime) {
  GameClock c = started(fischer(300, 3));
  c.start(Side::First, 0);
  c.stop(10'000);
  EXPECT_EQ(c.left(Side::First), 290'000);
  EXPECT_EQ(c.running(), std::nullopt);

  GameClock r(fischer(300, 3), 30'000);
  r.resume({123'000, 45'000}, 7, Side::Second);
  EXPECT_TRUE(r.timed());
  EXPECT_EQ(r.running(), Side::Second);
  EXPECT_EQ(r.flag_deadline(), std::nullopt);  // until the restarted room sends its state
  r.start(Side::Second, 1'000'000);
  EXPECT_EQ(r.left(Side::Second, 1'010'000), 35'000);
}

TEST(Clock, ATakebackTakesTheUndoneTurnsIncrementsBackButNotTheTimeSpent) {
  GameClock c = started(fischer(60, 180));  // two untimed turns played: fire to move, 60 s each
  c.start(Side::First, 0);
  c.act(Side::First, 5'000, 0, true);  // fire: 5 s, +180 s
  c.start(Side::Second, 5'000);
  c.act(Side::Second, 7'000, 0, true);  // water: 2 s, +180 s
  ASSERT_EQ(c.left(Side::First), 235'000);
  ASSERT_EQ(c.left(Side::Second), 238'000);
  c.start(Side::First, 7'000);
  // Both turns undone at 8 s, fire to move after the 2 first turns: the increments go, the time
  // spent stays spent (fire's running second too).
  c.take_back(Side::First, 2, 8'000);
  EXPECT_EQ(c.left(Side::First), 54'000);
  EXPECT_EQ(c.left(Side::Second), 58'000);
  EXPECT_EQ(c.turns(), 2);
  EXPECT_EQ(c.running(), Side::First);
  // Twenty act+takeback cycles mint nothing.
  for (int i = 0; i < 20; ++i) {
    c.start(Side::First, 8'000);
    c.act(Side::First, 8'000, 0, true);
    c.start(Side::Second, 8'000);
    c.act(Side::Second, 8'000, 0, true);
    c.take_back(Side::First, 2, 8'000);
  }
  EXPECT_EQ(c.left(Side::First), 54'000);
  EXPECT_EQ(c.left(Side::Second), 58'000);
}

TEST(Clock, ATakebackToTheFirstTurnsStopsTheClocksAsAtTheStart) {
  GameClock c = started(fischer(60, 3));
  c.take_back(Side::First, 0, 1'000);  // the untimed first turns earned nothing to take back
  EXPECT_FALSE(c.timed());
  EXPECT_EQ(c.left(Side::First), 60'000);
  EXPECT_EQ(c.left(Side::Second), 60'000);
  c.start(Side::First, 1'000);
  EXPECT_EQ(c.abort_deadline(), 31'000) << "the first turn must come in time again";
}

TEST(Clock, ControlsAreWrittenAsPlayersWriteThem) {
  using bc::server::time_control_text;
  EXPECT_EQ(time_control_text(fischer(300, 3)), "5+3");
  EXPECT_EQ(time_control_text(fischer(90, 0)), "1.5+0");
  EXPECT_EQ(time_control_text(fischer(2, 1)), "2s+1");
  EXPECT_EQ(time_control_text(TimeControl{TimeControl::Kind::Fischer, 300'000, 500}), "5+0.5");
  EXPECT_EQ(time_control_text(TimeControl{TimeControl::Kind::Correspondence, 86'400'000, 0}), "1d");
}

}  // namespace
