// Puzzles whose answer is proven (docs/PUZZLES.md): the finder (bc/ai_puzzles.hpp), its re-proof,
// the collection's file and answers (server/host/puzzles.hpp), and every puzzle the repository
// ships proven again.
#include "server/host/puzzles.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "../support/build_paths.hpp"
#include "bc/ai.hpp"
#include "bc/ai_notation.hpp"
#include "bc/ai_puzzles.hpp"
#include "server/wire/json.hpp"

namespace {

using namespace bc;
using namespace bc::server;

Game kaboom(int width, int height, int connect, int bombs) {
  Options o = default_options(VariantId::Kaboom);
  o.width = width;
  o.height = height;
  o.connect = connect;
  o.bombs = bombs;
  return std::get<Game>(Game::create(VariantId::Kaboom, o));
}

Game play(Game g, const Turn& t) {
  for (const Action& a : t.actions) g = g.apply(a)->next;
  return g;
}

ai::PuzzleLimits limits() {
  ai::PuzzleLimits l;
  l.step_time = std::chrono::seconds(20);  // the solver finishes these boards in milliseconds
  return l;
}

// The first puzzle of random games on a small board, from a fixed seed.
struct Found {
  Game start;
  ai::PuzzleLine line;
};
const Found& first_puzzle() {
  static const Found found = [] {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 5000; ++i) {
      Game g = kaboom(4, 4, 3, 1);
      const int k = 2 + static_cast<int>(rng() % 8);
      for (int t = 0; t < k && !g.over(); ++t) {
        const auto turns = g.turns();
        g = play(g, turns[rng() % turns.size()]);
      }
      if (g.over()) continue;
      auto f = ai::find_puzzle(g, limits());
      if (auto* line = std::get_if<ai::PuzzleLine>(&f)) return Found{g, *line};
    }
    throw std::runtime_error("no puzzle in 5000 random positions");
  }();
  return found;
}

TEST(Puzzles, TheFirstTurnIsTheOnlyOneThatWins) {
  const auto& [start, line] = first_puzzle();
  const Side solver = start.turn();
  int winning = 0;
  // Each first turn solved on its own (the solver's public entry, not the finder's analysis): the
  // opponent loses after the line's turn and after no other.
  for (const Turn& t : start.turns()) {
    const Game child = play(start, t);
    bool wins = child.over() && child.result()->winner == solver;
    if (!child.over()) {
      const auto v = ai::solve_kaboom(child);
      ASSERT_TRUE(v);
      wins = v->outcome == ai::Outcome::Loss;
    }
    winning += wins;
    EXPECT_EQ(wins, t == line.turns.front()) << ai::format_turn(t);
  }
  EXPECT_EQ(winning, 1);
  EXPECT_TRUE(line.exact);
  EXPECT_TRUE(line.also.front().empty());
}

TEST(Puzzles, TheLineAlternatesAndEndsInTheSolversWinInItsRemoteness) {
  const auto& [start, line] = first_puzzle();
  Game g = start;
  for (std::size_t ply = 0; ply < line.turns.size(); ++ply) {
    ASSERT_FALSE(g.over()) << ply;
    EXPECT_EQ(g.turn() == start.turn(), ply % 2 == 0);
    g = play(g, line.turns[ply]);
  }
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.result()->winner, start.turn());
  EXPECT_EQ(static_cast<int>(line.turns.size()), line.remoteness);
  EXPECT_EQ(line.remoteness % 2, 1);  // the solver makes the first turn and the last
  EXPECT_GE(line.remoteness, 3);
  EXPECT_EQ(ai::puzzle_difficulty(line.remoteness), std::min(5, (line.remoteness + 1) / 2));
  const auto v = ai::solve_kaboom(start);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->turns, line.remoteness);
}

TEST(Puzzles, TheReproofRefusesAnotherFirstTurnAShortLineAndAnIllegalTurn) {
  const auto& [start, line] = first_puzzle();
  EXPECT_EQ(ai::check_puzzle(start, line.turns, limits()), std::nullopt);
  auto other = line.turns;
  for (const Turn& t : start.turns()) {
    if (t != line.turns.front()) other.front() = t;
  }
  const auto wrong = ai::check_puzzle(start, other, limits());
  ASSERT_TRUE(wrong);
  EXPECT_NE(wrong->find("the only winning turn is"), std::string::npos) << *wrong;
  auto shorter = line.turns;
  shorter.pop_back();
  EXPECT_EQ(ai::check_puzzle(start, shorter, limits()),
            "the line does not end in the solver's win");
  auto twice = line.turns;
  twice[1] = twice[0];  // the same column again is legal; a turn from another position is not
  Turn far;
  far.actions.push_back(Action::drop(99, Kind::Normal));
  twice[1] = far;
  const auto illegal = ai::check_puzzle(start, twice, limits());
  ASSERT_TRUE(illegal);
  EXPECT_NE(illegal->find("is not legal at turn 2"), std::string::npos) << *illegal;
}

TEST(Puzzles, APositionWithTwoWinningTurnsOrNoWinIsNoPuzzle) {
  auto l = limits();
  l.min_remoteness = 1;
  l.max_remoteness = 40;
  // docs/SOLVED.md: 4x3 connect 3 without bombs, x wins in 9 with b or c (and later with a);
  // 3x3 is a tie.
  const auto two = ai::find_puzzle(kaboom(4, 3, 3, 0), l);
  ASSERT_TRUE(std::holds_alternative<std::string>(two));
  EXPECT_EQ(std::get<std::string>(two), "both a and b win at turn 1 of the line");
  const auto tie = ai::find_puzzle(kaboom(3, 3, 3, 0), l);
  ASSERT_TRUE(std::holds_alternative<std::string>(tie));
  EXPECT_EQ(std::get<std::string>(tie), "the side to move does not win at turn 1 of the line");
}

