// The store, over every backend (backends.hpp): rows round-trip, a failed submission changes
// nothing; over the two databases, group commit, durability across reopening; and for SQLite, its
// in-memory mode, its schema upgrade and clear errors for unusable or damaged files. PostgreSQL's
// own: pg_store_test.cpp.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include "backends.hpp"

using namespace bc::store;
using namespace bc::store::test;

class StoreTest : public Backends {};
BC_EVERY_BACKEND(StoreTest);
class DurableStoreTest : public Backends {};
BC_DATABASE_BACKENDS(DurableStoreTest);

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_P(StoreTest, RoomsSeatsGamesAndActionsRoundTrip) {
  auto store = open();
  store->submit(new_room("ABCDEF"));
  store->submit({action("ABCDEF", 1), action("ABCDEF", 2, 1)});
  store->flush();
  auto rooms = store->load_active_rooms();
  ASSERT_EQ(rooms.size(), 1u);
  EXPECT_EQ(rooms[0].room.id, "ABCDEF");
  EXPECT_EQ(rooms[0].room.setup, R"({"variant":"bomb"})");
  ASSERT_EQ(rooms[0].seats.size(), 1u);
  EXPECT_EQ(rooms[0].seats[0].name, "Ross");
  EXPECT_EQ(rooms[0].seats[0].token_hash, sha256_hex("token-0"));
  ASSERT_EQ(rooms[0].actions.size(), 2u);
  EXPECT_EQ(rooms[0].actions[0].version, 1);
  EXPECT_EQ(rooms[0].actions[1].side, 1);
}

// Issue 13.6: readers have connections of their own. Another connection holds what the writer
// needs (SQLite: the write lock, so the writer waits in BEGIN IMMEDIATE up to its 5 s busy
// timeout; PostgreSQL: a lock on the actions table, so its insert waits), and the writer waits
// holding its connection: reads must still answer at once (they waited behind the writer when
// they shared it).
TEST_P(DurableStoreTest, ReadsDoNotWaitForTheWriter) {
  auto store = must_open(where());
  store->submit(new_room("ABCDEF"));
  store->flush();
  auto blocker = block_writes();
  std::atomic<bool> written{false};
  store->submit({action("ABCDEF", 1)}, [&](bool ok) { written = ok; });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the writer is in BEGIN by now
  auto read = std::async(std::launch::async, [&] {
    return std::make_pair(store->has_room("ABCDEF"), store->load_room("ABCDEF"));
  });
  const bool answered = read.wait_for(std::chrono::seconds(3)) == std::future_status::ready;
  EXPECT_TRUE(answered) << "a read waited for the writer";
  EXPECT_FALSE(written.load());
  blocker.reset();
  auto [has, room] = read.get();
  EXPECT_TRUE(has);
  ASSERT_TRUE(room);
  EXPECT_TRUE(room->actions.empty()) << "a read sees committed rows only";
  store->flush();
  EXPECT_TRUE(written.load());
  EXPECT_EQ(store->load_room("ABCDEF")->actions.size(), 1u);
  EXPECT_FALSE(store->has_room("ZZZZZZ"));
}

TEST_P(StoreTest, CallbackRunsAfterCommitAndSeesTheRow) {
  auto store = open();
  store->submit(new_room("R1"));
  std::atomic<int> ok{-1};
  store->submit({action("R1", 1)}, [&](bool committed) { ok = committed ? 1 : 0; });
  store->flush();
  EXPECT_EQ(ok.load(), 1);
  EXPECT_EQ(store->actions("R1", 1).size(), 1u);
}

