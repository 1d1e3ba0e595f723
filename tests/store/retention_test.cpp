// Retention (docs/PROTOCOL.md, "Retention"), over every backend (backends.hpp): what is due goes,
// a room in play never does, in pages past the kept ones; and for SQLite, the space given back to
// the file (PostgreSQL's VACUUM: pg_store_test.cpp).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "backends.hpp"

using namespace bc::store;
using namespace bc::store::test;

class RetentionTest : public Backends {};
BC_EVERY_BACKEND(RetentionTest);

namespace {

constexpr std::int64_t kHour = 60LL * 60 * 1000;
constexpr std::int64_t kDay = 24 * kHour;

// A retired room whose one game has `moves` actions (the last at 2000 + moves) and, if `finished`,
// ended at 10000.
void retired_room(Store& s, const std::string& id, int moves, bool finished) {
  s.submit(new_room(id));
  std::vector<Write> w;
  for (int v = 1; v <= moves; ++v) w.push_back(action(id, v, (v - 1) % 2));
  if (finished) w.push_back(PutGame{{id, 1, R"({"winner":"x"})", 1000, 10000, ""}});
  w.push_back(RetireRoom{id});
  s.submit(std::move(w));
  s.flush();
}

}  // namespace

TEST_P(RetentionTest, UnstartedGamesOfRetiredRoomsGoAnHourAfterTheRoomsLastSignOfLife) {
  auto s = open_scratch();
  retired_room(*s, "empty", 0, false);
  s->submit(new_room("live"));  // in play: never pruned, however old
  s->flush();
  Retention keep;
  EXPECT_EQ(s->prune(keep, 1000 + kHour - 1).rooms, 0u);
  EXPECT_TRUE(s->has_room("empty"));
  const Pruned p = s->prune(keep, 1000 + kHour + 1);
  EXPECT_EQ(p.rooms, 1u);
  EXPECT_EQ(p.games, 1u);
  EXPECT_EQ(p.actions, 0u);
  EXPECT_FALSE(s->has_room("empty"));
  EXPECT_TRUE(s->has_room("live"));
  EXPECT_EQ(s->measure().rooms, 1u);
}

TEST_P(RetentionTest, AGameResignedBeforeAnyMoveCountsAsUnstarted) {
  auto s = open_scratch();
  retired_room(*s, "resigned", 0, true);
  EXPECT_EQ(s->prune(Retention{}, 10000 + kHour + 1).rooms, 1u);
  EXPECT_FALSE(s->has_room("resigned"));
}

TEST_P(RetentionTest, AbandonedGamesGoAWeekAfterTheirLastMove) {
  auto s = open_scratch();
  retired_room(*s, "left", 6, false);  // last move at 2006
  Retention keep;
  EXPECT_EQ(s->prune(keep, 2006 + 7 * kDay - 1).games, 0u);
  ASSERT_EQ(s->actions("left", 1).size(), 6u);
  const Pruned p = s->prune(keep, 2006 + 7 * kDay + 1);
  EXPECT_EQ(p.actions, 6u);
  EXPECT_EQ(p.rooms, 1u);
  EXPECT_FALSE(s->has_room("left"));
  EXPECT_TRUE(s->actions("left", 1).empty());
}

TEST_P(RetentionTest, FinishedGamesAreKeptForEverUnlessAnAgeIsSet) {
  auto s = open_scratch();
  retired_room(*s, "done", 4, true);  // ended at 10000
  EXPECT_EQ(s->prune(Retention{}, 10000 + 3650 * kDay).games, 0u);
  EXPECT_TRUE(s->has_room("done"));
  Retention month;
  month.finished_ms = 30 * kDay;
  EXPECT_EQ(s->prune(month, 10000 + 30 * kDay - 1).games, 0u);
  const Pruned p = s->prune(month, 10000 + 30 * kDay + 1);
  EXPECT_EQ(p.games, 1u);
  EXPECT_EQ(p.actions, 4u);
  EXPECT_FALSE(s->has_room("done"));
}

TEST_P(RetentionTest, ARoomInPlayIsNeverPruned) {
  auto s = open_scratch();
  s->submit(new_room("old"));
  s->submit({action("old", 1)});
  s->flush();
  Retention all;
  all.unstarted_ms = all.abandoned_ms = all.finished_ms = 1;
  EXPECT_EQ(s->prune(all, 100 * 3650 * kDay).actions, 0u);
  EXPECT_EQ(s->actions("old", 1).size(), 1u);
}

