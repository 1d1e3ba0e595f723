// The players' rows (store.hpp, "Players"), over every backend (backends.hpp): players by id and by
// name, a name never taken from its holder (and never failing the batch that tried), sessions,
// ratings, the leaderboard and rated games; over the two databases, the tables added to a database
// made before them. Their retention: retention_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <string>
#include <thread>

#include "backends.hpp"

// In a namespace of their own: the store's tests are compiled together (a unity build).
namespace bc::store::players_test {

using namespace bc::store::test;

class PlayersStoreTest : public Backends {};
BC_EVERY_BACKEND(PlayersStoreTest);
class DurablePlayersStoreTest : public Backends {};
BC_DATABASE_BACKENDS(DurablePlayersStoreTest);

namespace {

PlayerRow account(const std::string& id, const std::string& name, std::int64_t created_ms = 100) {
  std::string key = name;
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return {id, name, key, "$argon2id$v=19$m=65536,t=2,p=1$" + id, created_ms};
}

PlayerRow guest(const std::string& id) {
  return {id, "", "", "", 100};
}

RatingRow rating(const std::string& player, const std::string& perf, double r, double rd) {
  return {player, perf, r, rd, 0.06, 5000, 3, 1, 2};
}

RatedGameRow rated(const std::string& player, const std::string& room, int game_no,
                   const std::string& perf, std::int64_t ended_ms) {
  return {player, room, game_no, perf, ended_ms, 0, "opp", 2, 1500.25, 1516.125, 187.5};
}

std::vector<std::string> hashes(const std::vector<SessionRow>& rows) {
  std::vector<std::string> out;
  for (const auto& s : rows) out.push_back(s.hash);
  return out;
}

std::vector<std::string> names(const std::vector<RankedRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.name);
  return out;
}

}  // namespace

TEST_P(PlayersStoreTest, PlayersRoundTripByIdAndByNameKey) {
  auto store = open();
  store->submit({PutPlayer{guest("g1")}, PutPlayer{account("p1", "Ann", 1234)}});
  store->flush();
  const auto g = store->player("g1");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name, "");
  EXPECT_EQ(g->name_key, "");
  EXPECT_EQ(g->password_hash, "");
  const auto p = store->player("p1");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->name, "Ann");
  EXPECT_EQ(p->name_key, "ann");
  EXPECT_EQ(p->password_hash, "$argon2id$v=19$m=65536,t=2,p=1$p1");
  EXPECT_EQ(p->created_ms, 1234);
  const auto named = store->player_named("ann");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->id, "p1");
  EXPECT_FALSE(store->player_named("Ann")) << "by the folded key only";
  EXPECT_FALSE(store->player_named("")) << "a guest has no name to be found by";
  EXPECT_FALSE(store->player("nobody"));
}

TEST_P(PlayersStoreTest, GuestsShareTheEmptyNameAndAnAccountIsUpdatedByIdKeepingItsCreationTime) {
  auto store = open();
  store->submit({PutPlayer{guest("g1")}, PutPlayer{guest("g2")}});
  store->flush();
  ASSERT_TRUE(store->player("g1"));
  ASSERT_TRUE(store->player("g2"));
  // The guest makes an account: the same id, a name and a password; then renames itself.
  PlayerRow signed_up = account("g1", "Bob", 9999);
  store->submit({PutPlayer{signed_up}});
  store->flush();
  auto p = store->player("g1");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->name, "Bob");
  EXPECT_EQ(p->password_hash, signed_up.password_hash);
  EXPECT_EQ(p->created_ms, 100) << "the creation time stays";
  EXPECT_EQ(store->player_named("bob")->id, "g1");
  store->submit({PutPlayer{account("g1", "Robert")}});
  store->flush();
  EXPECT_EQ(store->player("g1")->name, "Robert");
  EXPECT_FALSE(store->player_named("bob")) << "the old name is free";
  EXPECT_EQ(store->player_named("robert")->id, "g1");
  // A player writing its own name again keeps it; another can take the freed one.
  store->submit({PutPlayer{account("g1", "ROBERT")}, PutPlayer{account("g2", "bob")}});
  store->flush();
  EXPECT_EQ(store->player("g1")->name, "ROBERT");
  EXPECT_EQ(store->player_named("bob")->id, "g2");
}

