// Values of positions and of every turn from them (bc/ai_analysis.hpp): exact from the Kaboom
// solver over one memo where it finishes in time, else the search's estimates, every root turn
// searched to the same depth with one shared table so that they compare.
#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "bc/ai_analysis.hpp"
#include "eval.hpp"
#include "searcher.hpp"
#include "solver.hpp"
#include "tt.hpp"

namespace bc::ai {
namespace {

using detail::Clock;

// The search's table for an analysis: level 8's size.
constexpr std::size_t kTableMegabytes = detail::kLevels[kMaxLevel].tt_megabytes;

// The request's end: its deadline or its stop flag, whichever comes first.
struct Budget {
  Clock::time_point deadline;
  const std::atomic<bool>* stop = nullptr;

  bool stopped() const { return stop != nullptr && stop->load(std::memory_order_relaxed); }
  // Whole milliseconds left; 0 when none (or stopped).
  std::chrono::milliseconds left() const {
    if (stopped()) return std::chrono::milliseconds(0);
    const auto rest =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return std::max(rest, std::chrono::milliseconds(0));
  }
};

bool solvable(const Game& g) {
  return g.variant() == VariantId::Kaboom && g.width() * g.height() <= kSolverMaxCells;
}

// A comparable score: a win sooner is better, a loss later, a tie nearer its end (a tie ranks
// about 0, between them); else the estimate.
int rank(const Value& v) {
  if (!v.outcome) return v.score;
  switch (*v.outcome) {
    case Outcome::Win:
      return kWin - v.remoteness;
    case Outcome::Loss:
      return -(kWin - v.remoteness);
    case Outcome::Draw:  // one of unknown distance (kUnknownDistance) below the others
      return v.remoteness < 0 ? -kWin / 2 : -v.remoteness;
  }
  return 0;
}

Outcome flip(Outcome o) {
  return o == Outcome::Win ? Outcome::Loss : o == Outcome::Loss ? Outcome::Win : Outcome::Draw;
}

// A finished game's outcome for `side`.
Outcome outcome_for(const Game& over, Side side) {
  const auto& winner = over.result()->winner;
  if (!winner) return Outcome::Draw;
  return *winner == side ? Outcome::Win : Outcome::Loss;
}

// A finished game, for its side to move.
Value finished_value(const Game& g) {
  Value v;
  v.exact = true;
  v.outcome = outcome_for(g, g.turn());
  return v;
}

Value solved_value(const SolvedValue& s) {
  Value v;
  v.exact = true;
  v.outcome = s.outcome;
  v.remoteness = s.turns;
  return v;
}

Value static_value(const Game& g) {
  if (g.over()) return finished_value(g);
  Value v;
  v.score = detail::Evaluator(g)(g);
  return v;
}

// A search's result as the value of its root for the side to move there.
Value searched_value(const SearchResult& r) {
  Value v;
  v.score = r.score;
  v.depth = r.depth;
  if (is_decisive(r.score)) {
    v.outcome = r.score > 0 ? Outcome::Win : Outcome::Loss;
    v.remoteness = turns_to_end(r.score);
  }
  return v;
}

// The value of a turn for its mover, from the value of the position it leads to (for that
// position's side to move; `same_side` when the mover moves again, which complete turns never
// do). An exact tie is one turn further from its end too; a tie that is not exact (an estimate
// bounded by one) has no distance.
Value through(const Value& child, bool same_side) {
  Value v = child;
  if (!same_side) {
    v.score = -v.score;
    if (v.outcome) v.outcome = flip(*v.outcome);
  }
  if (v.outcome && (*v.outcome != Outcome::Draw || v.exact)) {
    v.remoteness = child.remoteness < 0 ? kUnknownDistance : child.remoteness + 1;
  }
  if (v.outcome && *v.outcome != Outcome::Draw && !v.exact) v.score = rank(v);
  if (!v.exact) v.depth = child.depth + 1;
  return v;
}

// A turn that ends the game: exact, for the mover.
Value ending_value(const Game& child, Side mover) {
  Value v;
  v.exact = true;
  v.outcome = outcome_for(child, mover);
  v.remoteness = 1;
  return v;
}

Game play(const Game& g, const Turn& t) {
  Game next = g;
  for (const Action& a : t.actions) next = next.apply(a)->next;
  return next;
}

// The position's value: its best turn's. Exact when every turn is, or when the best wins at once
// (nothing is better); an exact tie or loss among estimates only bounds the position.
Value best_of(const std::vector<TurnValue>& turns) {
  const auto best = std::max_element(turns.begin(), turns.end(), [](const auto& l, const auto& r) {
    return rank(l.value) < rank(r.value);
  });
  Value v = best->value;
  // The nearest tie is known only if no tie of unknown distance could be nearer (none is nearer
  // than a turn that ends the game).
  if (v.outcome == Outcome::Draw && v.remoteness > 1 &&
      std::any_of(turns.begin(), turns.end(), [](const auto& t) {
        return t.value.outcome == Outcome::Draw && t.value.remoteness < 0;
      })) {
    v.remoteness = kUnknownDistance;
  }
  const bool all_exact =
      std::all_of(turns.begin(), turns.end(), [](const auto& t) { return t.value.exact; });
  if (!v.exact || all_exact || v.outcome == Outcome::Win) return v;
  v.exact = false;
  if (v.outcome == Outcome::Draw) v.outcome.reset();
  v.score = rank(v);
  for (const TurnValue& t : turns) v.depth = std::max(v.depth, t.value.depth);
  return v;
}

// One search of `g` at level 8 on the shared table, capped at `depth` if given; `full`: no early
// stop before the cap (only the deadline ends it).
SearchResult search(const Game& g, std::chrono::milliseconds time, const std::atomic<bool>* stop,
                    TranspositionTable& tt, std::optional<int> depth, bool full) {
  SearchLimits limits;
  limits.level = kMaxLevel;
  limits.time = time;
  limits.depth = depth;
  limits.stop = stop;
  limits.tt = &tt;
  // With a callback a forced move is searched too, not answered at once with no score.
  limits.on_iteration = [](const IterationInfo&) {};
  const std::uint8_t generation = tt.impl().generation;
  auto searcher = std::make_unique<detail::Searcher>(g, limits, tt.impl());
  // One generation for the whole analysis: each root turn's entries stay as fresh as the others'.
  if (full) tt.impl().generation = generation;
  if (full) searcher->no_soft_stop();
  return searcher->run();
}

// The position's value alone by one search, or its static value when there is no time.
Value estimate_position(const Game& g, const Budget& budget, TranspositionTable& tt,
                        std::uint64_t& work) {
  if (g.over()) return finished_value(g);
  const auto time = budget.left();
  if (time.count() <= 0) return static_value(g);
  const SearchResult r = search(g, time, budget.stop, tt, std::nullopt, false);
  work += r.nodes;
  if (r.depth == 0) return static_value(g);
  return searched_value(r);
}

// Every turn searched to depth 1, 2, ... until the time is out; each keeps its value from the
// deepest depth that every turn completed.
void estimate_turns(const Game& game, const Budget& budget, TranspositionTable& tt, Analysis& out) {
  const Side mover = game.turn();
  const detail::Evaluator eval(game);
  std::vector<Game> children;
  std::vector<bool> settled;  // ended the game, or a proven end within the searched depth
  for (Turn& t : game.turns()) {
    Game child = play(game, t);
    Value v;
    if (child.over()) {
      v = ending_value(child, mover);
    } else {
      Value c;
      c.score = eval(child);
      v = through(c, child.turn() == mover);
    }
    settled.push_back(child.over());
    children.push_back(std::move(child));
    out.turns.push_back({std::move(t), v});
  }
  tt.impl().new_search();
  std::vector<Value> next(children.size());
  for (int d = 1; d < detail::kMaxDepth; ++d) {
    if (std::all_of(settled.begin(), settled.end(), [](bool s) { return s; })) break;
    bool complete = true;
    for (std::size_t i = 0; i < children.size() && complete; ++i) {
      if (settled[i]) continue;
      const auto time = budget.left();
      if (time.count() <= 0) {
        complete = false;
        break;
      }
      const SearchResult r = search(children[i], time, budget.stop, tt, d, true);
      out.work += r.nodes;
      complete = r.depth == d || (is_decisive(r.score) && turns_to_end(r.score) <= r.depth);
      Value c = searched_value(r);
      c.depth = d;
      next[i] = through(c, children[i].turn() == mover);
    }
    if (!complete) break;
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (settled[i]) continue;
      out.turns[i].value = next[i];
      settled[i] = next[i].outcome && next[i].remoteness - 1 <= d;
    }
  }
  out.value = best_of(out.turns);
}

// An exact tie's distance from the solver (unknown if over its budget), after every value wanted
// is known: the distances can cost more than the values.
void add_draw_distance(Value& v, const Game& g, detail::KaboomSolver& solver, bool wanted) {
  if (!wanted || !v.exact || v.outcome != Outcome::Draw || v.remoteness >= 0 || g.over()) return;
  v.remoteness = solver.draw_distance(g);
}

// Every turn solved exactly over one memo, or nullopt once the solver is over its budget.
std::optional<Analysis> solve_turns(const Game& game, detail::KaboomSolver& solver,
                                    bool draw_distance) {
  Analysis a;
  const Side mover = game.turn();
  std::vector<Game> children;
  for (Turn& t : game.turns()) {
    Game child = play(game, t);
    Value v;
    if (child.over()) {
      v = ending_value(child, mover);
    } else {
      const auto s = solver.value(child);
      if (!s) return std::nullopt;
      v = solved_value(*s);
    }
    children.push_back(std::move(child));
    a.turns.push_back({std::move(t), v});
  }
  for (std::size_t i = 0; i < children.size(); ++i) {
    if (children[i].over()) continue;
    add_draw_distance(a.turns[i].value, children[i], solver, draw_distance);
    a.turns[i].value = through(a.turns[i].value, children[i].turn() == mover);
  }
  a.value = best_of(a.turns);
  return a;
}

// The solver's share of a request's time; the search has the rest if the solver gives up.
std::chrono::milliseconds solver_time(std::chrono::milliseconds time) {
  return time * 3 / 4;
}

}  // namespace