TEST_P(StoreTest, AFailedSubmissionDoesNotTakeOthersInItsBatchDown) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({action("R1", 1)});
  store->flush();
  std::atomic<int> dup{-1};
  std::atomic<int> good{-1};
  // Queue both before the writer wakes: the duplicate version fails, the next one must not.
  store->submit({action("R1", 1)}, [&](bool committed) { dup = committed ? 1 : 0; });
  store->submit({action("R1", 2)}, [&](bool committed) { good = committed ? 1 : 0; });
  store->flush();
  EXPECT_EQ(dup.load(), 0);
  EXPECT_EQ(good.load(), 1);
  EXPECT_EQ(store->actions("R1", 1).size(), 2u);
  EXPECT_GE(store->stats().failures, 1u);
}

TEST_P(StoreTest, AFailedSubmissionChangesNothing) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({action("R1", 1)});
  store->flush();
  int ok = -1;
  // A new room, a seat freed, a game ended and the room retired, then a duplicate version: all
  // of it or nothing.
  store->submit({PutRoom{{"R2", R"({"variant":"classic"})", 5000, 1, false}}, FreeSeat{"R1", 0},
                 PutGame{{"R1", 1, R"({"winner":"fire"})", 1000, 6000, ""}}, action("R1", 2),
                 RetireRoom{"R1"}, action("R1", 1)},
                [&](bool committed) { ok = committed ? 1 : 0; });
  store->flush();
  EXPECT_EQ(ok, 0);
  EXPECT_FALSE(store->has_room("R2"));
  const auto room = store->load_room("R1");
  ASSERT_TRUE(room);
  EXPECT_FALSE(room->room.retired);
  EXPECT_EQ(room->seats.size(), 1u);
  ASSERT_EQ(room->games.size(), 1u);
  EXPECT_EQ(room->games[0].result, "");
  EXPECT_EQ(room->actions.size(), 1u);
}

TEST_P(StoreTest, ActionsComeBackInVersionOrderWithTheirClocks) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({AppendAction{
      {"R1", 1, 2, 1, R"({"kind":"b"})", 2002, std::array<std::int64_t, 2>{59000, 58000}}}});
  store->submit({AppendAction{{"R1", 1, 1, 0, R"({"kind":"a"})", 2001,
                               std::array<std::int64_t, 2>{60000, 58000}}},
                 AppendAction{{"R1", 1, 3, 0, R"({"kind":"c"})", 2003}}});
  store->flush();
  const auto actions = store->actions("R1", 1);
  ASSERT_EQ(actions.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(actions[i].version, static_cast<int>(i) + 1);
  EXPECT_EQ(actions[0].action, R"({"kind":"a"})");
  ASSERT_TRUE(actions[0].left_ms);
  EXPECT_EQ((*actions[0].left_ms)[0], 60000);
  ASSERT_TRUE(actions[1].left_ms);
  EXPECT_EQ((*actions[1].left_ms)[1], 58000);
  EXPECT_FALSE(actions[2].left_ms);
  EXPECT_EQ(actions[2].at_ms, 2003);
  EXPECT_TRUE(store->actions("R1", 2).empty());
  EXPECT_TRUE(store->actions("nope", 1).empty());
}

TEST_P(StoreTest, RecentRoomsAreTheNewestFirst) {
  auto store = open();
  for (int r = 0; r < 5; ++r) {
    store->submit({PutRoom{{"R" + std::to_string(r), "{}", 1000 + r, 1, r % 2 == 1}}});
  }
  store->flush();
  const auto rooms = store->recent_rooms(3);
  ASSERT_EQ(rooms.size(), 3u);
  EXPECT_EQ(rooms[0].id, "R4");
  EXPECT_EQ(rooms[1].id, "R3");
  EXPECT_TRUE(rooms[1].retired);
  EXPECT_EQ(rooms[2].id, "R2");
  const auto active = store->load_active_rooms();
  ASSERT_EQ(active.size(), 3u);
  EXPECT_EQ(active[0].room.id, "R0");
  EXPECT_EQ(active[2].room.id, "R4");
}