TEST_P(RetentionTest, ARematchKeepsItsFinishedGameWhenTheAbandonedOneGoes) {
  auto s = open_scratch();
  s->submit(new_room("series"));
  s->submit({action("series", 1), action("series", 2, 1),
             PutGame{{"series", 1, R"({"winner":"o"})", 1000, 3000, ""}},
             PutGame{{"series", 2, "", 4000, 0, ""}},
             AppendAction{{"series", 2, 1, 0, R"({"kind":"step"})", 5000}}, RetireRoom{"series"}});
  s->flush();
  const Pruned p = s->prune(Retention{}, 5000 + 8 * kDay);
  EXPECT_EQ(p.games, 1u);
  EXPECT_EQ(p.actions, 1u);
  EXPECT_EQ(p.rooms, 0u);
  auto loaded = s->load_room("series", 1);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->games.size(), 1u);
  EXPECT_EQ(loaded->games[0].game_no, 1);
  EXPECT_EQ(loaded->actions.size(), 2u);
}

// A pruned game's rated_games rows go with it (both players'); the rated rows of kept games, of a
// room in play, and every player, session and rating stay.
TEST_P(RetentionTest, PruningAGameDeletesItsRatedGamesRowsAndNoPlayersRow) {
  auto s = open_scratch();
  retired_room(*s, "done", 4, true);  // ended at 10000
  s->submit(new_room("live"));
  s->submit({PutGame{{"live", 1, R"({"winner":"x"})", 1000, 10000, ""}}});
  const auto rated = [](const std::string& player, const std::string& room, std::int64_t ended) {
    return PutRatedGame{{player, room, 1, "bomb", ended, 0, "other", 2, 1500, 1510, 200}};
  };
  s->submit({PutPlayer{{"p1", "Ann", "ann", "hash", 1}}, PutPlayer{{"p2", "Bob", "bob", "hash", 1}},
             PutSession{{"h1", "p1", 1, 1, ""}}, PutRating{{"p1", "bomb", 1510, 200, 0.06, 10000}},
             rated("p1", "done", 10000), rated("p2", "done", 10000), rated("p1", "live", 10000),
             PutRatedGame{{"p1", "done", 2, "bomb", 10000, 0, "p2", 1, 1500, 1500, 200}}});
  s->flush();
  ASSERT_EQ(s->rated_games("p1", "", 10).size(), 3u);
  Retention month;
  month.finished_ms = 30 * kDay;
  EXPECT_EQ(s->prune(month, 10000 + 30 * kDay - 1).games, 0u);
  EXPECT_EQ(s->rated_games("p1", "", 10).size(), 3u) << "a kept game keeps its rated rows";
  const Pruned p = s->prune(month, 10000 + 30 * kDay + 1);
  EXPECT_EQ(p.games, 1u);
  EXPECT_FALSE(s->has_room("done"));
  const auto left = s->rated_games("p1", "", 10);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0].room, "live") << "a room in play keeps its rated rows";
  EXPECT_EQ(left[1].game_no, 2) << "rows of the room's other game numbers are not the game's";
  EXPECT_TRUE(s->rated_games("p2", "", 10).empty());
  EXPECT_TRUE(s->player("p1"));
  EXPECT_TRUE(s->player("p2"));
  EXPECT_TRUE(s->session("h1"));
  EXPECT_EQ(s->ratings("p1").size(), 1u);
}

TEST(Retention, PruningGivesTheSpaceBackToTheFile) {
  TempDir dir;
  auto s = must_open(dir.db());
  fill_retired_rooms(*s);
  const Size full = s->measure();
  EXPECT_EQ(full.actions, 300u * 40);
  EXPECT_GT(full.page_bytes, 300u * 40 * 200);
  const Pruned p = s->prune(Retention{}, 2040 + 8 * kDay);
  EXPECT_EQ(p.rooms, 300u);
  EXPECT_EQ(p.actions, 300u * 40);
  const Size after = s->measure();
  EXPECT_EQ(after.rooms, 0u);
  EXPECT_EQ(after.free_bytes, 0u);
  EXPECT_LT(after.page_bytes * 10, full.page_bytes)
      << full.page_bytes << " -> " << after.page_bytes;
  EXPECT_EQ(s->stats().pruned.actions, 300u * 40);
  s.reset();
  EXPECT_LT(fs::file_size(dir.db()) * 10, full.page_bytes);
}

