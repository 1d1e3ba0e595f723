// The real binary on PostgreSQL (serve --store URL, a private server from
// tests/support/postgres.hpp): SIGKILL at several points of several games, restart on the same
// database, resume with the tokens: every acknowledged action is there. Then PostgreSQL itself
// restarts (fast, and immediate: a crash) under the running server, which keeps running and
// playing; replay and compact work on the URL. Only 127.0.0.1; every wait is bounded.
#include <gtest/gtest.h>

#include <random>

#include "../support/postgres.hpp"
#include "tables.hpp"

namespace bc::test {
namespace {

TEST(KillNinePostgres, EveryAcknowledgedActionComesBackAndTheTokensWork) {
  BC_NEED_POSTGRES(pg);
  TempDir dir;  // --data-dir is not used with --store: nothing may appear in it
  const std::string url = pg->new_database();
  const std::vector<std::string> store = {"--store", url};
  std::mt19937_64 rng(4242);
  std::vector<Table> tables(3);
  tables[0].variant = "bomb";
  tables[1].variant = "classic";
  tables[2].variant = "kaboom";
  tables[2].create_extra = {{"options", {{"width", 5}, {"height", 4}, {"connect", 3}}}};
  auto srv = start(dir.path, store);
  for (auto& t : tables) {
    open_table(srv.port, t);
    if (HasFatalFailure()) return;
  }
  // Kill points as in KillNine: after acknowledged actions; right after an act is sent; after one
  // player saw the new state; after a random short delay.
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    for (auto& t : tables) {
      keep_playing(t, rng, 2 + static_cast<int>(rng() % 6));
      if (HasFatalFailure()) return;
    }
    for (auto& t : tables) {
      if (round == 0 || t.last["status"] == "finished") continue;
      const auto& legal = t.last["legal"];
      json action = legal[rng() % legal.size()];
      t.clients[mover(t)]->send(
          {{"type", "act"}, {"version", t.last["version"]}, {"action", action}});
      t.pending = action;
      if (round == 2) {
        json s = wait_state(*t.clients[0], t.last["version"].get<std::int64_t>() + 1);
        t.last = s;
        t.acked.push_back(action);
        t.pending.reset();
      }
      if (round == 3) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
    }
    srv.proc->signal(SIGKILL);
    EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 128 + SIGKILL);
    for (auto& t : tables) {
      for (auto& c : t.clients) c.reset();
    }
    srv = start(dir.path, store);
    for (auto& t : tables) {
      resume_and_check(srv.port, t);
      if (HasFatalFailure()) return;
    }
  }
  // PostgreSQL restarts under the running server: its connections break, and it makes new ones
  // before its next commit; the games go on without an error.
  for (int how : {SIGINT, SIGQUIT}) {
    SCOPED_TRACE(how == SIGINT ? "PostgreSQL fast restart" : "PostgreSQL crash and recovery");
    ASSERT_TRUE(pg->restart(how)) << Postgres::why();
    for (auto& t : tables) {
      keep_playing(t, rng, 3);
      if (HasFatalFailure()) return;
    }
  }
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0) << srv.proc->stderr_text();
  for (auto& t : tables) {
    for (auto& c : t.clients) c.reset();
  }
  srv = start(dir.path, store);
  for (auto& t : tables) resume_and_check(srv.port, t);
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
  EXPECT_TRUE(fs::is_empty(dir.path)) << "the data directory is SQLite's only";
  for (auto& t : tables) {
    Process check({"replay", t.room, "--store", url});
    EXPECT_EQ(check.wait(std::chrono::seconds(30)), 0) << check.all_stdout() << check.stderr_text();
  }
  Process compact({"compact", "--store", url});
  EXPECT_EQ(compact.wait(std::chrono::seconds(60)), 0) << compact.stderr_text();
  EXPECT_NE(compact.all_stdout().find("rooms"), std::string::npos) << compact.all_stdout();
}

TEST(KillNinePostgres, AnUnreachableDatabaseStopsServeWithAClearMessageWithoutThePassword) {
  Process p({"serve", "--host", "127.0.0.1", "--port", "0", "--store",
             "postgresql://ann:s3cr3t@127.0.0.1:1/games", "--log-level", "warn"});
  EXPECT_EQ(p.wait(std::chrono::seconds(20)), 1);
  EXPECT_NE(p.stderr_text().find("cannot connect to PostgreSQL"), std::string::npos)
      << p.stderr_text();
  EXPECT_EQ(p.stderr_text().find("s3cr3t"), std::string::npos) << p.stderr_text();
  Process bad({"serve", "--store", "mysql://h/db"});
  EXPECT_EQ(bad.wait(std::chrono::seconds(10)), 2);
  EXPECT_NE(bad.stderr_text().find("--store"), std::string::npos) << bad.stderr_text();
  Process both({"serve", "--memory", "--store", "postgresql://h/db"});
  EXPECT_EQ(both.wait(std::chrono::seconds(10)), 2);
}

}  // namespace
}  // namespace bc::test
