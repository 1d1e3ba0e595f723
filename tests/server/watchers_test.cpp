// Values for watchers over real sockets (docs/PROTOCOL.md, "Values for watchers"): a live game's
// values a few turns behind it for its spectators, never for its players, the live guard on each
// position, the host's switch; the position after each turn in `analyse`'s moves; and the puzzles'
// HTTP paths (docs/PUZZLES.md).
#include <fstream>

#include "../support/build_paths.hpp"
#include "analysis_fixture.hpp"

using namespace bc::server;
using namespace bc::test;

namespace {

const json kSmall = {{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}};

class WatchersTest : public AnalysisTest {
 protected:
  void SetUp() override {
    limits_.address_rate_per_second = 0;
    limits_.creates_per_address_per_minute = 0;
    limits_.analyses_per_address_per_minute = 0;
    limits_.watch_lag = 2;
    start();
  }
  // x and o seated in a small Kaboom room, and a spectator.
  struct Table {
    std::unique_ptr<WsClient> x, o, watcher;
    std::string room;
  };
  Table table() {
    Table t;
    t.x = connect();
    t.room = create(*t.x, "kaboom", "x", {{"options", kSmall}})["room"];
    t.o = connect();
    join(*t.o, t.room, "o");
    t.watcher = connect();
    join(*t.watcher, t.room, "spectator");
    return t;
  }
  // One drop by `by`, seen by `then` (its state of that version).
  static void drop(WsClient& by, WsClient& then, int column, int version) {
    by.send({{"type", "act"},
             {"action", {{"kind", "drop"}, {"column", column}}},
             {"version", version}});
    for (int i = 0; i < 10 && then.expect("state")["version"] != version + 1; ++i) {
    }
  }
  static json lagged(WsClient& c, json extra = json::object()) {
    json m = {{"history", true}, {"lagged", true}};
    m.update(extra);
    return ask(c, m);
  }
};

TEST_F(WatchersTest, AWatcherSeesValuesLagTurnsBehindAndThePlayersNone) {
  Table t = table();
  json none = lagged(*t.watcher);
  ASSERT_EQ(none["type"], "analysis_history") << none.dump();
  EXPECT_EQ(none["lag"], 2);
  EXPECT_TRUE(none["upto"].is_null());
  EXPECT_TRUE(none["values"].empty());
  for (auto* player : {t.x.get(), t.o.get()}) {
    json refused = lagged(*player);
    EXPECT_EQ(refused["code"], "analysis_not_allowed") << refused.dump();
    EXPECT_NE(refused["message"].get<std::string>().find("players"), std::string::npos);
  }
  drop(*t.x, *t.watcher, 0, 0);
  drop(*t.o, *t.watcher, 3, 1);
  drop(*t.x, *t.watcher, 0, 2);
  // Turn 3 is being played: turn 1 (version 1) is the last valued, two turns behind.
  json h = lagged(*t.watcher);
  ASSERT_EQ(h["type"], "analysis_history") << h.dump();
  EXPECT_EQ(h["upto"], 1);
  ASSERT_EQ(h["values"].size(), 2u);
  EXPECT_EQ(h["values"][0]["version"], 0);
  EXPECT_EQ(h["values"][1]["version"], 1);
  EXPECT_EQ(h["values"][1]["turn"], "o");
  EXPECT_EQ(h["values"][1]["value"]["kind"], "solved");
  // `from`: only what is new.
  json from1 = lagged(*t.watcher, {{"from", 1}});
  ASSERT_EQ(from1["values"].size(), 1u);
  EXPECT_EQ(from1["values"][0], h["values"][1]);
  EXPECT_TRUE(lagged(*t.watcher, {{"from", 2}})["values"].empty());
  // The plain forms stay closed to everyone while the game is on.
  EXPECT_EQ(ask(*t.watcher, {{"history", true}})["code"], "analysis_not_allowed");
  EXPECT_EQ(ask(*t.watcher, json::object())["code"], "analysis_not_allowed");

  t.o->send({{"type", "resign"}});
  for (int i = 0; i < 10 && t.watcher->expect("state")["status"] != "finished"; ++i) {
  }
  // Over: every version, as the plain history.
  json done = lagged(*t.watcher);
  EXPECT_EQ(done["lag"], 0);
  EXPECT_EQ(done["upto"], 3);
  ASSERT_EQ(done["values"].size(), 4u);
  EXPECT_EQ(done["values"][1], h["values"][1]);
  EXPECT_EQ(lagged(*t.x)["type"], "analysis_history") << "the players too, once it is over";
}

TEST_F(WatchersTest, APositionAnotherLiveGameIsPlayingHasNoValue) {
  Table t = table();
  drop(*t.x, *t.watcher, 1, 0);
  drop(*t.o, *t.watcher, 2, 1);
  drop(*t.x, *t.watcher, 1, 2);
  // Another two-person game on the same board at its start: the empty board is live there.
  auto c = connect();
  const std::string other = create(*c, "kaboom", "x", {{"options", kSmall}})["room"];
  auto d = connect();
  join(*d, other, "o");
  json h = lagged(*t.watcher);
  ASSERT_EQ(h["values"].size(), 2u) << h.dump();
  // The other game's start, and (version 1) a turn from it: neither valued.
  EXPECT_TRUE(h["values"][0]["value"].is_null()) << h.dump();
  EXPECT_EQ(h["values"][0]["turn"], "x");
  EXPECT_TRUE(h["values"][1]["value"].is_null());
  // Once that game moves on (elsewhere than column b), neither is anybody's live position.
  drop(*c, *d, 0, 0);
  drop(*d, *c, 0, 1);
  json later = lagged(*t.watcher);
  EXPECT_FALSE(later["values"][0]["value"].is_null()) << later.dump();
  EXPECT_FALSE(later["values"][1]["value"].is_null());
}

TEST_F(WatchersTest, TheHostCanTurnItOffAndTheWelcomeSaysTheLag) {
  stop();
  limits_.watch_lag = 0;
  start();
  auto c = std::make_unique<WsClient>(port_);
  EXPECT_EQ(c->expect("welcome")["analysis"]["watch_lag"], 0);
  Table t = table();
  drop(*t.x, *t.watcher, 0, 0);
  json refused = lagged(*t.watcher);
  EXPECT_EQ(refused["code"], "analysis_not_allowed") << refused.dump();
  EXPECT_NE(refused["message"].get<std::string>().find("no values"), std::string::npos);
  // Bad forms are bad messages, whatever the host says.
  EXPECT_EQ(ask(*t.watcher, {{"lagged", true}})["code"], "bad_message");
  EXPECT_EQ(ask(*t.watcher, {{"history", true}, {"from", 1}})["code"], "bad_message");
  EXPECT_EQ(ask(*t.watcher, {{"history", true}, {"lagged", true}, {"from", -1}})["code"],
            "bad_message");
}

TEST_F(WatchersTest, EachTurnOfAnAnalysisCarriesThePositionAfterIt) {
  auto c = connect();
  // x to move on a 4x4 board, connect 3: x at a1 and b1, o at a2 and b2.
  const json position = {{"pieces",
                          {{{"at", {0, 0}}, {"side", "x"}},
                           {{"at", {1, 0}}, {"side", "x"}},
                           {{"at", {0, 1}}, {"side", "o"}},
                           {{"at", {1, 1}}, {"side", "o"}}}},
                         {"turn", "x"}};
  json a = ask(*c, {{"variant", "kaboom"}, {"options", kSmall}, {"position", position}});
  ASSERT_EQ(a["type"], "analysis") << a.dump();
  ASSERT_EQ(a["moves"].size(), 4u);
  const std::vector<std::string> after = {"o:a1,b1,a3:a2,b2:0,0", "o:a1,b1,b3:a2,b2:0,0",
                                          "o:a1,b1,c1:a2,b2:0,0", "o:a1,b1,d1:a2,b2:0,0"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(a["moves"][i]["actions"][0]["column"], i);
    EXPECT_EQ(a["moves"][i]["position"], after[i]);
  }
}

TEST_F(WatchersTest, ThePuzzlesAreServedAndABadCollectionStopsTheStart) {
  stop();
  ServerConfig cfg = loopback_config();
  cfg.puzzles = kPuzzles;
  ASSERT_FALSE(running_.start(cfg));
  const auto port = running_.port();
  std::ifstream in(kPuzzles);
  const json file = json::parse(in);
  const json& first = file["puzzles"][0];
  auto list = http_get(port, "/api/puzzles");
  ASSERT_EQ(list.status, 200);
  const json j = json::parse(list.body);
  EXPECT_EQ(j["count"], file["puzzles"].size());
  EXPECT_EQ(j["puzzles"][0]["id"], first["id"]);
  EXPECT_FALSE(j["puzzles"][0].contains("line"));
  auto one = http_get(port, "/api/puzzles/" + first["id"].get<std::string>());
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(json::parse(one.body)["line"], first["line"]);
  EXPECT_EQ(http_get(port, "/api/puzzles/kb-0000000000").status, 404);
  EXPECT_EQ(http_get(port, "/api/puzzles?difficulty=9").status, 400);
  const auto kaboom = json::parse(http_get(port, "/api/puzzles?kind=kaboom").body);
  EXPECT_EQ(kaboom["count"], j["kinds"]["kaboom"]);
  running_.stop();

  const auto bad = std::filesystem::temp_directory_path() / "bc-bad-puzzles.json";
  std::ofstream(bad) << R"({"format":1,"puzzles":[{"id":"kb-1"}]})";
  cfg.puzzles = bad;
  const auto refused = running_.start(cfg);
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("the puzzles: "), std::string::npos) << *refused;
  std::filesystem::remove(bad);
}

}  // namespace
