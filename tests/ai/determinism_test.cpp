// A seed and a node budget decide the search completely; different seeds make the low levels vary.
#include <atomic>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_helpers.hpp"

namespace bc::ai {
namespace {

using test::node_limits;

Game midgame(VariantId v, const Options& o, int turns, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Game g = std::get<Game>(Game::create(v, o));
  for (int i = 0; i < turns && !g.over(); ++i) {
    const auto all = g.turns();
    const Game next = *test::play(g, all[static_cast<std::size_t>(rng() % all.size())]);
    if (next.over()) break;
    g = next;
  }
  return g;
}

void expect_same(const SearchResult& a, const SearchResult& b) {
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.pv, b.pv);
}

TEST(Determinism, SameSeedAndNodesSameResult) {
  for (VariantId v : kAllVariants) {
    for (int level : {1, 3, 5, 8}) {
      const Game g = midgame(v, default_options(v), 6, 99);
      const SearchResult a = choose_turn(g, node_limits(level, 30'000, 42));
      const SearchResult b = choose_turn(g, node_limits(level, 30'000, 42));
      SCOPED_TRACE(std::string(variant_key(v)) + " level " + std::to_string(level));
      expect_same(a, b);
    }
  }
}

TEST(Determinism, NodeBudgetIsExact) {
  const Game g = midgame(VariantId::Bomb, default_options(VariantId::Bomb), 8, 5);
  SearchLimits limits = node_limits(kMaxLevel, 12'345);
  const SearchResult r = choose_turn(g, limits);
  EXPECT_EQ(r.nodes, 12'345u);
}

TEST(Determinism, FullStrengthIgnoresTheSeed) {
  const Game g = midgame(VariantId::Classic, default_options(VariantId::Classic), 6, 3);
  const SearchResult a = choose_turn(g, node_limits(kMaxLevel, 40'000, 1));
  const SearchResult b = choose_turn(g, node_limits(kMaxLevel, 40'000, 2));
  expect_same(a, b);
}

// Level 1 is noisy: over a few positions, different seeds choose different turns somewhere.
TEST(Determinism, BeginnerVariesWithTheSeed) {
  int differing = 0;
  for (std::uint64_t p = 0; p < 10; ++p) {
    const Game g = midgame(VariantId::Bomb, default_options(VariantId::Bomb), 5, p);
    std::set<std::string> seen;
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      seen.insert(format_turn(choose_turn(g, node_limits(1, 2000, seed)).best));
    }
    if (seen.size() > 1) ++differing;
  }
  EXPECT_GE(differing, 5);
}

}  // namespace
}  // namespace bc::ai

namespace bc::ai {
namespace {

// No shared mutable state: searches on different games in parallel threads give exactly what
// they give one after the other.
TEST(Determinism, ConcurrentSearchesMatchSequentialOnes) {
  std::vector<Game> games;
  for (VariantId v : kAllVariants) games.push_back(midgame(v, default_options(v), 4, 11));
  std::vector<SearchResult> sequential;
  for (const Game& g : games)
    sequential.push_back(choose_turn(g, node_limits(kMaxLevel, 40'000, 5)));
  std::vector<SearchResult> parallel(games.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < games.size(); ++i) {
    threads.emplace_back(
        [&, i] { parallel[i] = choose_turn(games[i], node_limits(kMaxLevel, 40'000, 5)); });
  }
  for (std::thread& t : threads) t.join();
  for (std::size_t i = 0; i < games.size(); ++i) expect_same(sequential[i], parallel[i]);
}

// A stop flag raised from another thread ends the search early with a legal turn.
TEST(Determinism, StopFlagFromAnotherThread) {
  const Game g = std::get<Game>(Game::create(VariantId::Bomb, default_options(VariantId::Bomb)));
  std::atomic<bool> stop{false};
  SearchLimits limits;
  limits.level = kMaxLevel;
  limits.nodes = 4'000'000'000ULL;  // far more than the test lets it use
  limits.stop = &stop;
  std::atomic<std::uint64_t> iterations{0};
  limits.on_iteration = [&](const IterationInfo& info) {
    if (info.depth >= 4) stop = true;  // raised from inside; a server raises it from its thread
    ++iterations;
  };
  const SearchResult r = choose_turn(g, limits);
  EXPECT_TRUE(test::is_legal_turn(g, r.best));
  EXPECT_GE(r.depth, 4);
  EXPECT_LT(r.depth, 30);
}

}  // namespace
}  // namespace bc::ai
