// Perft: the number of leaves of the complete-turn tree (RULES.md K5, T7).
#include "internal.hpp"

namespace bc {

std::uint64_t perft_leaves(const Game& g, int depth) {
  if (depth <= 0) return 1;
  if (g.over()) return 0;
  if (const auto* c = std::get_if<CheckersState>(&g.state())) {
    return detail::checkers_perft(*c, detail::rules_of(g.variant(), g.options()), g.options(),
                                  depth);
  }
  std::uint64_t n = 0;
  for (const Action& a : g.legal()) {  // every Kaboom action is a whole turn
    const auto applied = g.apply(a);
    n += depth == 1 ? 1 : perft_leaves(applied->next, depth - 1);
  }
  return n;
}

std::vector<std::uint64_t> perft(const Game& g, int depth) {
  std::vector<std::uint64_t> out;
  for (int d = 1; d <= depth; ++d) out.push_back(perft_leaves(g, d));
  return out;
}

}  // namespace bc