// Two players claim one name in the same batch as other rooms' writes: the first claim wins, the
// second's row is left out (a new player: absent; a rename: unchanged), and every write of the
// batch commits, every submission answered ok.
TEST_P(PlayersStoreTest, ANameClashInABatchLeavesTheLaterClaimOutAndCommitsEverythingElse) {
  auto store = open();
  store->submit({PutPlayer{account("old", "Zed")}});
  store->submit(new_room("R0"));
  store->flush();
  // On a database the writer is held up while the submissions queue, so they share one batch.
  const std::uint64_t commits = store->stats().commits;
  std::unique_ptr<WriteBlocker> blocker;
  if (!memory()) blocker = block_writes();
  store->submit({action("R0", 1)});
  if (blocker) std::this_thread::sleep_for(std::chrono::milliseconds(200));  // in BEGIN by now
  std::atomic<int> answered{0};
  std::atomic<int> ok{0};
  auto done = [&](bool committed) {
    ++answered;
    ok += committed ? 1 : 0;
  };
  std::vector<Write> both = new_room("R1");
  both.push_back(PutPlayer{account("p1", "Ann")});
  both.push_back(action("R1", 1));
  both.push_back(PutPlayer{account("p2", "ANN")});  // the same key, in the same submission
  both.push_back(action("R1", 2, 1));
  store->submit(std::move(both), done);
  std::vector<Write> later = new_room("R2");
  later.push_back(PutPlayer{account("p3", "ann")});   // a new player, in a later submission
  later.push_back(PutPlayer{account("old", "Ann")});  // a rename onto it
  later.push_back(action("R2", 1));
  store->submit(std::move(later), done);
  store->submit({action("R0", 2, 1)}, done);
  blocker.reset();
  store->flush();
  EXPECT_EQ(answered.load(), 3);
  EXPECT_EQ(ok.load(), 3) << "a name clash fails nothing";
  EXPECT_EQ(store->stats().failures, 0u);
  if (!memory()) {
    EXPECT_EQ(store->stats().commits - commits, 2u) << "the three in one batch";
  }
  EXPECT_EQ(store->actions("R0", 1).size(), 2u);
  EXPECT_EQ(store->actions("R1", 1).size(), 2u);
  EXPECT_EQ(store->actions("R2", 1).size(), 1u);
  const auto ann = store->player_named("ann");
  ASSERT_TRUE(ann);
  EXPECT_EQ(ann->id, "p1") << "the first claim wins";
  EXPECT_EQ(ann->name, "Ann");
  EXPECT_FALSE(store->player("p2")) << "a new player whose name was taken is not written";
  EXPECT_FALSE(store->player("p3"));
  const auto old = store->player("old");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->name, "Zed") << "a rename onto a taken name leaves the row as it was";
  EXPECT_EQ(store->player_named("zed")->id, "old");
}

