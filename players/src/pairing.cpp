#include "bc/players/pairing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace bc::players {
namespace {

// A game for two more players outweighs any difference of ratings or waits between matchings.
constexpr double kGame = 1e6;
constexpr double kNone = -std::numeric_limits<double>::infinity();
// Partners are fewer than this many places apart in rating order (every matching of up to this many
// players is considered): 2^9 states a player.
constexpr std::size_t kWindow = 9;

}  // namespace

double accepted_range(std::int64_t since_ms, std::int64_t now_ms, const PairingParams& p) {
  const double waited = static_cast<double>(std::max<std::int64_t>(0, now_ms - since_ms)) / 1000.0;
  return std::min(p.max_range, p.base_range + p.range_per_second * waited);
}

bool pairable(const Waiter& a, const Waiter& b, std::size_t pool_size, std::int64_t now_ms,
              const PairingParams& p) {
  if (a.id == b.id) return false;
  const bool met = a.last_opponent == b.id || b.last_opponent == a.id;
  if (met && pool_size > 2) return false;
  const double diff = std::abs(a.rating - b.rating);
  return diff <=
         std::min(accepted_range(a.since_ms, now_ms, p), accepted_range(b.since_ms, now_ms, p));
}

double pair_weight(const Waiter& a, const Waiter& b, std::int64_t now_ms) {
  const double waited = static_cast<double>(std::max<std::int64_t>(0, now_ms - a.since_ms) +
                                            std::max<std::int64_t>(0, now_ms - b.since_ms)) /
                        1000.0;
  // Close ratings first; a second waited weighs as much as a tenth of a rating point, so waiting
  // breaks ties without pairing badly matched players before well matched ones.
  return kGame - std::abs(a.rating - b.rating) + 0.1 * std::min(waited, 3600.0);
}

double matching_weight(std::span<const Waiter> pool,
                       std::span<const std::pair<std::size_t, std::size_t>> pairs,
                       std::int64_t now_ms) {
  double w = 0;
  for (const auto& [i, j] : pairs) w += pair_weight(pool[i], pool[j], now_ms);
  return w;
}

std::vector<std::pair<std::size_t, std::size_t>> pair_wave(std::span<const Waiter> pool,
                                                           std::int64_t now_ms,
                                                           const PairingParams& p) {
  const std::size_t n = pool.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pool[a].rating != pool[b].rating ? pool[a].rating < pool[b].rating
                                            : pool[a].since_ms < pool[b].since_ms;
  });
  const auto w = [&](std::size_t i, std::size_t j) {  // positions in `order`
    const Waiter& a = pool[order[i]];
    const Waiter& b = pool[order[j]];
    return pairable(a, b, n, now_ms, p) ? pair_weight(a, b, now_ms) : kNone;
  };
  // The best matching in which partners are fewer than kWindow apart in rating order: a dynamic
  // programme over the players in that order whose state is which of the next kWindow players are
  // taken already (by a partner before them). value[m]: the best weight so far with mask m;
  // step[i][m]: how player i's turn reached mask m (the mask before it, and the partner's offset
  // ahead, 0 for none).
  struct Step {
    std::uint16_t from;
    std::uint8_t partner;
  };
  constexpr std::size_t kStates = std::size_t{1} << kWindow;
  std::vector<double> value(kStates, kNone);
  std::vector<double> next(kStates);
  std::vector<Step> step(n * kStates, Step{0, 0});
  value[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::fill(next.begin(), next.end(), kNone);
    Step* here = &step[i * kStates];
    const auto offer = [&](std::size_t from, std::size_t to, double v, std::size_t partner) {
      if (v > next[to]) {
        next[to] = v;
        here[to] = Step{static_cast<std::uint16_t>(from), static_cast<std::uint8_t>(partner)};
      }
    };
    // Player i's possible partners ahead, and their weights, once for every mask.
    std::size_t ahead[kWindow];
    double weight[kWindow];
    std::size_t partners = 0;
    for (std::size_t d = 1; d < kWindow && i + d < n; ++d) {
      const double pw = w(i, i + d);
      if (pw != kNone) {
        ahead[partners] = d;
        weight[partners++] = pw;
      }
    }
    for (std::size_t m = 0; m < kStates; ++m) {
      if (value[m] == kNone) continue;
      offer(m, m >> 1, value[m], 0);  // taken by an earlier partner, or waits
      if (m & 1) continue;
      for (std::size_t k = 0; k < partners; ++k) {
        const std::size_t d = ahead[k];
        if (!(m >> d & 1)) offer(m, (m | std::size_t{1} << d) >> 1, value[m] + weight[k], d);
      }
    }
    value.swap(next);
  }
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::size_t m = 0;  // every mask past the last player is empty
  for (std::size_t i = n; i-- > 0;) {
    const Step s = step[i * kStates + m];
    if (s.partner != 0) pairs.emplace_back(order[i], order[i + s.partner]);
    m = s.from;
  }
  std::reverse(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace bc::players
