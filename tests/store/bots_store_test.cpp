// Bots' rows (store.hpp; docs/BOTS.md), over every backend (backends.hpp): the bot mark, set by a
// player's write and never taken off, shown on the player and on leaderboard lines; API tokens by
// hash, listed newest first, a use and a new label written over the old, revoked by their holder
// alone.
#include <gtest/gtest.h>

#include <string>

#include "backends.hpp"

// In a namespace of their own: the store's tests are compiled together (a unity build).
namespace bc::store::bots_test {

using namespace bc::store::test;

class BotsStoreTest : public Backends {};
BC_EVERY_BACKEND(BotsStoreTest);

namespace {

PlayerRow account(const std::string& id, const std::string& name, bool bot) {
  PlayerRow p{id, name, name, "", 100};
  p.bot = bot;
  return p;
}

std::vector<std::string> ids(const std::vector<TokenRow>& rows) {
  std::vector<std::string> out;
  for (const auto& t : rows) out.push_back(t.id);
  return out;
}

}  // namespace

TEST_P(BotsStoreTest, ABotIsMarkedForGoodAndShownSoOnItsLeaderboardLines) {
  auto store = open();
  store->submit({PutPlayer{account("b1", "robo", true)}, PutPlayer{account("p1", "ann", false)},
                 PutRating{{"b1", "bomb:blitz", 1600, 60, 0.06, 5000, 1, 0, 0}},
                 PutRating{{"p1", "bomb:blitz", 1500, 60, 0.06, 5000, 0, 0, 1}}});
  store->flush();
  EXPECT_TRUE(store->player("b1")->bot);
  EXPECT_TRUE(store->player_named("robo")->bot);
  EXPECT_FALSE(store->player("p1")->bot);
  // A later write of the row without the mark (a name change, a new password) keeps it.
  store->submit({PutPlayer{account("b1", "robo", false)}});
  store->flush();
  EXPECT_TRUE(store->player("b1")->bot);
  const auto board = store->leaderboard("bomb:blitz", 500, 10);
  ASSERT_EQ(board.size(), 2U);
  EXPECT_EQ(board[0].name, "robo");
  EXPECT_TRUE(board[0].bot);
  EXPECT_FALSE(board[1].bot);
}

TEST_P(BotsStoreTest, TokensAreReadByHashListedNewestFirstAndRevokedByTheirHolderAlone) {
  auto store = open();
  store->submit({PutToken{{"h1", "id1", "b1", "first", 1000, 1000}},
                 PutToken{{"h2", "id2", "b1", "second", 3000, 3000}},
                 PutToken{{"h3", "id3", "b1", "third", 2000, 2000}},
                 PutToken{{"h4", "id4", "b2", "other's", 1500, 1500}}});
  store->flush();
  EXPECT_EQ(ids(store->tokens("b1")), (std::vector<std::string>{"id2", "id3", "id1"}));
  const auto t = store->token("h3");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->player, "b1");
  EXPECT_EQ(t->label, "third");
  EXPECT_FALSE(store->token("nope"));
  // A use: the last-seen time and label change, nothing else.
  store->submit({PutToken{{"h3", "id3", "b1", "renamed", 2000, 9000}}});
  store->flush();
  EXPECT_EQ(store->token("h3")->seen_ms, 9000);
  EXPECT_EQ(store->token("h3")->label, "renamed");
  EXPECT_EQ(store->token("h3")->created_ms, 2000);
  // Another player's id revokes nothing of b1's.
  store->submit({DropToken{"b2", "id1"}, DropToken{"b1", "id2"}});
  store->flush();
  EXPECT_EQ(ids(store->tokens("b1")), (std::vector<std::string>{"id3", "id1"}));
  EXPECT_FALSE(store->token("h2"));
  EXPECT_TRUE(store->token("h4"));
}

}  // namespace bc::store::bots_test
