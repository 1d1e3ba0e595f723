// PostgreSQL's own store tests (the shared ones run over both backends: store_test.cpp,
// retention_test.cpp): which backend a location opens, clear errors without passwords, the schema
// made once by servers starting together, a pipeline of many windows, a database server that
// restarts, crashes or is down under the store, and VACUUM after a prune.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "backends.hpp"

using namespace bc::store;
using namespace bc::store::test;

namespace {

class PgStoreTest : public Backends {};
INSTANTIATE_TEST_SUITE_P(Backends, PgStoreTest, ::testing::Values(Backend::Postgres), backend_name);

}  // namespace

TEST(StoreUrl, PostgresUrlsOpenPostgresAndAnythingElseSqlite) {
  EXPECT_TRUE(is_postgres_url("postgres://h/db"));
  EXPECT_TRUE(is_postgres_url("postgresql://u@h:5432/db?sslmode=require"));
  EXPECT_FALSE(is_postgres_url("data/bombcheckers.db"));
  EXPECT_FALSE(is_postgres_url(":memory:"));
  EXPECT_FALSE(is_postgres_url("mysql://h/db"));
  EXPECT_EQ(redact("postgres://ann:s3cr3t@db.example:5432/games"),
            "postgres://ann:***@db.example:5432/games");
  EXPECT_EQ(redact("postgresql://ann@db/games?password=s3cr3t&sslmode=require"),
            "postgresql://ann@db/games?password=***&sslmode=require");
  EXPECT_EQ(redact("postgresql://db/games"), "postgresql://db/games");
  EXPECT_EQ(redact("data/bombcheckers.db"), "data/bombcheckers.db");
}