TEST(Retention, CompactShrinksAFileMadeWithoutIncrementalVacuum) {
  TempDir dir;
  {  // a database as stores before retention made it: no incremental vacuum
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir.db().c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE t(x)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  auto s = must_open(dir.db());
  const std::string text(500, 'b');
  for (int r = 0; r < 100; ++r) {
    const std::string id = "r" + std::to_string(r);
    std::vector<Write> w = new_room(id);
    for (int v = 1; v <= 20; ++v) w.push_back(AppendAction{{id, 1, v, v % 2, text, 2000 + v}});
    w.push_back(RetireRoom{id});
    s->submit(std::move(w));
  }
  s->flush();
  const Size full = s->measure();
  s->prune(Retention{}, 2020 + 8 * kDay);
  const Size pruned = s->measure();
  EXPECT_EQ(pruned.page_bytes, full.page_bytes) << "no incremental vacuum: the pages stay";
  EXPECT_GT(pruned.free_bytes, 100u * 20 * 500);
  std::string error;
  ASSERT_TRUE(s->compact(error)) << error;
  const Size compacted = s->measure();
  EXPECT_EQ(compacted.free_bytes, 0u);
  EXPECT_LT(compacted.page_bytes * 10, full.page_bytes);
  EXPECT_EQ(compacted.rooms, 0u);
}

TEST_P(RetentionTest, TheMaintenanceThreadPrunesAtOnceAndThenNowAndThen) {
  auto s = open_scratch();
  retired_room(*s, "gone", 0, false);
  std::atomic<std::int64_t> now{1000};
  s->maintain(Retention{}, std::chrono::milliseconds(20), [&] { return now.load(); });
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (s->stats().prunes < 2 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(s->has_room("gone")) << "not yet an hour";
  now = 1000 + kHour + 1;
  // A pass may be under way with the old time: wait for the deletion and the measure after it.
  while ((s->has_room("gone") || s->stats().size.rooms != 0) &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(s->has_room("gone"));
  EXPECT_EQ(s->stats().size.rooms, 0u);
}

TEST_P(RetentionTest, ARoomWhoseNewestGamesWentShowsTheNewestGameKept) {
  auto s = open_scratch();
  s->submit(new_room("series"));
  s->submit({action("series", 1), PutGame{{"series", 1, R"({"winner":"x"})", 1000, 3000, ""}},
             PutGame{{"series", 2, "", 4000, 0, ""}}, RetireRoom{"series"}});
  s->flush();
  ASSERT_EQ(s->load_room("series")->room.game_no, 2);
  EXPECT_EQ(s->prune(Retention{}, 4000 + kHour + 1).games, 1u) << "game 2: nobody moved";
  auto loaded = s->load_room("series");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->room.game_no, 1) << "the record of the room is its finished game";
  EXPECT_EQ(loaded->actions.size(), 1u);
}

TEST_P(RetentionTest, ManyRoomsArePrunedPastTheKeptOnesInPages) {
  auto s = open_scratch();
  // More than one lookup's worth (512) of due games, interleaved with kept finished ones.
  for (int r = 0; r < 1200; ++r) {
    const std::string id = "r" + std::to_string(r);
    s->submit(new_room(id));
    if (r % 3 == 0) {
      s->submit({action(id, 1), PutGame{{id, 1, R"({"winner":"x"})", 1000, 3000, ""}}});
    }
    s->submit({RetireRoom{id}});
  }
  s->flush();
  std::vector<Pruned> seen;
  const Pruned p = s->prune(Retention{}, 3000 + kHour + 1,
                            [&](const Pruned& deleted) { seen.push_back(deleted); });
  EXPECT_EQ(p.rooms, 800u);
  EXPECT_EQ(p.games, 800u);
  ASSERT_EQ(seen.size(), 1u) << "told once, with the totals";
  EXPECT_EQ(seen[0].rooms, 800u);
  EXPECT_EQ(s->measure().rooms, 400u);
  EXPECT_TRUE(s->has_room("r0"));
  EXPECT_FALSE(s->has_room("r1"));
  EXPECT_TRUE(s->has_room("r1197"));
  EXPECT_EQ(s->prune(Retention{}, 3000 + kHour + 1).rooms, 0u) << "nothing left to do";
  EXPECT_EQ(s->stats().prune_failures, 0u);
}
