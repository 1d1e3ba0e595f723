// The store's tests run over every backend: a test written once with TEST_P(StoreTest, ...) or
// TEST_P(RetentionTest, ...) runs on SQLite (/sqlite), on a private PostgreSQL (/postgres,
// tests/support/postgres.hpp; skipped with what to install where PostgreSQL is not there) and on
// the in-memory store (/memory); TEST_P(DurableStoreTest, ...), of reopening, the database seen
// from another connection and group commit, on the two databases only.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "../support/postgres.hpp"
#include "bc/store.hpp"

namespace bc::store::test {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("bc-store-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string db() const { return (path / "games.db").string(); }
};

inline std::unique_ptr<Store> must_open(const std::string& where) {
  std::string error;
  auto s = Store::open(where, error);
  EXPECT_TRUE(s) << error;
  return s;
}

inline std::vector<Write> new_room(const std::string& id) {
  return {PutRoom{{id, R"({"variant":"bomb"})", 1000, 1, false}},
          PutSeat{{id, 0, "Ross", sha256_hex("token-0")}}, PutGame{{id, 1, "", 1000, 0, ""}}};
}

// 300 retired rooms of 40 actions of 200 bytes each, committed: the tables a prune empties.
inline void fill_retired_rooms(Store& s) {
  const std::string text(200, 'a');
  for (int r = 0; r < 300; ++r) {
    const std::string id = "room" + std::to_string(r);
    std::vector<Write> w = new_room(id);
    for (int v = 1; v <= 40; ++v) w.push_back(AppendAction{{id, 1, v, v % 2, text, 2000 + v}});
    w.push_back(RetireRoom{id});
    s.submit(std::move(w));
  }
  s.flush();
}

inline Write action(const std::string& room, std::int64_t version, int side = 0) {
  return AppendAction{{room, 1, version, side, R"({"kind":"step"})", 2000 + version}};
}

// Something another connection holds that makes the store's writer wait (while it lives).
class WriteBlocker {
 public:
  virtual ~WriteBlocker() = default;
};

class Backends : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::Postgres) {
      BC_NEED_POSTGRES(pg);
      pg_ = pg;
    }
  }
  bool sqlite() const { return GetParam() == Backend::Sqlite; }
  bool memory() const { return GetParam() == Backend::Memory; }

  // The store of this test (a new in-memory one each time: there is nothing to reopen).
  std::unique_ptr<Store> open() { return memory() ? Store::open_memory() : must_open(where()); }
  // The same, where a database's test does not reopen (scratch()).
  std::unique_ptr<Store> open_scratch() {
    return memory() ? Store::open_memory() : must_open(scratch());
  }

  // A durable store of this test's own: an SQLite file, or a PostgreSQL database (the same one
  // on every call, for reopening).
  std::string where() {
    if (where_.empty()) where_ = sqlite() ? dir_.db() : pg_->new_database();
    return where_;
  }
  // Where a test that does not reopen keeps its rows: SQLite in memory (as these tests always
  // had it: writes answered on the caller's thread), PostgreSQL a database of the test's own.
  std::string scratch() { return sqlite() ? std::string(":memory:") : where(); }

  // Runs SQL on the store's database from a connection of its own; the first value of its
  // first row, if any.
  std::string raw(const std::string& sql) {
    std::string out;
    if (sqlite()) {
      sqlite3* db = nullptr;
      EXPECT_EQ(sqlite3_open(where().c_str(), &db), SQLITE_OK);
      sqlite3_stmt* st = nullptr;
      EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
      if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != nullptr)
        out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
      sqlite3_finalize(st);
      sqlite3_close(db);
      return out;
    }
    PGconn* c = PQconnectdb(where().c_str());
    EXPECT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PGresult* r = PQexec(c, sql.c_str());
    const auto st = PQresultStatus(r);
    EXPECT_TRUE(st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) << sql << PQresultErrorMessage(r);
    if (st == PGRES_TUPLES_OK && PQntuples(r) > 0) out = PQgetvalue(r, 0, 0);
    PQclear(r);
    PQfinish(c);
    return out;
  }

  // Another connection takes what the writer needs to write actions: SQLite's write lock, or
  // an EXCLUSIVE lock on PostgreSQL's actions table (reads still go, inserts wait).
  std::unique_ptr<WriteBlocker> block_writes() {
    struct Sqlite : WriteBlocker {
      sqlite3* db = nullptr;
      ~Sqlite() override {
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
        sqlite3_close(db);
      }
    };
    struct Pg : WriteBlocker {
      PGconn* c = nullptr;
      ~Pg() override {
        PQclear(PQexec(c, "COMMIT"));
        PQfinish(c);
      }
    };
    if (sqlite()) {
      auto b = std::make_unique<Sqlite>();
      EXPECT_EQ(sqlite3_open(where().c_str(), &b->db), SQLITE_OK);
      EXPECT_EQ(sqlite3_exec(b->db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
      return b;
    }
    auto b = std::make_unique<Pg>();
    b->c = PQconnectdb(where().c_str());
    PGresult* r = PQexec(b->c, "BEGIN; LOCK TABLE actions IN EXCLUSIVE MODE");
    EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQresultErrorMessage(r);
    PQclear(r);
    return b;
  }

  bc::test::Postgres* pg_ = nullptr;

 private:
  TempDir dir_;
  std::string where_;
};

inline std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
  switch (info.param) {
    case Backend::Sqlite:
      return "sqlite";
    case Backend::Postgres:
      return "postgres";
    case Backend::Memory:
      return "memory";
  }
  return "unknown";
}

}  // namespace bc::store::test

#define BC_EVERY_BACKEND(Fixture)                                                     \
  INSTANTIATE_TEST_SUITE_P(                                                           \
      Backends, Fixture,                                                              \
      ::testing::Values(::bc::store::Backend::Sqlite, ::bc::store::Backend::Postgres, \
                        ::bc::store::Backend::Memory),                                \
      ::bc::store::test::backend_name)
#define BC_DATABASE_BACKENDS(Fixture)                                                  \
  INSTANTIATE_TEST_SUITE_P(                                                            \
      Backends, Fixture,                                                               \
      ::testing::Values(::bc::store::Backend::Sqlite, ::bc::store::Backend::Postgres), \
      ::bc::store::test::backend_name)