TEST_P(PlayersStoreTest, SessionsAreReplacedByHashAndListedLatestSeenFirst) {
  auto store = open();
  store->submit({PutSession{{"h1", "p1", 1000, 1000, "Firefox"}},
                 PutSession{{"h2", "p1", 1100, 3000, "Chrome"}},
                 PutSession{{"h3", "p1", 1200, 2000, "Safari"}},
                 PutSession{{"h0", "p1", 1300, 2000, "Safari"}},
                 PutSession{{"q1", "p2", 1000, 9000, "curl"}}});
  store->flush();
  EXPECT_EQ(hashes(store->sessions("p1")), (std::vector<std::string>{"h2", "h0", "h3", "h1"}))
      << "the latest seen first, then by hash";
  store->submit({PutSession{{"h1", "p1", 1000, 4000, "Firefox 2"}}});
  store->flush();
  const auto s = store->session("h1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->player, "p1");
  EXPECT_EQ(s->created_ms, 1000);
  EXPECT_EQ(s->seen_ms, 4000);
  EXPECT_EQ(s->label, "Firefox 2");
  EXPECT_EQ(hashes(store->sessions("p1")), (std::vector<std::string>{"h1", "h2", "h0", "h3"}));
  // Replaced with another player: it is theirs now.
  store->submit({PutSession{{"h3", "p2", 1200, 2500, "Safari"}}});
  store->flush();
  EXPECT_EQ(hashes(store->sessions("p1")), (std::vector<std::string>{"h1", "h2", "h0"}));
  EXPECT_EQ(hashes(store->sessions("p2")), (std::vector<std::string>{"q1", "h3"}));
  EXPECT_FALSE(store->session("nope"));
  EXPECT_TRUE(store->sessions("nobody").empty());
}

TEST_P(PlayersStoreTest, DropSessionDeletesOneAndDropSessionsEveryOneOfThePlayersButTheKeptOne) {
  auto store = open();
  store->submit({PutSession{{"h1", "p1", 1, 1, ""}}, PutSession{{"h2", "p1", 2, 2, ""}},
                 PutSession{{"h3", "p1", 3, 3, ""}}, PutSession{{"h4", "p1", 4, 4, ""}},
                 PutSession{{"q1", "p2", 5, 5, ""}}});
  store->submit({DropSession{"h1"}, DropSession{"nope"}});
  store->flush();
  EXPECT_FALSE(store->session("h1"));
  EXPECT_EQ(hashes(store->sessions("p1")), (std::vector<std::string>{"h4", "h3", "h2"}));
  store->submit({DropSessions{"p1", "h3"}});
  store->flush();
  EXPECT_EQ(hashes(store->sessions("p1")), (std::vector<std::string>{"h3"})) << "keep stays";
  EXPECT_TRUE(store->session("q1")) << "another player's sessions stay";
  store->submit({DropSessions{"p1", "q1"}});  // keep is not one of theirs: every one goes
  store->flush();
  EXPECT_TRUE(store->sessions("p1").empty());
  EXPECT_TRUE(store->session("q1"));
  store->submit({PutSession{{"h5", "p2", 6, 6, ""}}, DropSessions{"p2", ""}});
  store->flush();
  EXPECT_TRUE(store->sessions("p2").empty()) << "keep \"\": every one";
  EXPECT_FALSE(store->session("q1"));
}

TEST_P(PlayersStoreTest, RatingsAreReplacedByPlayerAndPerfAndListedByPerfWithExactReals) {
  auto store = open();
  RatingRow blitz{"p1",
                  "bomb:blitz",
                  1512.3456789012345,
                  61.000000000001,
                  0.0599999999,
                  1'767'225'600'000,
                  10,
                  2,
                  7};
  store->submit({PutRating{blitz}, PutRating{rating("p1", "bomb", 1400, 200)},
                 PutRating{rating("p1", "classic", 1600, 90)},
                 PutRating{rating("p2", "bomb", 1700, 80)}});
  store->flush();
  auto r = store->ratings("p1");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].perf, "bomb");
  EXPECT_EQ(r[1].perf, "bomb:blitz");
  EXPECT_EQ(r[2].perf, "classic");
  EXPECT_EQ(r[1].player, "p1");
  EXPECT_EQ(r[1].rating, blitz.rating) << "a real comes back exactly";
  EXPECT_EQ(r[1].deviation, blitz.deviation);
  EXPECT_EQ(r[1].volatility, blitz.volatility);
  EXPECT_EQ(r[1].updated_ms, blitz.updated_ms);
  EXPECT_EQ(r[1].wins, 10);
  EXPECT_EQ(r[1].draws, 2);
  EXPECT_EQ(r[1].losses, 7);
  store->submit({PutRating{{"p1", "bomb", 1450.5, 150.25, 0.061, 6000, 1, 0, 0}}});
  store->flush();
  r = store->ratings("p1");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].rating, 1450.5);
  EXPECT_EQ(r[0].deviation, 150.25);
  EXPECT_EQ(r[0].volatility, 0.061);
  EXPECT_EQ(r[0].updated_ms, 6000);
  EXPECT_EQ(r[0].wins, 1);
  EXPECT_EQ(r[0].losses, 0);
  EXPECT_EQ(store->ratings("p2").size(), 1u);
  EXPECT_TRUE(store->ratings("nobody").empty());
}