Analysis analyse_position(const Game& game, const AnalysisLimits& limits) {
  const auto start = Clock::now();
  const Budget budget{start + limits.time, limits.stop};
  Analysis out;
  if (game.over()) {
    out.value = finished_value(game);
    return out;
  }
  if (solvable(game)) {
    detail::KaboomSolver solver(
        game, limits.max_positions, limits.stop,
        start + (limits.exact_only ? limits.time : solver_time(limits.time)));
    if (!limits.turns) {
      if (const auto s = solver.value(game)) {
        out.value = solved_value(*s);
        add_draw_distance(out.value, game, solver, limits.draw_distance);
        out.work = solver.positions();
        return out;
      }
    } else if (auto solved = solve_turns(game, solver, limits.draw_distance)) {
      solved->work = solver.positions();
      return *std::move(solved);
    }
    out.work = solver.positions();
    if (limits.exact_only) return out;
  }
  TranspositionTable tt(kTableMegabytes);
  if (!limits.turns) {
    out.value = estimate_position(game, budget, tt, out.work);
  } else {
    estimate_turns(game, budget, tt, out);
  }
  return out;
}

std::vector<Value> analyse_positions(const std::vector<Game>& positions,
                                     const AnalysisLimits& limits) {
  const auto start = Clock::now();
  const Budget budget{start + limits.time, limits.stop};
  std::vector<std::optional<Value>> values(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (positions[i].over()) values[i] = finished_value(positions[i]);
  }

  // Exact values, one memo per set of options, from the last position back: a later position's
  // tree is a part of an earlier one's, so each solve reuses what the later ones stored.
  std::vector<std::pair<Options, std::unique_ptr<detail::KaboomSolver>>> solvers;
  for (std::size_t i = positions.size(); i-- > 0;) {
    const Game& g = positions[i];
    if (values[i] || !solvable(g)) continue;
    auto it = std::find_if(solvers.begin(), solvers.end(),
                           [&](const auto& s) { return s.first == g.options(); });
    if (it == solvers.end()) {
      solvers.emplace_back(
          g.options(), std::make_unique<detail::KaboomSolver>(g, limits.max_positions, limits.stop,
                                                              start + solver_time(limits.time)));
      it = std::prev(solvers.end());
    }
    if (it->second->aborted()) continue;
    if (const auto s = it->second->value(g)) values[i] = solved_value(*s);
  }
  // The ties' distances, once every value the solvers could give is in.
  for (std::size_t i = positions.size(); i-- > 0;) {
    if (!values[i] || positions[i].over()) continue;
    const auto it = std::find_if(solvers.begin(), solvers.end(),
                                 [&](const auto& s) { return s.first == positions[i].options(); });
    if (it != solvers.end())
      add_draw_distance(*values[i], positions[i], *it->second, limits.draw_distance);
  }
  solvers.clear();

  // Estimates: one table, each position an equal share of the time left.
  std::size_t waiting = static_cast<std::size_t>(
      std::count_if(values.begin(), values.end(), [](const auto& v) { return !v; }));
  std::optional<TranspositionTable> tt;
  std::uint64_t work = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (values[i]) continue;
    const auto share = budget.left() / static_cast<long>(waiting--);
    if (share.count() <= 0) {
      values[i] = static_value(positions[i]);
      continue;
    }
    if (!tt) tt.emplace(kTableMegabytes);
    const Budget mine{std::min(budget.deadline, Clock::now() + share), budget.stop};
    values[i] = estimate_position(positions[i], mine, *tt, work);
  }

  std::vector<Value> out;
  out.reserve(values.size());
  for (auto& v : values) out.push_back(*v);
  return out;
}

}  // namespace bc::ai
