// The SQL both database backends share (store/src/sql_core.hpp): every statement prepares on the
// schema in both dialects' text, the dialects differ only where they must, and each write's
// statements carry its row.
#include "sql_core.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <regex>
#include <set>
#include <string>

namespace bc::store {
namespace {

using sql::Dialect;
using sql::Q;

std::vector<Q> every_statement() {
  std::vector<Q> out;
  for (int i = 0; i < static_cast<int>(Q::Count); ++i) out.push_back(static_cast<Q>(i));
  return out;
}

TEST(SqlCore, EveryStatementPreparesOnTheSchemaInSqlite) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql::kSchema, nullptr, nullptr, nullptr), SQLITE_OK);
  for (Q q : every_statement()) {
    sqlite3_stmt* s = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql::text(q, Dialect::Sqlite), -1, &s, nullptr), SQLITE_OK)
        << sql::name(q) << ": " << sqlite3_errmsg(db);
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
}

TEST(SqlCore, PostgresNumbersParametersWithDollarsAndSqliteHasNoGreatest) {
  const std::regex question(R"(\?\d)");
  const std::regex dollar(R"(\$\d)");
  std::set<std::string> names;
  for (Q q : every_statement()) {
    const std::string pg = sql::text(q, Dialect::Postgres);
    const std::string lite = sql::text(q, Dialect::Sqlite);
    EXPECT_FALSE(std::regex_search(pg, question)) << pg;
    EXPECT_FALSE(std::regex_search(lite, dollar)) << lite;
    EXPECT_EQ(lite.find("GREATEST"), std::string::npos) << lite;
    EXPECT_EQ(pg.find("BINARY"), std::string::npos) << pg;
    EXPECT_EQ(std::regex_search(pg, dollar), std::regex_search(lite, question)) << sql::name(q);
    EXPECT_TRUE(names.insert(sql::name(q)).second) << "two statements named " << sql::name(q);
  }
  EXPECT_NE(std::string(sql::text(Q::RaiseGameNo, Dialect::Postgres)).find("GREATEST(game_no, $1)"),
            std::string::npos);
  EXPECT_NE(std::string(sql::text(Q::RaiseGameNo, Dialect::Sqlite)).find("max(game_no, ?1)"),
            std::string::npos);
}

TEST(SqlCore, AGameIsWrittenWithItsRoomsGameNumberRaised) {
  std::vector<sql::Bound> out;
  const Write game = PutGame{GameRow{"K7QF2M", 3, "", 100, 0, "{}"}};  // the rows outlive `out`
  sql::statements_of(game, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].q, Q::PutGame);
  EXPECT_EQ(out[0].size, 6);
  EXPECT_EQ(std::get<std::string_view>(out[0].values[0]), "K7QF2M");
  EXPECT_EQ(std::get<std::int64_t>(out[0].values[1]), 3);
  EXPECT_EQ(out[1].q, Q::RaiseGameNo);
  EXPECT_EQ(std::get<std::int64_t>(out[1].values[0]), 3);
  EXPECT_EQ(std::get<std::string_view>(out[1].values[1]), "K7QF2M");
}

TEST(SqlCore, AnUntimedActionHasNullClocksAndATimedOneItsTwoTimesLeft) {
  std::vector<sql::Bound> out;
  ActionRow row{"K7QF2M", 1, 5'000'000'000, 1, "{}", 1'767'225'600'000, std::nullopt};
  const Write untimed = AppendAction{row};  // the rows outlive `out`
  row.left_ms = std::array<std::int64_t, 2>{60'000, 59'000};
  const Write timed = AppendAction{row};
  sql::statements_of(untimed, out);
  sql::statements_of(timed, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].size, 8);
  EXPECT_EQ(std::get<std::int64_t>(out[0].values[2]), 5'000'000'000);  // not cut to an int
  EXPECT_EQ(std::get<std::int64_t>(out[0].values[5]), 1'767'225'600'000);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(out[0].values[6]));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(out[0].values[7]));
  EXPECT_EQ(std::get<std::int64_t>(out[1].values[6]), 60'000);
  EXPECT_EQ(std::get<std::int64_t>(out[1].values[7]), 59'000);
}

// A name another player holds never fails a batch: the update checks it, and the insert of a new
// id ignores any conflict (ON CONFLICT DO NOTHING, no target).
TEST(SqlCore, APlayerIsAnUpdateThatSkipsATakenNameThenAnInsertThatIgnoresConflicts) {
  std::vector<sql::Bound> out;
  const Write player = PutPlayer{PlayerRow{"0123456789abcdef", "Ann", "ann", "$argon2id$", 77}};
  sql::statements_of(player, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].q, Q::PutPlayerUpdate);
  EXPECT_EQ(out[0].size, 4);
  EXPECT_EQ(out[1].q, Q::PutPlayerInsert);
  EXPECT_EQ(out[1].size, 5);
  EXPECT_EQ(std::get<std::int64_t>(out[1].values[4]), 77);
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const std::string insert = sql::text(Q::PutPlayerInsert, d);
    EXPECT_NE(insert.find("ON CONFLICT DO NOTHING"), std::string::npos) << insert;
    EXPECT_NE(std::string(sql::text(Q::PutPlayerUpdate, d)).find("NOT EXISTS"), std::string::npos);
  }
}

TEST(SqlCore, RatingsAndRatedGamesAreBoundAsRealsAndTextsOrderedByTheirBytes) {
  std::vector<sql::Bound> out;
  const Write r = PutRating{RatingRow{"p", "bomb", 1512.25, 61.5, 0.06, 5, 1, 2, 3}};
  const Write g =
      PutRatedGame{RatedGameRow{"p", "R1", 2, "bomb", 9, 1, "q", 2, 1500.5, 1516.75, 187.25}};
  sql::statements_of(r, out);
  sql::statements_of(g, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].size, 9);
  EXPECT_EQ(std::get<double>(out[0].values[2]), 1512.25);
  EXPECT_EQ(std::get<double>(out[0].values[4]), 0.06);
  EXPECT_EQ(std::get<std::int64_t>(out[0].values[8]), 3);
  EXPECT_EQ(out[1].size, 11);
  EXPECT_EQ(std::get<double>(out[1].values[8]), 1500.5);
  EXPECT_EQ(std::get<double>(out[1].values[10]), 187.25);
  EXPECT_NE(std::string(sql::text(Q::Leaderboard, Dialect::Postgres)).find(R"(COLLATE "C")"),
            std::string::npos);
  EXPECT_NE(std::string(sql::text(Q::Leaderboard, Dialect::Sqlite)).find("COLLATE BINARY"),
            std::string::npos);
}

}  // namespace
}  // namespace bc::store