// Named players whose deviation is below the bound, highest first (a tie by name); guests,
// provisional ratings, other perfs and ratings of no known player are left out.
TEST_P(PlayersStoreTest,
       TheLeaderboardRanksNamedPlayersBelowTheDeviationLeavingGuestsAndProvisional) {
  auto store = open();
  store->submit({PutPlayer{account("a", "Ann")}, PutPlayer{account("b", "bob")},
                 PutPlayer{account("c", "Carl")}, PutPlayer{account("d", "Dave")},
                 PutPlayer{guest("g")}});
  store->submit({PutRating{rating("a", "bomb", 1800, 60)}, PutRating{rating("b", "bomb", 1700, 80)},
                 PutRating{rating("d", "bomb", 1700, 70)},
                 PutRating{rating("c", "bomb", 2000, 200)},    // provisional
                 PutRating{rating("g", "bomb", 1900, 50)},     // a guest
                 PutRating{rating("x", "bomb", 2100, 50)},     // no such player
                 PutRating{rating("c", "classic", 2200, 50)},  // another perf
                 PutRating{rating("a", "bomb:blitz", 1000, 50)}});
  store->flush();
  const auto board = store->leaderboard("bomb", 110, 10);
  EXPECT_EQ(names(board), (std::vector<std::string>{"Ann", "bob", "Dave"}));
  ASSERT_EQ(board.size(), 3u);
  EXPECT_EQ(board[0].rating.player, "a");
  EXPECT_EQ(board[0].rating.perf, "bomb");
  EXPECT_EQ(board[0].rating.rating, 1800);
  EXPECT_EQ(board[0].rating.deviation, 60);
  EXPECT_EQ(board[0].rating.wins, 3);
  EXPECT_EQ(board[2].rating.player, "d");
  EXPECT_EQ(names(store->leaderboard("bomb", 80, 10)), (std::vector<std::string>{"Ann", "Dave"}))
      << "the bound is strict";
  EXPECT_EQ(names(store->leaderboard("bomb", 1000, 10)),
            (std::vector<std::string>{"Carl", "Ann", "bob", "Dave"}));
  EXPECT_EQ(names(store->leaderboard("bomb", 110, 2)), (std::vector<std::string>{"Ann", "bob"}));
  EXPECT_EQ(names(store->leaderboard("bomb", 110, 0)), (std::vector<std::string>{"Ann"}))
      << "the limit is at least 1";
  EXPECT_EQ(names(store->leaderboard("bomb", 110, -5)), (std::vector<std::string>{"Ann"}));
  EXPECT_EQ(store->leaderboard("bomb", 110, 1'000'000).size(), 3u) << "and at most 1000";
  EXPECT_EQ(names(store->leaderboard("classic", 110, 10)), (std::vector<std::string>{"Carl"}));
  EXPECT_TRUE(store->leaderboard("kaboom", 110, 10).empty());
}

TEST_P(PlayersStoreTest, TheLeaderboardLimitIsClampedToAThousand) {
  auto store = open();
  std::vector<Write> w;
  for (int i = 0; i < 1005; ++i) {
    const std::string id = "p" + std::to_string(i);
    w.push_back(PutPlayer{account(id, "n" + std::to_string(i))});
    w.push_back(PutRating{rating(id, "bomb", 1000 + i, 50)});
  }
  store->submit(std::move(w));
  store->flush();
  const auto board = store->leaderboard("bomb", 100, 5000);
  ASSERT_EQ(board.size(), 1000u);
  EXPECT_EQ(board.front().name, "n1004");
  EXPECT_EQ(board.back().name, "n5");
}

TEST_P(PlayersStoreTest, RatedGamesComeLatestFirstReplacedByTheirKeyAndFilteredByPerf) {
  auto store = open();
  store->submit({PutRatedGame{rated("p1", "R1", 1, "bomb", 1000)},
                 PutRatedGame{rated("p1", "R1", 2, "bomb", 3000)},
                 PutRatedGame{rated("p1", "R2", 1, "bomb:blitz", 2000)},
                 PutRatedGame{rated("p1", "R3", 1, "classic", 4000)},
                 PutRatedGame{rated("p2", "R1", 1, "bomb", 1000)}});
  store->flush();
  auto games = store->rated_games("p1", "", 10);
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(games[0].room, "R3");
  EXPECT_EQ(games[1].room, "R1");
  EXPECT_EQ(games[1].game_no, 2);
  EXPECT_EQ(games[2].room, "R2");
  EXPECT_EQ(games[3].game_no, 1);
  const RatedGameRow& g = games[2];
  EXPECT_EQ(g.player, "p1");
  EXPECT_EQ(g.perf, "bomb:blitz");
  EXPECT_EQ(g.ended_ms, 2000);
  EXPECT_EQ(g.side, 0);
  EXPECT_EQ(g.opponent, "opp");
  EXPECT_EQ(g.score, 2);
  EXPECT_EQ(g.before, 1500.25);
  EXPECT_EQ(g.after, 1516.125);
  EXPECT_EQ(g.deviation_after, 187.5);
  EXPECT_EQ(store->rated_games("p1", "", 2).size(), 2u);
  EXPECT_TRUE(store->rated_games("p1", "", 0).empty());
  games = store->rated_games("p1", "bomb", 10);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].game_no, 2);
  EXPECT_EQ(games[1].game_no, 1);
  // Replaced by (player, room, game_no).
  RatedGameRow again{"p1", "R1", 1, "bomb", 5000, 1, "p2", 0, 1490, 1470.75, 180};
  store->submit({PutRatedGame{again}});
  store->flush();
  games = store->rated_games("p1", "bomb", 10);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].game_no, 1) << "now the latest";
  EXPECT_EQ(games[0].side, 1);
  EXPECT_EQ(games[0].opponent, "p2");
  EXPECT_EQ(games[0].score, 0);
  EXPECT_EQ(games[0].after, 1470.75);
  EXPECT_EQ(store->rated_games("p1", "", 10).size(), 4u);
  EXPECT_EQ(store->rated_games("p2", "", 10).size(), 1u);
  EXPECT_TRUE(store->rated_games("p1", "kaboom", 10).empty());
}

