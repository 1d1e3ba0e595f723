// Quick pairing's waves: the range widening with waiting, no rematch while others wait, every
// player in one pair at most, and the matching as good as an exhaustive search on small pools.
#include "bc/players/pairing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace bc::players {
namespace {

constexpr std::int64_t kNow = 1'800'000'000'000;

Waiter waiter(std::uint64_t id, double rating, double waited_s = 0,
              std::optional<std::uint64_t> last = std::nullopt) {
  return {id, rating, kNow - static_cast<std::int64_t>(waited_s * 1000), last};
}

TEST(Pairing, TheRangeWidensWithWaitingUpToItsBound) {
  const PairingParams p;
  EXPECT_EQ(accepted_range(kNow, kNow, p), 150);
  EXPECT_EQ(accepted_range(kNow - 10'000, kNow, p), 300);
  EXPECT_EQ(accepted_range(kNow - 3'600'000, kNow, p), 800);
  EXPECT_EQ(accepted_range(kNow + 5'000, kNow, p), 150)
      << "a clock that went back counts as no wait";
}

TEST(Pairing, PlayersFarApartInRatingMeetOnlyOnceBothHaveWaited) {
  const std::vector<Waiter> now{waiter(1, 1500), waiter(2, 1900)};
  EXPECT_TRUE(pair_wave(now, kNow).empty());
  const std::vector<Waiter> one_waited{waiter(1, 1500, 60), waiter(2, 1900)};
  EXPECT_TRUE(pair_wave(one_waited, kNow).empty()) << "both must accept the difference";
  const std::vector<Waiter> both_waited{waiter(1, 1500, 20), waiter(2, 1900, 20)};
  const auto pairs = pair_wave(both_waited, kNow);
  ASSERT_EQ(pairs.size(), 1u);
}

TEST(Pairing, TheClosestRatingsArePairedAndNobodyTwice) {
  const std::vector<Waiter> pool{waiter(1, 1500), waiter(2, 1520), waiter(3, 1600), waiter(4, 1610),
                                 waiter(5, 2400)};
  const auto pairs = pair_wave(pool, kNow);
  ASSERT_EQ(pairs.size(), 2u);
  std::set<std::pair<std::uint64_t, std::uint64_t>> met;
  for (auto [i, j] : pairs) met.insert(std::minmax(pool[i].id, pool[j].id));
  EXPECT_EQ(met, (std::set<std::pair<std::uint64_t, std::uint64_t>>{{1, 2}, {3, 4}}));
}

TEST(Pairing, TwoWhoJustMetAreNotPairedAgainWhileOthersWait) {
  // 1 and 2 are closest, but just played: each meets someone else.
  const std::vector<Waiter> pool{waiter(1, 1500, 0, 2), waiter(2, 1505, 0, 1), waiter(3, 1550),
                                 waiter(4, 1560)};
  const auto pairs = pair_wave(pool, kNow);
  ASSERT_EQ(pairs.size(), 2u);
  for (auto [i, j] : pairs) {
    EXPECT_FALSE((pool[i].id == 1 && pool[j].id == 2) || (pool[i].id == 2 && pool[j].id == 1));
  }
  // Alone in the pool they may play again.
  const std::vector<Waiter> alone{waiter(1, 1500, 0, 2), waiter(2, 1505, 0, 1)};
  EXPECT_EQ(pair_wave(alone, kNow).size(), 1u);
}

TEST(Pairing, AmongEqualMatchesThoseWhoWaitedLongerGoFirst) {
  const std::vector<Waiter> pool{waiter(1, 1500, 1), waiter(2, 1500, 30), waiter(3, 1500, 40)};
  const auto pairs = pair_wave(pool, kNow);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(std::set<std::uint64_t>({pool[pairs[0].first].id, pool[pairs[0].second].id}),
            (std::set<std::uint64_t>{2, 3}));
}

// The best matching's weight by trying every one: the first unmatched player waits or meets one
// of the others.
double exhaustive(const std::vector<Waiter>& pool, std::vector<bool>& used, std::int64_t now) {
  std::size_t i = 0;
  while (i < pool.size() && used[i]) ++i;
  if (i == pool.size()) return 0;
  used[i] = true;
  double best = exhaustive(pool, used, now);
  for (std::size_t j = i + 1; j < pool.size(); ++j) {
    if (used[j] || !pairable(pool[i], pool[j], pool.size(), now, {})) continue;
    used[j] = true;
    best = std::max(best, pair_weight(pool[i], pool[j], now) + exhaustive(pool, used, now));
    used[j] = false;
  }
  used[i] = false;
  return best;
}

TEST(Pairing, AWaveOfUpToNineIsAsGoodAsAnExhaustiveSearch) {
  std::mt19937_64 rng(20261129);
  int differing = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::size_t n = 2 + rng() % 8;
    std::vector<Waiter> pool;
    for (std::size_t k = 0; k < n; ++k) {
      const double rating = 1200 + static_cast<double>(rng() % 900);
      pool.push_back(waiter(k + 1, rating, static_cast<double>(rng() % 40)));
    }
    // Some just played each other.
    for (std::size_t k = 0; k + 1 < n; k += 2) {
      if (rng() % 3 == 0) {
        pool[k].last_opponent = pool[k + 1].id;
        pool[k + 1].last_opponent = pool[k].id;
      }
    }
    const auto pairs = pair_wave(pool, kNow);
    std::vector<int> seen(n, 0);
    for (auto [i, j] : pairs) {
      ASSERT_TRUE(pairable(pool[i], pool[j], n, kNow, {}));
      ++seen[i];
      ++seen[j];
    }
    ASSERT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s <= 1; }));
    std::vector<bool> used(n, false);
    const double best = exhaustive(pool, used, kNow);
    const double got = matching_weight(pool, pairs, kNow);
    ASSERT_LE(got, best + 1e-6);
    if (got < best - 1e-6) ++differing;
  }
  EXPECT_EQ(differing, 0) << "pools where the wave found less than the best matching";
}

}  // namespace
}  // namespace bc::players

namespace bc::players {
namespace {

TEST(Pairing, ALargePoolPairsEachPlayerOnceAndOnlyWithinTheirRanges) {
  std::mt19937_64 rng(7);
  std::vector<Waiter> pool;
  for (std::uint64_t k = 0; k < 5000; ++k) {
    std::normal_distribution<double> rating(1500, 300);
    pool.push_back(waiter(k + 1, rating(rng), static_cast<double>(rng() % 60),
                          k % 7 == 0 ? std::optional(k + 2) : std::nullopt));
  }
  const auto pairs = pair_wave(pool, kNow);
  std::vector<int> seen(pool.size(), 0);
  for (auto [i, j] : pairs) {
    ASSERT_TRUE(pairable(pool[i], pool[j], pool.size(), kNow, {}));
    ++seen[i];
    ++seen[j];
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s <= 1; }));
  EXPECT_GT(pairs.size(), pool.size() * 45 / 100) << "nearly everyone has someone close by";
}

}  // namespace
}  // namespace bc::players