// SQLite's in-memory database, and the in-memory store of `serve --memory`.
TEST(Store, InMemoryWritesAreCommittedBeforeSubmitReturns) {
  std::vector<std::unique_ptr<Store>> stores;
  stores.push_back(must_open(":memory:"));
  stores.push_back(Store::open_memory());
  for (auto& store : stores) {
    SCOPED_TRACE(store->path());
    store->submit(new_room("R1"));
    int first = -1;
    store->submit({action("R1", 1)}, [&](bool committed) { first = committed ? 1 : 0; });
    EXPECT_EQ(first, 1);  // answered on this thread, at once: no writer thread to wait for
    int dup = -1;
    store->submit({action("R1", 1)}, [&](bool committed) { dup = committed ? 1 : 0; });
    EXPECT_EQ(dup, 0);
    int next = -1;
    store->submit({action("R1", 2)}, [&](bool committed) { next = committed ? 1 : 0; });
    EXPECT_EQ(next, 1);
    store->flush();  // nothing queued: returns at once
    EXPECT_EQ(store->actions("R1", 1).size(), 2u);
    EXPECT_EQ(store->stats().failures, 1u);
  }
}

TEST_P(DurableStoreTest, WritesSurviveReopening) {
  {
    auto store = must_open(where());
    store->submit(new_room("R1"));
    for (int v = 1; v <= 50; ++v) store->submit({action("R1", v, v % 2)});
    store->flush();
  }
  auto store = must_open(where());
  const auto room = store->load_room("R1");
  ASSERT_TRUE(room);
  EXPECT_EQ(room->actions.size(), 50u);
  EXPECT_EQ(room->actions.back().version, 50);
}

TEST_P(DurableStoreTest, TheClocksOfEachActionRoundTrip) {
  {
    auto store = must_open(where());
    store->submit(new_room("R1"));
    store->submit({action("R1", 1)});
    store->submit({AppendAction{{"R1", 1, 2, 1, R"({"kind":"step"})", 2002,
                                 std::array<std::int64_t, 2>{299'000, 301'500}}}});
    store->flush();
  }
  auto store = must_open(where());
  const auto room = store->load_room("R1");
  ASSERT_TRUE(room);
  ASSERT_EQ(room->actions.size(), 2u);
  EXPECT_EQ(room->actions[0].left_ms, std::nullopt);
  EXPECT_EQ(room->actions[1].left_ms, (std::array<std::int64_t, 2>{299'000, 301'500}));
}

// A database of a later server is refused and left as it is (SQLite's upgrade from schema 1:
// Store.ASchema1FileIsUpgradedToSchema2AndALaterOneIsRefused).
TEST_P(DurableStoreTest, ALaterSchemaIsRefusedUntouched) {
  {
    auto store = must_open(where());
    store->submit(new_room("R1"));
    store->flush();
  }
  raw("UPDATE meta SET value='3' WHERE key='schema'");
  std::string error;
  EXPECT_FALSE(Store::open(where(), error));
  EXPECT_NE(error.find("schema version 3"), std::string::npos) << error;
  EXPECT_EQ(raw("SELECT value FROM meta WHERE key='schema'"), "3");
  EXPECT_EQ(raw("SELECT count(*) FROM rooms"), "1");
}

