// Puzzles whose answer is proven (bc/ai_puzzles.hpp, docs/PUZZLES.md): each position on the line
// is analysed with every turn's value, and the solver's turn must be the only winning one.
#include <algorithm>
#include <utility>

#include "bc/ai.hpp"
#include "bc/ai_analysis.hpp"
#include "bc/ai_notation.hpp"
#include "bc/ai_puzzles.hpp"

namespace bc::ai {
namespace {

AnalysisLimits step_limits(const Game& g, const PuzzleLimits& l) {
  AnalysisLimits a;
  a.time = l.step_time;
  a.stop = l.stop;
  a.max_positions = l.max_positions;
  a.turns = true;
  a.exact_only = puzzle_is_exact(g);
  // Only wins are told from the rest: a tie's distance would cost more than the whole proof.
  a.draw_distance = false;
  return a;
}

// Proven not to win: solved as a tie or a loss, or (search) proven lost, or ending the game drawn.
bool proven_not_win(const Value& v, bool exact) {
  if (!v.outcome || *v.outcome == Outcome::Win) return false;
  return exact ? v.exact : (*v.outcome == Outcome::Loss || v.exact);
}

std::string where(std::size_t ply) {
  return "at turn " + std::to_string(ply + 1) + " of the line";
}

struct Found {
  Turn turn;
  int remoteness = 0;
  std::vector<Turn> also;  // the other winning turns
};

// The solver's turn at `g`: its fastest win (the first of equals), with the other winning turns;
// `only`: it must be the only winning turn, every other proven not to win. Or why there is none.
std::variant<Found, std::string> solver_turn(const Game& g, const PuzzleLimits& l, bool exact,
                                             bool only) {
  const Analysis a = analyse_position(g, step_limits(g, l));
  if (exact && !a.value.exact) return std::string("the solver did not finish within the limits");
  const TurnValue* win = nullptr;
  std::vector<const TurnValue*> others;
  for (const TurnValue& t : a.turns) {
    if (t.value.outcome == Outcome::Win) {
      if (win != nullptr && only) {
        return "both " + format_turn(win->turn) + " and " + format_turn(t.turn) + " win";
      }
      if (win == nullptr || t.value.remoteness < win->value.remoteness) {
        if (win != nullptr) others.push_back(win);
        win = &t;
      } else {
        others.push_back(&t);
      }
    } else if (only && !proven_not_win(t.value, exact)) {
      return format_turn(t.turn) + " is not proven to draw or lose";
    }
  }
  if (win == nullptr) return std::string("the side to move does not win");
  Found f{win->turn, win->value.remoteness, {}};
  for (const TurnValue* t : others) f.also.push_back(t->turn);
  return f;
}

// The opponent's reply at `g`: the longest loss, the first of equals in Game::turns()'s order.
std::variant<Turn, std::string> longest_loss(const Game& g, const PuzzleLimits& l) {
  const Analysis a = analyse_position(g, step_limits(g, l));
  if (a.value.outcome != Outcome::Loss || a.turns.empty()) {
    return std::string("the opponent's position is not proven lost");
  }
  const auto best = std::max_element(
      a.turns.begin(), a.turns.end(),
      [](const auto& x, const auto& y) { return x.value.remoteness < y.value.remoteness; });
  return best->turn;
}

std::optional<Game> play(const Game& g, const Turn& t) {
  const auto turns = g.turns();
  if (std::find(turns.begin(), turns.end(), t) == turns.end()) return std::nullopt;
  Game next = g;
  for (const Action& a : t.actions) {
    auto applied = next.apply(a);
    if (!applied) return std::nullopt;
    next = std::move(applied->next);
  }
  return next;
}

bool solver_won(const Game& g, Side solver) {
  return g.over() && g.result()->winner && *g.result()->winner == solver;
}

}  // namespace

bool puzzle_is_exact(const Game& start) {
  return start.variant() == VariantId::Kaboom && start.width() * start.height() <= kSolverMaxCells;
}

int puzzle_difficulty(int remoteness) {
  return std::clamp((remoteness + 1) / 2, 1, 5);
}

std::variant<PuzzleLine, std::string> find_puzzle(const Game& start, const PuzzleLimits& limits) {
  if (start.over()) return std::string("the game is over");
  if (start.turns().size() < 2) return std::string("the side to move has a single turn");
  const bool exact = puzzle_is_exact(start);
  const Side solver = start.turn();
  PuzzleLine line;
  line.exact = exact;
  Game g = start;
  int promised = 0;
  while (!g.over()) {
    const std::size_t ply = line.turns.size();
    if (ply > static_cast<std::size_t>(limits.max_remoteness)) {
      return "the line is longer than " + std::to_string(limits.max_remoteness) + " turns";
    }
    Turn turn;
    std::vector<Turn> also;
    if (g.turn() == solver) {
      auto found = solver_turn(g, limits, exact, ply == 0);
      if (auto* why = std::get_if<std::string>(&found)) return *why + " " + where(ply);
      auto& f = std::get<Found>(found);
      also = std::move(f.also);
      if (ply == 0) {
        promised = f.remoteness;
        if (promised < limits.min_remoteness || promised > limits.max_remoteness) {
          return "it wins in " + std::to_string(promised) + ", outside " +
                 std::to_string(limits.min_remoteness) + " to " +
                 std::to_string(limits.max_remoteness);
        }
      }
      turn = std::move(f.turn);
    } else {
      auto reply = longest_loss(g, limits);
      if (auto* why = std::get_if<std::string>(&reply)) return *why + " " + where(ply);
      turn = std::get<Turn>(std::move(reply));
    }
    auto next = play(g, turn);
    if (!next) return "an illegal turn " + where(ply);  // not reached: turns come from turns()
    g = std::move(*next);
    line.turns.push_back(std::move(turn));
    line.also.push_back(std::move(also));
  }
  if (!solver_won(g, solver)) return std::string("the line does not end in the solver's win");
  line.remoteness = static_cast<int>(line.turns.size());
  // The solver's value is exact: its fastest win against the longest defence is that long.
  if (exact && line.remoteness != promised) {
    return "the line has " + std::to_string(line.remoteness) + " turns, the solver said " +
           std::to_string(promised);
  }
  return line;
}

std::optional<std::string> check_puzzle(const Game& start, const std::vector<Turn>& line,
                                        const PuzzleLimits& limits) {
  const bool exact = puzzle_is_exact(start);
  const Side solver = start.turn();
  Game g = start;
  for (std::size_t ply = 0; ply < line.size(); ++ply) {
    if (g.over()) return "the game is over " + where(ply);
    if (g.turn() == solver && ply == 0) {
      auto found = solver_turn(g, limits, exact, true);
      if (auto* why = std::get_if<std::string>(&found)) return *why + " " + where(ply);
      if (std::get<Found>(found).turn != line[ply]) {
        return "the only winning turn is " + format_turn(std::get<Found>(found).turn) + ", not " +
               format_turn(line[ply]);
      }
    }
    auto next = play(g, line[ply]);
    if (!next) return format_turn(line[ply]) + " is not legal " + where(ply);
    if (g.turn() == solver && ply > 0 && !next->over()) {
      // A later turn need only win: the opponent's position after it is proven lost.
      AnalysisLimits a = step_limits(*next, limits);
      a.turns = false;
      if (analyse_position(*next, a).value.outcome != Outcome::Loss) {
        return format_turn(line[ply]) + " is not proven to win " + where(ply);
      }
    }
    g = std::move(*next);
  }
  if (!solver_won(g, solver)) return std::string("the line does not end in the solver's win");
  return std::nullopt;
}

}  // namespace bc::ai
