// The `analyse` request over real sockets (docs/PROTOCOL.md, "Analysis"): who may ask when, the
// answers' shape, hints against the computer in the state, record and PDN, the cache, the limits
// and refusals, and hints surviving a restart.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "analysis_fixture.hpp"
#include "running_server.hpp"
#include "server/net/server.hpp"
#include "test_client.hpp"

namespace fs = std::filesystem;
using namespace bc::server;
using namespace bc::test;

namespace {

// x to move on a 4x4 board, connect 3, no bombs: x wins at once in column 2 (c), which lands on
// a1-b1-c1.
const json kWinInOne = {{"variant", "kaboom"},
                        {"options", {{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}}},
                        {"position",
                         {{"pieces",
                           {{{"at", {0, 0}}, {"side", "x"}},
                            {{"at", {1, 0}}, {"side", "x"}},
                            {{"at", {0, 1}}, {"side", "o"}},
                            {{"at", {1, 1}}, {"side", "o"}}}},
                          {"turn", "x"}}}};

TEST_F(AnalysisTest, AFreeKaboomPositionIsSolvedWithEveryTurnAndCached) {
  auto c = connect();
  json a = ask(*c, kWinInOne);
  ASSERT_EQ(a["type"], "analysis") << a.dump();
  EXPECT_EQ(a["id"], "q");
  EXPECT_EQ(a["variant"], "kaboom");
  EXPECT_EQ(a["turn"], "x");
  EXPECT_TRUE(a["version"].is_null());
  EXPECT_EQ(a["value"], (json{{"kind", "solved"}, {"outcome", "win"}, {"remoteness", 1}}));
  ASSERT_EQ(a["moves"].size(), 4u);  // a drop in each column
  int winning = 0;
  for (const auto& m : a["moves"]) {
    EXPECT_EQ(m["value"]["kind"], "solved");
    if (m["value"]["outcome"] == "win" && m["value"]["remoteness"] == 1) {
      ++winning;
      EXPECT_EQ(m["actions"][0]["column"], 2);
    }
  }
  EXPECT_EQ(winning, 1);
  EXPECT_EQ(a["cached"], false);
  json again = ask(*c, kWinInOne);
  EXPECT_EQ(again["cached"], true);
  EXPECT_EQ(again["ms"], 0);
  EXPECT_EQ(again["value"], a["value"]);
  EXPECT_EQ(again["moves"], a["moves"]);
  // Without the turns: the same value, no moves.
  json bare = kWinInOne;
  bare["moves"] = false;
  json v = ask(*c, bare);
  EXPECT_EQ(v["value"], a["value"]);
  EXPECT_TRUE(v["moves"].empty());
}

TEST_F(AnalysisTest, CheckersPositionsGetEstimatesWithADepth) {
  auto c = connect();
  json a = ask(*c, {{"variant", "bomb"}});  // the start
  ASSERT_EQ(a["type"], "analysis") << a.dump();
  EXPECT_EQ(a["turn"], "fire");
  EXPECT_EQ(a["value"]["kind"], "estimate");
  EXPECT_GE(a["value"]["depth"], 2);
  EXPECT_EQ(a["moves"].size(), 7u);  // the start's seven steps
  int best = -1000000;
  for (const auto& m : a["moves"]) {
    EXPECT_EQ(m["value"]["kind"], "estimate");
    EXPECT_EQ(m["value"]["depth"], a["value"]["depth"]);  // every turn to the same depth
    best = std::max(best, m["value"]["score"].get<int>());
  }
  EXPECT_EQ(a["value"]["score"], best);
}

TEST_F(AnalysisTest, ALiveGameBetweenPeopleIsNotAnalysedByAnyoneUntilItEnds) {
  auto a = connect();
  // No bombs: a board the solver finishes in milliseconds, even under a sanitizer.
  const json opts = {{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}};
  const std::string room = create(*a, "kaboom", "x", {{"options", opts}})["room"];
  // Waiting: nothing to analyse yet.
  EXPECT_EQ(ask(*a, json::object())["code"], "analysis_not_allowed");
  auto b = connect();
  join(*b, room, "o");
  auto s = connect();
  join(*s, room, "spectator");
  for (auto* c : {a.get(), b.get(), s.get()}) {
    json e = ask(*c, json::object());
    EXPECT_EQ(e["code"], "analysis_not_allowed") << e.dump();
    EXPECT_EQ(e["request"], "analyse");
    EXPECT_EQ(ask(*c, {{"history", true}})["code"], "analysis_not_allowed");
  }
  // Nor its position as a free one, nor a position a turn from it.
  const json free_start = {{"variant", "kaboom"}, {"options", opts}};
  EXPECT_EQ(ask(*s, free_start)["code"], "analysis_not_allowed");
  json one_on = free_start;
  one_on["position"] = {{"pieces", {{{"at", {1, 0}}, {"side", "x"}}}}, {"turn", "o"}};
  EXPECT_EQ(ask(*s, one_on)["code"], "analysis_not_allowed");
  // Another position is free to analyse.
  json elsewhere = free_start;
  elsewhere["position"] = {
      {"pieces", {{{"at", {1, 0}}, {"side", "x"}}, {{"at", {1, 1}}, {"side", "o"}}}},
      {"turn", "x"}};
  EXPECT_EQ(ask(*s, elsewhere)["type"], "analysis");

  a->send({{"type", "act"}, {"action", {{"kind", "drop"}, {"column", 1}}}, {"version", 0}});
  // The drop first, then the resignation (two connections: otherwise they may cross).
  for (int i = 0; i < 10 && b->expect("state")["version"] != 1; ++i) {
  }
  b->send({{"type", "resign"}});
  for (int i = 0; i < 10 && s->expect("state")["status"] != "finished"; ++i) {
  }
  // Over: everyone may, at any version, and the whole history.
  json at0 = ask(*s, {{"version", 0}});
  ASSERT_EQ(at0["type"], "analysis") << at0.dump();
  EXPECT_EQ(at0["version"], 0);
  EXPECT_EQ(at0["turn"], "x");
  json last = ask(*b, json::object());
  EXPECT_EQ(last["version"], 1);
  EXPECT_EQ(last["turn"], "o");
  json h = ask(*a, {{"history", true}});
  ASSERT_EQ(h["type"], "analysis_history") << h.dump();
  EXPECT_EQ(h["game"], 1);
  ASSERT_EQ(h["values"].size(), 2u);
  EXPECT_EQ(h["values"][0]["version"], 0);
  EXPECT_EQ(h["values"][1]["turn"], "o");
  EXPECT_EQ(h["values"][0]["value"], at0["value"]);
  EXPECT_EQ(ask(*s, free_start)["type"], "analysis");  // no longer live
  // A state after the end carries no hints: nobody analysed the game while it was played.
  s->send({{"type", "sync"}});
  EXPECT_TRUE(s->expect("state")["hints"].empty());
}

// Issue 31, hole 1: the values of a live game's turns came back from a third connection through a
// room against the computer made at its position, a one-screen room made at it (one action, resign,
// analyse version 0), and the same position mirrored.
TEST_F(AnalysisTest, TheLiveGuardHoldsForEveryFormAndTheMirroredPosition) {
  const json opts = {{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}};
  auto a = connect();
  const std::string room = create(*a, "kaboom", "x", {{"options", opts}})["room"];
  auto b = connect();
  join(*b, room, "o");
  a->send({{"type", "act"}, {"action", {{"kind", "drop"}, {"column", 1}}}, {"version", 0}});
  for (int i = 0; i < 10 && b->expect("state")["version"] != 1; ++i) {
  }
  // The live position: x at b1, o to move.
  const json live = {{"pieces", {{{"at", {1, 0}}, {"side", "x"}}}}, {"turn", "o"}};
  auto c = connect();
  c->send({{"type", "create"},
           {"variant", "kaboom"},
           {"options", opts},
           {"position", live},
           {"seat", "x"},
           {"opponent", {{"ai", 1}}}});
  const json refused = c->expect("error");
  EXPECT_EQ(refused["code"], "bad_position") << refused.dump();
  EXPECT_NE(refused["message"].get<std::string>().find("being played"), std::string::npos);

  json one_screen = create(*c, "kaboom", "both", {{"options", opts}, {"position", live}});
  c->send({{"type", "act"}, {"action", {{"kind", "drop"}, {"column", 0}}}, {"version", 0}});
  c->send({{"type", "resign"}});
  for (int i = 0; i < 10 && c->expect("state")["status"] != "finished"; ++i) {
  }
  json at0 = ask(*c, {{"version", 0}});
  EXPECT_EQ(at0["code"], "analysis_not_allowed") << at0.dump();
  EXPECT_EQ(ask(*c, {{"history", true}})["code"], "analysis_not_allowed");

  // Mirrored left to right: x at c1.
  const json mirrored = {
      {"variant", "kaboom"},
      {"options", opts},
      {"position", {{"pieces", {{{"at", {2, 0}}, {"side", "x"}}}}, {"turn", "o"}}}};
  EXPECT_EQ(ask(*c, mirrored)["code"], "analysis_not_allowed");

  b->send({{"type", "resign"}});
  for (int i = 0; i < 10 && a->expect("state")["status"] != "finished"; ++i) {
  }
  EXPECT_EQ(ask(*c, mirrored)["type"], "analysis") << "no longer live";
  EXPECT_EQ(ask(*c, {{"version", 0}})["type"], "analysis");
}

TEST_F(AnalysisTest, AComputerGameFromTheStartKeepsItsHintsWhileATwoPersonGameIsAtItsStart) {
  // The guard is for rooms made at a custom position: a two-person game left at its first turn
  // must not shut off every computer game's hints at the start.
  const json opts = {{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}};
  auto a = connect();
  const std::string room = create(*a, "kaboom", "x", {{"options", opts}})["room"];
  auto b = connect();
  join(*b, room, "o");
  auto c = connect();
  create(*c, "kaboom", "x", {{"options", opts}, {"opponent", {{"ai", 1}}}});
  c->drain(300ms);
  const json v = ask(*c, json::object());
  EXPECT_EQ(v["type"], "analysis") << v.dump();
}

TEST_F(AnalysisTest, ACheckersPositionTurnedHalfRoundWithTheColoursSwappedIsTheSamePosition) {
  auto a = connect();
  const std::string room = create(*a, "bomb", "fire")["room"];
  auto b = connect();
  join(*b, room, "water");
  json first;
  for (int i = 0; i < 10 && (first = a->expect("state"))["status"] != "playing"; ++i) {
  }
  a->send({{"type", "act"}, {"action", first["legal"][0]}, {"version", 0}});
  json s;
  for (int i = 0; i < 10 && (s = b->expect("state"))["version"] != 1; ++i) {
  }
  ASSERT_EQ(s["turn"], "water");
  json pieces = json::array();
  for (const json& p : s["board"]["pieces"]) {
    json q = p;
    q["at"] = {7 - p["at"][0].get<int>(), 7 - p["at"][1].get<int>()};
    q["side"] = p["side"] == "fire" ? "water" : "fire";
    pieces.push_back(q);
  }
  const json twin = {{"variant", "bomb"}, {"position", {{"pieces", pieces}, {"turn", "fire"}}}};
  auto c = connect();
  const json e = ask(*c, twin);
  EXPECT_EQ(e["code"], "analysis_not_allowed") << e.dump();
}

TEST_F(AnalysisTest, AgainstTheComputerAnalysisIsAHintInTheStateTheRecordAndThePdn) {
  auto a = connect();
  const std::string room =
      create(*a, "kaboom", "x",
             {{"options", {{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}}},
              {"opponent", {{"ai", 1}}}})["room"];
  a->drain(300ms);
  json v = ask(*a, json::object());
  ASSERT_EQ(v["type"], "analysis") << v.dump();
  EXPECT_EQ(v["value"]["kind"], "solved");
  // The room's state says so now (it was sent to everyone, before the answer).
  a->send({{"type", "sync"}});
  EXPECT_EQ(a->expect("state")["hints"], json::array({0}));
  // Asking again about the same version adds nothing.
  ask(*a, json::object());
  EXPECT_TRUE(a->drain(200ms).empty());
  HttpClient http(port_);
  auto rec = json::parse(http.get("/api/games/" + room).body);
  EXPECT_EQ(rec["hints"], json::array({0}));
  EXPECT_NE(http.get("/api/games/" + room + ".pdn").body.find("Hints: 0"), std::string::npos);
}

TEST_F(AnalysisTest, HintsSurviveARestart) {
  dir_ = fs::temp_directory_path() / ("bc-analysis-test-" + std::to_string(::getpid()));
  fs::remove_all(dir_);
  stop();
  start();
  auto a = connect();
  const std::string room = create(*a, "bomb", "fire", {{"opponent", {{"ai", 1}}}})["room"];
  a->drain(300ms);
  ASSERT_EQ(ask(*a, {{"moves", false}})["type"], "analysis");
  a.reset();
  stop();
  start();
  HttpClient http(port_);
  auto rec = json::parse(http.get("/api/games/" + room).body);
  EXPECT_EQ(rec["hints"], json::array({0})) << rec.dump();
}

TEST_F(AnalysisTest, BadRequestsAreRefusedAndChangeNothing) {
  auto a = connect();
  EXPECT_EQ(ask(*a, json::object())["code"], "unknown_room");
  EXPECT_EQ(ask(*a, {{"variant", "chess"}})["code"], "unknown_variant");
  EXPECT_EQ(ask(*a, {{"variant", "kaboom"}, {"options", {{"width", 99}}}})["code"], "bad_options");
  EXPECT_EQ(ask(*a, {{"variant", "bomb"},
                     {"position", {{"pieces", {{{"at", {0, 1}}, {"side", "fire"}}}}}}})["code"],
            "bad_position");
  EXPECT_EQ(ask(*a, {{"position", {{"pieces", json::array()}}}})["code"], "bad_message");
  EXPECT_EQ(ask(*a, {{"variant", "bomb"}, {"version", 3}})["code"], "bad_message");
  EXPECT_EQ(ask(*a, {{"version", -1}})["code"], "bad_message");
  EXPECT_EQ(ask(*a, {{"history", "yes"}})["code"], "bad_message");
  create(*a, "bomb", "fire", {{"opponent", {{"ai", 1}}}});
  a->drain(300ms);
  EXPECT_EQ(ask(*a, {{"version", 99}})["code"], "bad_message");
  EXPECT_EQ(ask(*a, {{"game", 2}})["code"], "bad_message");
  // The room still plays.
  a->send({{"type", "sync"}});
  EXPECT_EQ(a->expect("state")["status"], "playing");
}

TEST_F(AnalysisTest, AnAddressHasItsBudgetOfAnalyses) {
  limits_.analyses_per_address_per_minute = 6;
  stop();
  start();
  auto a = connect();
  // A history costs 5 of the 6; then one plain analysis, then none.
  auto b = connect();
  const std::string room = create(*a, "bomb", "fire")["room"];
  join(*b, room, "water");
  a->send({{"type", "resign"}});
  a->expect("state");
  EXPECT_EQ(ask(*a, {{"history", true}})["type"], "analysis_history");
  EXPECT_EQ(ask(*a, {{"moves", false}})["type"], "analysis");
  json e = ask(*b, {{"variant", "bomb"}});
  EXPECT_EQ(e["code"], "rate_limited");
  EXPECT_NE(e["message"].get<std::string>().find("analyses"), std::string::npos);
}

}  // namespace