// A file of the first schema (before clocks) is upgraded in place; one from a later server is
// refused, untouched.
TEST(Store, ASchema1FileIsUpgradedToSchema2AndALaterOneIsRefused) {
  TempDir dir;
  auto raw = [&](const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir.db().c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
  };
  raw(R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms(id TEXT PRIMARY KEY, setup TEXT NOT NULL, created_ms INTEGER NOT NULL,
  game_no INTEGER NOT NULL DEFAULT 1, retired INTEGER NOT NULL DEFAULT 0);
CREATE TABLE seats(room TEXT NOT NULL, side INTEGER NOT NULL, name TEXT NOT NULL,
  token_hash TEXT NOT NULL, PRIMARY KEY(room, side));
CREATE TABLE games(room TEXT NOT NULL, game_no INTEGER NOT NULL, result TEXT NOT NULL DEFAULT '',
  started_ms INTEGER NOT NULL, ended_ms INTEGER NOT NULL DEFAULT 0,
  players TEXT NOT NULL DEFAULT '', PRIMARY KEY(room, game_no));
CREATE TABLE actions(room TEXT NOT NULL, game_no INTEGER NOT NULL, version INTEGER NOT NULL,
  side INTEGER NOT NULL, action TEXT NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY(room, game_no, version));
INSERT INTO meta VALUES('schema', '1');
INSERT INTO rooms VALUES('OLD001', '{"variant":"bomb"}', 1000, 1, 0);
INSERT INTO games VALUES('OLD001', 1, '', 1000, 0, '');
INSERT INTO actions VALUES('OLD001', 1, 1, 0, '{"kind":"step"}', 1500);
)sql");
  {
    auto store = must_open(dir.db());
    ASSERT_TRUE(store);
    auto room = store->load_room("OLD001");
    ASSERT_TRUE(room);
    ASSERT_EQ(room->actions.size(), 1u);
    EXPECT_EQ(room->actions[0].left_ms, std::nullopt);
    store->submit({AppendAction{
        {"OLD001", 1, 2, 1, R"({"kind":"step"})", 1600, std::array<std::int64_t, 2>{1, 2}}}});
    store->flush();
    EXPECT_EQ(store->load_room("OLD001")->actions[1].left_ms, (std::array<std::int64_t, 2>{1, 2}));
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir.db().c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key='schema'", -1, &st, nullptr);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "2");
    sqlite3_finalize(st);
    sqlite3_close(db);
  }
  raw("UPDATE meta SET value='3' WHERE key='schema'");
  std::string error;
  EXPECT_FALSE(Store::open(dir.db(), error));
  EXPECT_NE(error.find("schema version 3"), std::string::npos) << error;
}

TEST_P(DurableStoreTest, ManyRoomsShareCommits) {
  auto store = must_open(where());
  constexpr int kRooms = 40;
  constexpr int kActions = 25;
  for (int r = 0; r < kRooms; ++r) store->submit(new_room("R" + std::to_string(r)));
  std::vector<std::thread> threads;
  std::atomic<int> committed{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int r = t; r < kRooms; r += 4) {
        for (int v = 1; v <= kActions; ++v) {
          store->submit({action("R" + std::to_string(r), v)}, [&](bool ok) { committed += ok; });
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  store->flush();
  EXPECT_EQ(committed.load(), kRooms * kActions);
  const Stats st = store->stats();
  // Grouping is the point: far fewer commits than submissions (each submission is one fsync
  // otherwise). Not a timing assertion: with 4 producers the queue always holds several.
  EXPECT_LT(st.commits, static_cast<std::uint64_t>(kRooms * kActions + kRooms));
  EXPECT_EQ(store->load_active_rooms().size(), static_cast<std::size_t>(kRooms));
}

TEST_P(StoreTest, RetiredRoomsAreNotActiveButStayReadable) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({action("R1", 1), PutGame{{"R1", 1, R"({"winner":"fire"})", 1000, 3000, ""}},
                 RetireRoom{"R1"}});
  store->flush();
  EXPECT_TRUE(store->load_active_rooms().empty());
  const auto room = store->load_room("R1");
  ASSERT_TRUE(room);
  EXPECT_TRUE(room->room.retired);
  ASSERT_EQ(room->games.size(), 1u);
  EXPECT_EQ(room->games[0].result, R"({"winner":"fire"})");
  EXPECT_EQ(store->recent_rooms(10).size(), 1u);
}

TEST_P(StoreTest, RematchGamesKeepTheirOwnActions) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({action("R1", 1), PutGame{{"R1", 1, R"({"winner":null})", 1000, 2000, ""}},
                 PutGame{{"R1", 2, "", 2500, 0, ""}},
                 AppendAction{{"R1", 2, 1, 1, R"({"kind":"jump"})", 2600}}});
  store->flush();
  const auto room = store->load_room("R1");
  ASSERT_TRUE(room);
  EXPECT_EQ(room->room.game_no, 2);
  EXPECT_EQ(room->games.size(), 2u);
  ASSERT_EQ(room->actions.size(), 1u);
  EXPECT_EQ(room->actions[0].action, R"({"kind":"jump"})");
  EXPECT_EQ(store->load_room("R1", 1)->actions.size(), 1u);
}

