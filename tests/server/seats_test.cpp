// A room's seats and members (Seats) and its clocks as shown (RoomClock), apart from the room's
// requests: tokens, one-screen seats, who takes deltas, chat budgets, clock views and presence.
#include "server/room/seats.hpp"

#include <gtest/gtest.h>

#include "bc/store.hpp"
#include "server/room/room_clock.hpp"

namespace bc::server {
namespace {

constexpr MemberId kAnn = 1, kBob = 2, kCy = 3, kDee = 4;

Member spectator(std::string address = "10.0.0.1") {
  return Member{"watcher", std::nullopt, false, std::move(address), std::nullopt};
}

TEST(Seats, ATokenIsKeptOnlyAsItsHashAndFindsItsSeat) {
  FakeTime time;
  Seats seats(&time);
  seats.sit(Side::First, "Ann", "secret-a", kAnn);
  seats.sit(Side::Second, "Bob", "secret-b", kBob);
  EXPECT_EQ(seats[Side::First]->token_hash, store::sha256_hex("secret-a"));
  EXPECT_EQ(seats.stored(Side::First)->token_hash, store::sha256_hex("secret-a"));
  EXPECT_EQ(seats.held_by("secret-b"), std::vector<Side>{Side::Second});
  EXPECT_TRUE(seats.held_by("secret-").empty());
  EXPECT_TRUE(seats.held_by("").empty());
}

TEST(Seats, OneTokenHoldsBothSeatsAtOneScreenAndLeavingNeverFreesThem) {
  FakeTime time;
  Seats seats(&time);
  seats.sit(Side::First, "Ann", "one", kAnn);
  seats.sit(Side::Second, "Bob", "one", kAnn);
  seats.admit(kAnn, Member{"Ann", Side::First, false, "", std::nullopt});
  EXPECT_EQ(seats.held_by("one"), (std::vector<Side>{Side::First, Side::Second}));
  EXPECT_EQ(seats.remove(kAnn, /*free_seat=*/true, /*one_screen=*/true), std::nullopt);
  ASSERT_TRUE(seats[Side::First] && seats[Side::Second]);
  EXPECT_FALSE(seats[Side::First]->conn);
  EXPECT_FALSE(seats[Side::Second]->conn);
  EXPECT_EQ(seats[Side::Second]->away_since, time.steady_ms());
  EXPECT_EQ(seats.connected_players(), 0u);
}

TEST(Seats, LeavingFreesTheSeatOnlyWhenAskedAndMarksItAway) {
  FakeTime time;
  Seats seats(&time);
  seats.sit(Side::First, "Ann", "a", kAnn);
  seats.admit(kAnn, Member{"Ann", Side::First, false, "", std::nullopt});
  EXPECT_EQ(seats.remove(kAnn, false, false), std::nullopt);
  ASSERT_TRUE(seats[Side::First]);
  EXPECT_EQ(seats[Side::First]->away_since, time.steady_ms());
  time.advance(5'000);
  seats.hand_over({Side::First}, kBob, "a");
  seats.admit(kBob, Member{"Ann", Side::First, false, "", std::nullopt});
  EXPECT_FALSE(seats[Side::First]->away_since);
  EXPECT_EQ(seats[Side::First]->conn, kBob);
  EXPECT_EQ(seats.remove(kBob, true, false), Side::First);
  EXPECT_FALSE(seats[Side::First]);
}

TEST(Seats, DeltasGoOnlyToCompactMembersHoldingTheLastStateByActionForm) {
  FakeTime time;
  Seats seats(&time);
  for (MemberId m : {kDee, kAnn, kCy, kBob}) seats.admit(m, spectator());
  seats.set_form(kDee, StateForm::ShortDelta);
  seats.set_form(kAnn, StateForm::Delta);
  seats.set_form(kBob, StateForm::ShortDelta);
  seats.set_form(kCy, StateForm::Full);             // full changes nothing
  EXPECT_TRUE(seats.current_compact()[0].empty());  // nobody holds a state yet
  seats.mark_all_current();
  const auto current = seats.current_compact();
  EXPECT_EQ(current[0], std::vector<MemberId>{kAnn});
  EXPECT_EQ(current[1], (std::vector<MemberId>{kBob, kDee}));  // sorted
  seats.set_form(kBob, StateForm::Delta);                      // asks again, for objects
  seats.forget_form(kDee);
  EXPECT_EQ(seats.current_compact()[0], (std::vector<MemberId>{kAnn, kBob}));
  EXPECT_TRUE(seats.current_compact()[1].empty());
  seats.mark_current(kAnn, false);
  EXPECT_EQ(seats.catch_up(), std::vector<MemberId>{kAnn});
  EXPECT_TRUE(seats.catch_up().empty());
}

TEST(Seats, SpectatorsShareOneChatBudgetThatNeverTakesThePlayers) {
  FakeTime time;
  Seats seats(&time);
  Limits limits;
  limits.chat_per_second = 100;
  limits.chat_burst = 100;
  limits.spectator_chat_per_second = 0.001;
  limits.spectator_chat_burst = 2;
  seats.sit(Side::First, "Ann", "a", kAnn);
  seats.admit(kAnn, Member{"Ann", Side::First, false, "", std::nullopt});
  seats.admit(kBob, spectator());
  seats.admit(kCy, spectator());
  EXPECT_EQ(seats.take_chat(kBob, limits), std::nullopt);
  EXPECT_EQ(seats.take_chat(kCy, limits), std::nullopt);
  EXPECT_EQ(seats.take_chat(kBob, limits), Limited::SpectatorChat);
  EXPECT_EQ(seats.take_chat(kCy, limits), Limited::SpectatorChat);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(seats.take_chat(kAnn, limits), std::nullopt);
}

TEST(Seats, SpectatorsFromAnAddressCountOthersWatchingFromIt) {
  FakeTime time;
  Seats seats(&time);
  seats.admit(kAnn, spectator("10.0.0.1"));
  seats.admit(kBob, spectator("10.0.0.1"));
  seats.admit(kCy, spectator("10.0.0.2"));
  seats.sit(Side::First, "Dee", "d", kDee);
  seats.admit(kDee, Member{"Dee", Side::First, false, "10.0.0.1", std::nullopt});
  EXPECT_EQ(seats.spectators_from("10.0.0.1", kAnn), 1u);
  EXPECT_EQ(seats.spectators_from("10.0.0.1", 99), 2u);
  EXPECT_EQ(seats.spectator_count(), 3);
}

TEST(Seats, ARematchSwapsSeatsAndSidesButNotAOneScreenConnection) {
  FakeTime time;
  Seats seats(&time);
  seats.sit(Side::First, "Ann", "a", kAnn);
  seats.sit(Side::Second, "Bob", "b", kBob);
  seats.admit(kAnn, Member{"Ann", Side::First, false, "", std::nullopt});
  seats.admit(kBob, Member{"Bob", Side::Second, false, "", std::nullopt});
  seats.swap_sides(false);
  EXPECT_EQ(seats[Side::First]->name, "Bob");
  EXPECT_EQ(seats.seat_of(kAnn), Side::Second);
  EXPECT_EQ(seats.held_by("a"), std::vector<Side>{Side::Second});
  seats.swap_sides(true);
  EXPECT_EQ(seats[Side::First]->name, "Ann");
  EXPECT_EQ(seats.seat_of(kAnn), Side::Second);  // one screen: its connection stays put
}

TEST(Seats, RestoredSeatsAreAwayAndComputerSeatsKeepTheirLevel) {
  FakeTime time;
  Seats seats(&time);
  seats.restore({StoredSeat{"Ann", store::sha256_hex("a")}, StoredSeat{"Computer", "ai:3"}});
  ASSERT_TRUE(seats[Side::First] && seats[Side::Second]);
  EXPECT_EQ(seats[Side::First]->away_since, time.steady_ms());
  EXPECT_FALSE(seats[Side::First]->ai);
  EXPECT_EQ(seats[Side::Second]->ai, 3);
  EXPECT_TRUE(seats.has_computer());
  EXPECT_EQ(seats.held_by("a"), std::vector<Side>{Side::First});
  EXPECT_TRUE(seats.held_by("ai:3").empty());  // a marker is no token
}

TimeControl blitz() {
  TimeControl tc;
  tc.base_ms = 180'000;
  tc.increment_ms = 2'000;
  return tc;
}

TEST(RoomClock, AViewIsMadeOncePerPositionSoEveryCopyOfAStateIsTheSame) {
  FakeTime time;
  RoomClock clock(Limits{}, &time);
  EXPECT_EQ(clock.view({1, 0, RoomStatus::Playing}), nullptr);  // untimed
  clock.reset(blitz(), Side::First);
  const ClockView* first = clock.view({1, 0, RoomStatus::Playing});
  ASSERT_NE(first, nullptr);
  const std::int64_t at = first->at;
  time.advance(1'500);
  EXPECT_EQ(clock.view({1, 0, RoomStatus::Playing})->at, at);
  EXPECT_EQ(clock.view({1, 1, RoomStatus::Playing})->at, at + 1'500);
}

TEST(RoomClock, PresenceIsDueWhenALagMovesTwentyMsAndNotMoreOftenThanTheLimit) {
  FakeTime time;
  Limits limits;
  limits.presence_every = std::chrono::milliseconds(2'000);
  RoomClock clock(limits, &time);
  Seats seats(&time);
  seats.sit(Side::First, "Ann", "a", kAnn);
  EXPECT_EQ(clock.presence_due(seats), std::nullopt);  // nothing reported yet
  seats[Side::First]->lag = 100;
  time.advance(2'000);
  auto shown = clock.presence_due(seats);
  ASSERT_TRUE(shown);
  EXPECT_EQ((*shown)[0], 100);
  seats[Side::First]->lag = 150;
  time.advance(500);
  EXPECT_EQ(clock.presence_due(seats), std::nullopt);  // too soon
  time.advance(1'500);
  seats[Side::First]->lag = 110;
  EXPECT_EQ(clock.presence_due(seats), std::nullopt);  // moved less than 20 ms from 100
  seats[Side::First]->lag = 121;
  EXPECT_EQ((*clock.presence_due(seats))[0], 121);
}

TEST(RoomClock, ClaimGraceFollowsTheTimeControlUnlessServeSetsIt) {
  FakeTime time;
  RoomClock clock(Limits{}, &time);
  clock.reset(blitz(), Side::First);  // 3 + 2: about 4 min 40 s a game
  EXPECT_EQ(clock.claim_grace_ms(), 20'000);
  Limits set;
  set.claim_after = std::chrono::milliseconds(7'000);
  RoomClock fixed(set, &time);
  fixed.reset(blitz(), Side::First);
  EXPECT_EQ(fixed.claim_grace_ms(), 7'000);
}

}  // namespace
}  // namespace bc::server