TEST(PuzzleFile, RoundTripsAndNamesWhatIsWrong) {
  const auto& [start, line] = first_puzzle();
  const Puzzle p = make_puzzle(start, line, "generated");
  EXPECT_EQ(p.kind, "kaboom");
  EXPECT_EQ(p.id.substr(0, 3), "kb-");
  EXPECT_EQ(p.id.size(), 13u);
  const std::string text = puzzles_file_json({p});
  auto back = parse_puzzles_file(text);
  ASSERT_TRUE(std::holds_alternative<std::vector<Puzzle>>(back)) << std::get<std::string>(back);
  const auto& read = std::get<std::vector<Puzzle>>(back);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].id, p.id);
  EXPECT_EQ(read[0].line, p.line);
  EXPECT_EQ(read[0].also, p.also);
  EXPECT_EQ(read[0].setup.game, start);

  auto refused = [&](const std::function<void(json&)>& change) {
    json j = json::parse(text);
    change(j);
    auto r = parse_puzzles_file(j.dump());
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string();
  };
  EXPECT_NE(refused([](json& j) {
              j["puzzles"][0]["id"] = "kb-0000000000";
            }).find("has the id of another position"),
            std::string::npos);
  EXPECT_NE(refused([](json& j) {
              j["puzzles"][0]["line"][0]["text"] = "Bz";
            }).find("is not legal there"),
            std::string::npos);
  EXPECT_NE(refused([](json& j) {
              j["puzzles"][0]["line"].erase(j["puzzles"][0]["line"].size() - 1);
            }).find("does not end in the win"),
            std::string::npos);
  EXPECT_NE(refused([](json& j) { j["puzzles"].push_back(j["puzzles"][0]); }).find("twice"),
            std::string::npos);
  EXPECT_NE(refused([](json& j) { j["format"] = 2; }).find("format"), std::string::npos);
  EXPECT_EQ(std::get<std::string>(parse_puzzles_file("{")), "the file is not a JSON object");
}

TEST(PuzzleCollection, ListsFiltersAndAnswersOne) {
  const auto& [start, line] = first_puzzle();
  const PuzzleCollection c({make_puzzle(start, line, "generated")});
  const auto all = c.list(std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(all.status, 200);
  const json j = json::parse(all.body);
  EXPECT_EQ(j["count"], 1);
  EXPECT_EQ(j["kinds"], (json{{"kaboom", 1}, {"ending", 0}}));
  const json& s = j["puzzles"][0];
  EXPECT_FALSE(s.contains("line"));
  EXPECT_FALSE(s.contains("position"));
  EXPECT_EQ(s["turn"], std::string(side_name(VariantId::Kaboom, start.turn())));
  EXPECT_EQ(s["text"], ai::format_position(start));
  EXPECT_EQ(json::parse(c.list("bomb", std::nullopt, std::nullopt).body)["count"], 0);
  EXPECT_EQ(json::parse(c.list(std::nullopt, "ending", std::nullopt).body)["count"], 0);
  const std::string level = std::to_string(ai::puzzle_difficulty(line.remoteness));
  EXPECT_EQ(json::parse(c.list("kaboom", "kaboom", level).body)["count"], 1);
  EXPECT_EQ(c.list("chess", std::nullopt, std::nullopt).status, 400);
  EXPECT_EQ(c.list(std::nullopt, "mate", std::nullopt).status, 400);
  EXPECT_EQ(c.list(std::nullopt, std::nullopt, "6").status, 400);
  EXPECT_EQ(c.list(std::nullopt, std::nullopt, "").status, 400);

  const auto one = c.one(s["id"].get<std::string>());
  EXPECT_EQ(one.status, 200);
  const json whole = json::parse(one.body);
  ASSERT_EQ(whole["line"].size(), line.turns.size());
  EXPECT_EQ(whole["line"][0]["text"], ai::format_turn(line.turns[0]));
  EXPECT_EQ(whole["line"][0]["position"], ai::format_position(play(start, line.turns[0])));
  EXPECT_EQ(whole["position"]["turn"], s["turn"]);
  EXPECT_EQ(c.one("kb-0000000000").status, 404);
}

// Every puzzle the repository ships: its line replayed, its first turn the only win, each later
// turn of the solver's a proven win.
TEST(ShippedPuzzles, EveryOneIsProvenAgain) {
  auto loaded = PuzzleCollection::load(test::kPuzzles);
  ASSERT_TRUE(std::holds_alternative<PuzzleCollection>(loaded)) << std::get<std::string>(loaded);
  const auto& puzzles = std::get<PuzzleCollection>(loaded).puzzles();
  std::map<std::string, int> kinds;
  for (const Puzzle& p : puzzles) ++kinds[p.kind];
  EXPECT_GE(kinds["kaboom"], 20);
  ai::PuzzleLimits l;
  l.step_time = std::chrono::seconds(30);
  for (const Puzzle& p : puzzles) {
    EXPECT_EQ(ai::check_puzzle(p.setup.game, p.line, l), std::nullopt) << p.id;
  }
}

}  // namespace
