// Quick pairing: one wave of a pool (players waiting for a game of one variant and time control)
// paired by a weighted matching. A pair's weight favours a game for everyone who can have one,
// then close ratings, then those who waited longest; a pair is allowed only when the rating
// difference is within the range both players' waits allow (it widens with waiting, as lichess's
// pools do), and two players who just met are not paired again while anyone else waits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace bc::players {

struct Waiter {
  std::uint64_t id;
  double rating;
  std::int64_t since_ms;  // when they started waiting
  std::optional<std::uint64_t> last_opponent;
};

struct PairingParams {
  double base_range = 150;       // rating points any two may differ by at once
  double range_per_second = 15;  // the range widens with each second waited
  double max_range = 800;        // up to this
};

/** The rating difference a player waiting since `since_ms` accepts at `now_ms`. */
double accepted_range(std::int64_t since_ms, std::int64_t now_ms, const PairingParams& p);

/** Whether `a` and `b` may be paired in a pool of `pool_size` at `now_ms`. */
bool pairable(const Waiter& a, const Waiter& b, std::size_t pool_size, std::int64_t now_ms,
              const PairingParams& p);

/** The weight of pairing `a` and `b` (higher is better); only for pairable ones. */
double pair_weight(const Waiter& a, const Waiter& b, std::int64_t now_ms);

/**
 * One wave: the pairs to start, as indices into `pool`. Each player is in one pair at most;
 * those in none wait for the next wave. The pool is sorted by rating and matched by a dynamic
 * programme that finds the best matching among those whose partners are fewer than nine places
 * apart in rating order: the best of all for a pool of up to nine (tests compare it with an
 * exhaustive search), O(n * 2^9) for larger ones.
 */
std::vector<std::pair<std::size_t, std::size_t>> pair_wave(std::span<const Waiter> pool,
                                                           std::int64_t now_ms,
                                                           const PairingParams& p = {});

/** The total weight of `pairs` of `pool` (what pair_wave maximises). */
double matching_weight(std::span<const Waiter> pool,
                       std::span<const std::pair<std::size_t, std::size_t>> pairs,
                       std::int64_t now_ms);

}  // namespace bc::players
