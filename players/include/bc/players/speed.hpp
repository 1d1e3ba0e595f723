// The speed of a time control, which a clocked game is rated in: lichess's estimate of a game's
// duration, the initial time plus forty increments, and its bounds (its ultra-bullet counts as
// bullet here). Days a move is correspondence.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace bc::players {

enum class Speed { bullet, blitz, rapid, classical, correspondence };

inline constexpr Speed kSpeeds[] = {Speed::bullet, Speed::blitz, Speed::rapid, Speed::classical,
                                    Speed::correspondence};

/** The estimated duration of a game under a clock of `initial_ms` plus `increment_ms` a move, in
 *  seconds: initial + 40 * increment. */
std::int64_t estimated_seconds(std::int64_t initial_ms, std::int64_t increment_ms);

/** The speed of a clock: bullet under 3 minutes estimated, blitz under 8, rapid under 25,
 *  classical under 6 hours, correspondence beyond. */
Speed speed_of_clock(std::int64_t initial_ms, std::int64_t increment_ms);

/** "bullet", "blitz", "rapid", "classical", "correspondence". */
std::string_view speed_name(Speed s);
std::optional<Speed> speed_from_name(std::string_view name);

}  // namespace bc::players
