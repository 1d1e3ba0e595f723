// Static evaluation per variant, from the point of view of the side to move.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "bc/core.hpp"

namespace bc::ai::detail {

// Evaluates positions of one game's variant and options (a search or a solve owns one; it holds
// precomputed Kaboom board masks, nothing mutable).
class Evaluator {
 public:
  explicit Evaluator(const Game& g);

  // The game must not be over (terminal positions are scored by the search).
  int operator()(const Game& g) const;

  // Kaboom: a bit per column x where `side` completes a line of N by dropping a piece now (the
  // column's lowest empty cell), ignoring misère. 0 for checkers.
  std::uint32_t winning_drops(const Game& g, Side side) const;

 private:
  struct KaboomBits {
    std::array<std::uint64_t, 2> own{};  // by side, bombs included (X4)
    std::uint64_t bombs = 0;
  };
  KaboomBits bits(const KaboomState& s) const;
  std::uint64_t winning_cells(std::uint64_t own) const;
  int kaboom_fast(const KaboomState& s) const;

  VariantId variant_;
  Options options_;
  // Kaboom bitboards (when width * (height + 1) <= 64): bit x * stride + y, a padding bit on
  // top of every column so that lines never wrap.
  bool fast_ = false;
  int stride_ = 0;
  std::uint64_t board_ = 0;
  std::uint64_t bottom_ = 0;
  std::uint64_t even_rows_ = 0;  // y = 0, 2, 4...: the first side's good threat rows
  std::array<int, 4> dirs_{};
  std::vector<std::uint64_t> windows_;
};

}  // namespace bc::ai::detail