TEST(StoreUrl, AnUnreachableServerIsAClearErrorWithoutThePassword) {
  std::string error;
  // Port 1 on loopback: nothing listens there.
  EXPECT_FALSE(Store::open("postgresql://ann:s3cr3t@127.0.0.1:1/games", error));
  EXPECT_NE(error.find("cannot connect to PostgreSQL at postgresql://ann:***@127.0.0.1:1/games"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("s3cr3t"), std::string::npos) << error;
}

TEST_P(PgStoreTest, AMissingDatabaseIsAClearError) {
  std::string error;
  EXPECT_FALSE(Store::open(pg_->url("no_such_database"), error));
  EXPECT_NE(error.find("no_such_database"), std::string::npos) << error;
  EXPECT_NE(error.find("does not exist"), std::string::npos) << error;
}

TEST_P(PgStoreTest, TheTablesAreMadeInTheUrlsDatabaseOnceWhenServersStartTogether) {
  const std::string url = where();
  std::vector<std::future<std::string>> opens;
  for (int i = 0; i < 4; ++i) {
    opens.push_back(std::async(std::launch::async, [&] {
      std::string error;
      auto s = Store::open(url, error);
      return s ? std::string() : error;
    }));
  }
  for (auto& o : opens) EXPECT_EQ(o.get(), "");
  EXPECT_EQ(raw("SELECT value FROM meta WHERE key='schema'"), "2");
  EXPECT_EQ(raw("SELECT count(*) FROM information_schema.tables WHERE table_name IN "
                "('meta','rooms','seats','games','actions')"),
            "5");
  auto store = must_open(url);
  EXPECT_EQ(store->backend(), Backend::Postgres);
  EXPECT_EQ(store->path(), url);
}

// A server restarted under the store: the writer finds its connection closed before its next
// batch and makes a new one, the readers replace theirs; nothing committed is lost.
TEST_P(PgStoreTest, ARestartedServerIsReconnectedWithoutLosingAWrite) {
  auto store = must_open(where());
  store->submit(new_room("R1"));
  store->submit({action("R1", 1)});
  store->flush();
  ASSERT_TRUE(store->has_room("R1"));  // a reader connection in the pool
  for (int how : {SIGINT, SIGQUIT}) {  // fast shutdown; immediate (a crash, recovered at start)
    ASSERT_TRUE(pg_->restart(how)) << bc::test::Postgres::why();
    std::atomic<int> ok{-1};
    const std::int64_t v = how == SIGINT ? 2 : 3;
    store->submit({action("R1", v, static_cast<int>(v % 2))},
                  [&](bool committed) { ok = committed ? 1 : 0; });
    store->flush();
    EXPECT_EQ(ok.load(), 1) << "the batch after a restart goes through a new connection";
    ASSERT_TRUE(store->load_room("R1"));
    EXPECT_EQ(store->load_room("R1")->actions.size(), static_cast<std::size_t>(v));
  }
}

// The database down: batches fail (their callbacks say so, quickly), reads come back empty, the
// store does not crash; once it is back, writes go on and everything acknowledged is there.
TEST_P(PgStoreTest, WhileTheServerIsDownBatchesFailAndAfterItTheyGoOn) {
  auto store = must_open(where());
  store->submit(new_room("R1"));
  store->flush();
  pg_->stop(SIGINT);
  std::atomic<int> ok{-1};
  const auto before = std::chrono::steady_clock::now();
  store->submit({action("R1", 1)}, [&](bool committed) { ok = committed ? 1 : 0; });
  store->flush();
  EXPECT_EQ(ok.load(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(10));
  EXPECT_FALSE(store->load_room("R1"));
  EXPECT_GE(store->stats().failures, 1u);
  ASSERT_TRUE(pg_->start()) << bc::test::Postgres::why();
  ok = -1;
  store->submit({action("R1", 1)}, [&](bool committed) { ok = committed ? 1 : 0; });
  store->flush();
  EXPECT_EQ(ok.load(), 1);
  EXPECT_EQ(store->actions("R1", 1).size(), 1u);
}

// Writers on several threads while the database crashes (immediate shutdown) and comes back:
// every submission acknowledged is stored, whole; one that failed is whole or absent (a batch
// whose COMMIT was sent but not answered may have committed).
TEST_P(PgStoreTest, ACrashLosesNoAcknowledgedSubmissionAndSplitsNone) {
  auto store = must_open(where());
  constexpr int kRooms = 8;
  for (int r = 0; r < kRooms; ++r) store->submit(new_room("R" + std::to_string(r)));
  store->flush();
  std::atomic<bool> crash_done{false};
  std::vector<std::vector<int>> acked(kRooms);  // versions acknowledged, by room
  std::vector<std::thread> writers;
  for (int r = 0; r < kRooms; ++r) {
    writers.emplace_back([&, r] {
      const std::string id = "R" + std::to_string(r);
      std::int64_t v = 1;
      int after_crash = 0;  // acknowledged since the database came back
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while ((!crash_done || after_crash < 10) && std::chrono::steady_clock::now() < until) {
        std::promise<bool> done;
        // Two actions in one submission: both or neither.
        store->submit({action(id, v), action(id, v + 1, 1)},
                      [&](bool committed) { done.set_value(committed); });
        if (done.get_future().get()) {
          acked[static_cast<std::size_t>(r)].push_back(static_cast<int>(v));
          v += 2;
          if (crash_done) ++after_crash;
        } else {
          // Stored or not (or the database still down): go on after what the store has.
          v = static_cast<std::int64_t>(store->actions(id, 1).size()) + 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      EXPECT_GE(after_crash, 10) << id;
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ASSERT_TRUE(pg_->restart(SIGQUIT)) << bc::test::Postgres::why();
  crash_done = true;
  for (auto& w : writers) w.join();
  store->flush();
  for (int r = 0; r < kRooms; ++r) {
    const auto rows = store->actions("R" + std::to_string(r), 1);
    EXPECT_EQ(rows.size() % 2, 0u) << "a submission is never split";
    for (std::size_t i = 0; i < rows.size(); ++i)
      EXPECT_EQ(rows[i].version, static_cast<std::int64_t>(i) + 1) << "no hole";
    for (int v : acked[static_cast<std::size_t>(r)])
      EXPECT_GE(static_cast<int>(rows.size()), v + 1) << "acknowledged version " << v << " lost";
  }
}

// A submission larger than the writer's pipeline window (512 statements) commits whole, and
// one that fails at its far end leaves nothing of itself and takes nothing else down.
TEST_P(PgStoreTest, ABatchOfManyPipelineWindowsCommitsWholeOrNotAtAll) {
  auto store = must_open(where());
  store->submit(new_room("R1"));
  store->submit(new_room("R2"));
  std::vector<Write> big;
  for (int v = 1; v <= 1500; ++v) big.push_back(action("R1", v, v % 2));
  std::atomic<int> first{-1};
  store->submit(std::move(big), [&](bool ok) { first = ok ? 1 : 0; });
  store->flush();
  EXPECT_EQ(first.load(), 1);
  std::vector<Write> bad;
  for (int v = 1; v <= 1500; ++v) bad.push_back(action("R2", v, v % 2));
  bad.push_back(action("R2", 7));  // a duplicate, last
  std::atomic<int> second{-1};
  std::atomic<int> other{-1};
  store->submit(std::move(bad), [&](bool ok) { second = ok ? 1 : 0; });
  store->submit({action("R1", 1501)}, [&](bool ok) { other = ok ? 1 : 0; });
  store->flush();
  EXPECT_EQ(second.load(), 0);
  EXPECT_EQ(other.load(), 1);
  EXPECT_EQ(store->actions("R1", 1).size(), 1501u);
  EXPECT_TRUE(store->actions("R2", 1).empty());
}

// After a prune the tables are vacuumed: emptied ones are cut back (their indexes keep their
// pages for reuse); compact's VACUUM FULL rewrites everything small.
TEST_P(PgStoreTest, PruningVacuumsAndCompactRewritesTheTables) {
  auto s = must_open(where());
  fill_retired_rooms(*s);
  const Size full = s->measure();
  EXPECT_EQ(full.actions, 300u * 40);
  EXPECT_GT(full.page_bytes, 300u * 40 * 200);
  EXPECT_EQ(s->file_bytes(), std::make_pair(full.page_bytes, std::uint64_t{0}));
  const Pruned p = s->prune(Retention{}, 2040 + 8 * 24 * 3600 * 1000LL);
  EXPECT_EQ(p.rooms, 300u);
  EXPECT_EQ(p.actions, 300u * 40);
  const Size after = s->measure();
  EXPECT_EQ(after.rooms, 0u);
  EXPECT_EQ(after.free_bytes, 0u) << "not measured on PostgreSQL";
  EXPECT_LT(after.page_bytes * 2, full.page_bytes) << full.page_bytes << " -> " << after.page_bytes;
  std::string error;
  ASSERT_TRUE(s->compact(error)) << error;
  const Size compacted = s->measure();
  EXPECT_LT(compacted.page_bytes * 10, full.page_bytes)
      << full.page_bytes << " -> " << compacted.page_bytes;
  EXPECT_EQ(compacted.rooms, 0u);
}
