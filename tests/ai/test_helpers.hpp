// Helpers for the AI tests: positions from text, playing a turn action by action with checks.
#pragma once

#include <gtest/gtest.h>

#include <bc/ai.hpp>
#include <bc/ai_notation.hpp>
#include <bc/core.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace bc {
// Readable turns in failure messages.
void PrintTo(const Turn& t, std::ostream* os);
}  // namespace bc

namespace bc::ai::test {

Options kaboom_options(int width, int height, int connect, int bombs);
// Fails the test (and returns the start position) if the text is refused.
Game position(VariantId v, std::string_view text, const Options& o);
Game position(VariantId v, std::string_view text);
// Plays a turn action by action: every action legal, the turn over exactly at the last one.
// nullopt if any of that fails.
std::optional<Game> play(const Game& g, const Turn& t);
// Whether t is one of g.turns().
bool is_legal_turn(const Game& g, const Turn& t);
// Search limits for tests: a node budget, never a clock.
SearchLimits node_limits(int level, std::uint64_t nodes, std::uint64_t seed = 1);

}  // namespace bc::ai::test