// A failed submission (a duplicate action) takes its players' writes down with it, whole.
TEST_P(PlayersStoreTest, APlayersWriteInAFailedSubmissionIsNotKept) {
  auto store = open();
  store->submit(new_room("R1"));
  store->submit({action("R1", 1)});
  store->flush();
  int ok = -1;
  store->submit({PutPlayer{account("p1", "Ann")}, PutSession{{"h1", "p1", 1, 1, ""}},
                 PutRating{rating("p1", "bomb", 1500, 300)},
                 PutRatedGame{rated("p1", "R1", 1, "bomb", 10)}, action("R1", 1)},
                [&](bool committed) { ok = committed ? 1 : 0; });
  store->flush();
  EXPECT_EQ(ok, 0);
  EXPECT_FALSE(store->player("p1"));
  EXPECT_FALSE(store->session("h1"));
  EXPECT_TRUE(store->ratings("p1").empty());
  EXPECT_TRUE(store->rated_games("p1", "", 10).empty());
}

// A database made before the players' tables gains them when a server opens it.
TEST_P(DurablePlayersStoreTest, ADatabaseWithoutThePlayersTablesGainsThem) {
  {
    auto store = must_open(where());
    store->submit(new_room("R1"));
    store->flush();
  }
  for (const char* table : {"rated_games", "ratings", "sessions", "players"})
    raw(std::string("DROP TABLE ") + table);
  auto store = must_open(where());
  ASSERT_TRUE(store);
  store->submit({PutPlayer{account("p1", "Ann")}, PutPlayer{account("p2", "ann")},
                 PutSession{{"h1", "p1", 1, 1, ""}}, PutRating{rating("p1", "bomb", 1500, 60)},
                 PutRatedGame{rated("p1", "R1", 1, "bomb", 10)}});
  store->flush();
  EXPECT_EQ(store->player_named("ann")->id, "p1");
  EXPECT_FALSE(store->player("p2")) << "the name's unique index is made too";
  EXPECT_EQ(store->sessions("p1").size(), 1u);
  EXPECT_EQ(store->leaderboard("bomb", 100, 10).size(), 1u);
  EXPECT_EQ(store->rated_games("p1", "", 10).size(), 1u);
  EXPECT_TRUE(store->has_room("R1"));
  EXPECT_EQ(raw("SELECT value FROM meta WHERE key='schema'"), "2");
}

TEST_P(DurablePlayersStoreTest, ThePlayersRowsSurviveReopening) {
  {
    auto store = must_open(where());
    store->submit({PutPlayer{account("p1", "Ann")}, PutSession{{"h1", "p1", 1, 2, "x"}},
                   PutRating{rating("p1", "bomb", 1512.5, 61.25)},
                   PutRatedGame{rated("p1", "R1", 1, "bomb", 10)}});
    store->flush();
  }
  auto store = must_open(where());
  EXPECT_EQ(store->player_named("ann")->id, "p1");
  EXPECT_EQ(store->session("h1")->label, "x");
  ASSERT_EQ(store->ratings("p1").size(), 1u);
  EXPECT_EQ(store->ratings("p1")[0].rating, 1512.5);
  EXPECT_EQ(store->rated_games("p1", "bomb", 5).size(), 1u);
}

}  // namespace bc::store::players_test