TEST_P(StoreTest, DropGameRemovesTheGameAndItsActionsOnly) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({action("R1", 1), PutGame{{"R1", 1, R"({"winner":"fire"})", 1000, 2000, ""}},
                 PutGame{{"R1", 2, R"({"winner":"water"})", 2500, 2600, ""}},
                 AppendAction{{"R1", 2, -1, 0, R"({"kind":"hint","version":0})", 2550}},
                 PutGame{{"R1", 3, "", 2700, 0, ""}}});
  store->submit({DropGame{"R1", 2}});
  store->flush();
  const auto room = store->load_room("R1");
  ASSERT_TRUE(room);
  EXPECT_EQ(room->room.game_no, 3) << "the room's game number stays";
  EXPECT_EQ(room->games.size(), 2u);
  for (const auto& g : room->games) EXPECT_NE(g.game_no, 2);
  EXPECT_EQ(store->load_room("R1", 1)->actions.size(), 1u) << "another game's actions stay";
  EXPECT_TRUE(store->load_room("R1", 2)->actions.empty());
}

TEST_P(StoreTest, FreeSeatRemovesIt) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({FreeSeat{"R1", 0}});
  store->flush();
  EXPECT_TRUE(store->load_room("R1")->seats.empty());
}

TEST(Store, InMemoryStoreWorks) {
  auto store = must_open(":memory:");
  store->submit(new_room("R1"));
  store->flush();
  EXPECT_EQ(store->load_active_rooms().size(), 1u);
}

TEST(Store, UnwritableDirectoryIsAClearError) {
  if (::geteuid() == 0) {
    // root writes anywhere; use a path under a regular file instead, which no one can create.
    TempDir dir;
    std::ofstream(dir.path / "file") << "x";
    std::string error;
    EXPECT_FALSE(Store::open((dir.path / "file" / "games.db").string(), error));
    EXPECT_NE(error.find("cannot open database"), std::string::npos) << error;
    return;
  }
  std::string error;
  EXPECT_FALSE(Store::open("/proc/bombcheckers/games.db", error));
  EXPECT_FALSE(error.empty());
}

TEST(Store, GarbageFileIsReportedNotOverwritten) {
  TempDir dir;
  {
    std::ofstream f(dir.db(), std::ios::binary);
    f << std::string(4096, 'x');
  }
  std::string error;
  EXPECT_FALSE(Store::open(dir.db(), error));
  EXPECT_FALSE(error.empty());
  std::ifstream f(dir.db(), std::ios::binary);
  std::string head(16, '\0');
  f.read(head.data(), 16);
  EXPECT_EQ(head, std::string(16, 'x'));  // the file was left as it was
}

TEST(Store, TruncatedDatabaseIsReported) {
  TempDir dir;
  {
    auto store = must_open(dir.db());
    store->submit(new_room("R1"));
    for (int v = 1; v <= 400; ++v) store->submit({action("R1", v)});
    store->flush();
  }
  // Check the WAL back into the main file, then cut the file in half.
  { auto store = must_open(dir.db()); }
  const auto size = fs::file_size(dir.db());
  ASSERT_GT(size, 8192u);
  fs::resize_file(dir.db(), size / 2);
  std::string error;
  auto store = Store::open(dir.db(), error);
  if (store) {
    // SQLite may still open a truncated file; reading it must then fail or come back short,
    // never crash.
    const auto room = store->load_room("R1");
    EXPECT_TRUE(!room || room->actions.size() <= 400u);
  } else {
    EXPECT_FALSE(error.empty());
  }
}
