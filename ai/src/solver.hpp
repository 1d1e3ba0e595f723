// The exact Kaboom solver's memo kept across several positions (internal to the ai library): the
// analysis solves a position's every child, or a game's every position, over one memo.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "bc/ai.hpp"

namespace bc::ai::detail {

class KaboomSolver {
 public:
  // Every position asked about must have the variant and options of `like` (the keys leave them
  // out). Over budget once the memo holds max_positions, `stop` is set or `deadline` passes; from
  // then on every answer is nullopt.
  KaboomSolver(const Game& like, std::uint64_t max_positions, const std::atomic<bool>* stop,
               std::optional<std::chrono::steady_clock::time_point> deadline);
  ~KaboomSolver();
  KaboomSolver(const KaboomSolver&) = delete;
  KaboomSolver& operator=(const KaboomSolver&) = delete;

  // The exact value of g (Kaboom, at most kSolverMaxCells cells) for its side to move, a win's or
  // loss's distance included, a draw's not (kUnknownDistance: ask draw_distance, once every value
  // wanted is known, since it can cost more than they did); `best` is left empty. nullopt when
  // over budget.
  std::optional<SolvedValue> value(const Game& g);
  // The distance of a draw found by value(): Gamesman's remoteness of a tie, or kUnknownDistance
  // when the budget runs out finding it (the solver goes on answering as far as it still goes).
  int draw_distance(const Game& g);
  bool aborted() const;
  std::uint64_t positions() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace bc::ai::detail
