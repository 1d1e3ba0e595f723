// The analyst without sockets (server/host/analysis.hpp): an earlier game's load, which reads the
// store and replays the game on a computer thread, counts against the request's budget and is
// kept, so one request cannot hold a computer thread for seconds and the next answers at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/host/analysis.hpp"

namespace bc::server {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

// A 4x4 Kaboom board, connect 3, no bombs: solved in milliseconds, even under a sanitizer.
GamePositions small_game() {
  Options o;
  for (auto [name, value] : {std::pair{"width", 4}, {"height", 4}, {"connect", 3}, {"bombs", 0}}) {
    EXPECT_FALSE(set_option(o, VariantId::Kaboom, name, value));
  }
  Game g = std::get<Game>(Game::create(VariantId::Kaboom, o));
  GamePositions p{{0, g}};
  g = g.apply(g.legal()[0])->next;
  p.emplace_back(1, g);
  return p;
}

class AnalystTest : public ::testing::Test {
 protected:
  // The room form of game 1 of room R, its load taking `load_time`; waits for the answer.
  json ask(std::chrono::milliseconds load_time, std::optional<std::int64_t> version = 0) {
    AnalysisJob job;
    job.room = "R";
    job.id = std::string("q");
    job.game_number = 1;
    job.version = version;
    job.load = [this, load_time]() -> std::variant<GamePositions, std::string> {
      ++loads_;
      std::this_thread::sleep_for(load_time);
      return small_game();
    };
    auto answer = std::make_shared<std::promise<std::string>>();
    auto got = answer->get_future();
    job.wanted = [] { return true; };
    job.reply = [answer](std::string text) { answer->set_value(std::move(text)); };
    analyst_.submit(std::move(job));
    if (got.wait_for(30s) != std::future_status::ready) throw std::runtime_error("no answer");
    return json::parse(got.get());
  }

  Metrics metrics_;
  ComputerPool pool_{1, 16, metrics_};
  Analyst analyst_{&pool_};
  std::atomic<int> loads_{0};
};

TEST_F(AnalystTest, AnEarlierGameIsLoadedOnceAndKept) {
  const json first = ask(0ms);
  ASSERT_EQ(first["type"], "analysis") << first.dump();
  EXPECT_EQ(first["version"], 0);
  const json second = ask(0ms, 1);
  ASSERT_EQ(second["type"], "analysis") << second.dump();
  EXPECT_EQ(second["version"], 1);
  EXPECT_EQ(loads_, 1) << "the second request read nothing again";
}

TEST_F(AnalystTest, ALoadThatTakesTheWholeSecondIsRefusedAndTheNextRequestAnswers) {
  const json over = ask(kAnalysisTime + 50ms);
  EXPECT_EQ(over["type"], "error") << over.dump();
  EXPECT_EQ(over["code"], "rate_limited");
  EXPECT_NE(over["message"].get<std::string>().find("asking again"), std::string::npos);
  const json again = ask(kAnalysisTime + 50ms);
  EXPECT_EQ(again["type"], "analysis") << again.dump();
  EXPECT_EQ(loads_, 1);
}

TEST_F(AnalystTest, TheLoadCountsInTheRequestsTime) {
  const json a = ask(300ms);
  ASSERT_EQ(a["type"], "analysis") << a.dump();
  EXPECT_GE(a["ms"].get<std::int64_t>(), 300) << "the load is part of the request's second";
}

TEST_F(AnalystTest, AVersionTheGameDoesNotHaveIsABadMessage) {
  const json e = ask(0ms, 9);
  EXPECT_EQ(e["code"], "bad_message");
  EXPECT_NE(e["message"].get<std::string>().find("has no version 9"), std::string::npos);
}

}  // namespace
}  // namespace bc::server
