// The root of the search: iterative deepening with aspiration windows, the level's misjudgement
// of root moves and its random turns, small Kaboom boards handed to the exact solver, and
// choose_turn, the library's entry point.
#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <memory>
#include <variant>

#include "bc/ai.hpp"
#include "bc/rules.hpp"
#include "board.hpp"
#include "searcher.hpp"

namespace bc::ai {
namespace detail {

// The root: the moves keep their order between iterations (best first, then by last score).
// With a level's noise every root move gets an exact score (full window) and is judged by that
// score plus its own fixed random error. Noise at the leaves instead would favour moves that
// leave the opponent few replies (the minimum of many noisy values is low), such as giving away
// men to force captures.
int Searcher::root_search(std::vector<Child>& root, int depth, int alpha, int beta) {
  pv_len_[0] = 0;
  ++nodes_;
  if (params_.noise > 0) {
    int best = -kInf;
    int best_judged = -kInf;
    std::size_t best_index = 0;
    for (std::size_t i = 0; i < root.size(); ++i) {
      const int score = -pvs(*root[i].next, depth - 1, -kInf, kInf, 1, true);
      if (stopped_) return best;
      const int judged = is_decisive(score) ? score : score + root_noise_[i];
      if (judged > best_judged) {
        best_judged = judged;
        best = score;
        best_index = i;
        update_pv(0, root[i].move);
      }
    }
    std::rotate(root.begin(), root.begin() + static_cast<std::ptrdiff_t>(best_index),
                root.begin() + static_cast<std::ptrdiff_t>(best_index) + 1);
    std::rotate(root_noise_.begin(), root_noise_.begin() + static_cast<std::ptrdiff_t>(best_index),
                root_noise_.begin() + static_cast<std::ptrdiff_t>(best_index) + 1);
    return best;
  }
  int best = -kInf;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const Child& c = root[i];
    const Game& next = *c.next;  // materialized by run()
    int score = 0;
    if (i == 0) {
      score = -pvs(next, depth - 1, -beta, -alpha, 1, true);
    } else {
      score = -pvs(next, depth - 1, -alpha - 1, -alpha, 1, false);
      if (score > alpha && score < beta && !stopped_) {
        score = -pvs(next, depth - 1, -beta, -alpha, 1, true);
      }
    }
    if (stopped_) return best;
    root[i].order = score;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        update_pv(0, c.move);
        // Move the new best to the front (keeps the others' relative order).
        std::rotate(root.begin(), root.begin() + static_cast<std::ptrdiff_t>(i),
                    root.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

// The root's moves best first (the table's move at the head), and each one's error for this
// level, fixed by the seed, the position and the move.
void Searcher::order_root(std::vector<Child>& root) {
  order(root_, root, 0, 0);
  if (const TTEntry* e = tt_.probe(detail::zobrist(root_))) {
    for (Child& c : root) {
      if (c.move.sig == e->move) c.order = 1 << 30;
    }
  }
  std::stable_sort(root.begin(), root.end(),
                   [](const Child& l, const Child& r) { return l.order > r.order; });
  const std::uint64_t root_key = detail::zobrist(root_);
  for (const Child& c : root) {
    std::uint64_t x = noise_seed_ ^ root_key ^ (std::uint64_t{c.move.sig} << 17);
    const std::uint64_t r = detail::splitmix64(x);
    const int span = 2 * params_.noise + 1;
    root_noise_.push_back(
        params_.noise > 0 ? static_cast<int>(r % static_cast<std::uint64_t>(span)) - params_.noise
                          : 0);
  }
}

// One iteration at `depth`: an aspiration window around the last score from depth 4 on, widened
// until the score falls inside it (or the search is stopped).
int Searcher::search_window(std::vector<Child>& root, int depth, int best_score) {
  int window = 30;
  int alpha = -kInf;
  int beta = kInf;
  if (depth >= 4 && !is_decisive(best_score) && params_.noise == 0) {
    alpha = best_score - window;
    beta = best_score + window;
  }
  int score = 0;
  for (;;) {
    score = root_search(root, depth, alpha, beta);
    if (stopped_) break;
    if (score <= alpha && alpha > -kInf) {
      alpha = std::max(-kInf, score - window);
      window *= 3;
    } else if (score >= beta && beta < kInf) {
      beta = std::min(kInf, score + window);
      window *= 3;
    } else {
      break;
    }
  }
  return score;
}

SearchResult Searcher::run() {
  SearchResult result;
  if (root_.over()) return result;
  std::vector<Child> root;
  detail::generate(root_, false, root);
  if (root.empty()) return result;
  for (Child& c : root) detail::materialize(root_, c);

  // Low levels sometimes play a random turn; the seed and the position decide when.
  std::uint64_t rng = limits_.seed ^ detail::zobrist(root_) ^ 0xA5A5A5A5DEADBEEFull;
  const std::uint64_t roll = detail::splitmix64(rng);
  if (params_.random_permille > 0 && static_cast<int>(roll % 1000) < params_.random_permille &&
      root.size() > 1) {
    const std::size_t pick = static_cast<std::size_t>(detail::splitmix64(rng) % root.size());
    result.best = detail::to_turn(root[pick].move, variant_);
    result.pv = {result.best};
    result.score = 0;
    return result;
  }

  order_root(root);

  Move best_move = root[0].move;
  int best_score = 0;
  std::vector<Move> best_pv{best_move};
  int completed = 0;
  const bool forced = root.size() == 1 && !limits_.on_iteration;
  for (int depth = 1; depth <= max_depth_ && !forced; ++depth) {
    root_depth_ = depth;
    const int score = search_window(root, depth, best_score);
    // An interrupted iteration still tells something once a move beat the previous best (the
    // previous best is searched first, so root[0] changed only by being beaten).
    if (stopped_) {
      if (pv_len_[0] > 0 && !(pv_[0][0] == best_move)) {
        best_move = pv_[0][0];
        best_pv.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
      }
      break;
    }
    completed = depth;
    best_score = score;
    if (pv_len_[0] > 0) {
      best_move = pv_[0][0];
      best_pv.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
    }
    if (limits_.on_iteration) {
      IterationInfo info{depth, score, nodes_, elapsed(), {}};
      for (const Move& m : best_pv) info.pv.push_back(detail::to_turn(m, variant_));
      limits_.on_iteration(info);
    }
    // A forced win or loss found within this depth will not change with more depth.
    if (is_decisive(score) && turns_to_end(score) <= depth) break;
    // Another iteration costs several times this one: do not start what cannot finish.
    if (soft_stop_ && has_deadline_ && Clock::now() - start_ > (deadline_ - start_) * 45 / 100)
      break;
  }

  result.best = detail::to_turn(best_move, variant_);
  result.score = best_score;
  result.depth = completed;
  result.nodes = nodes_;
  for (const Move& m : best_pv) result.pv.push_back(detail::to_turn(m, variant_));
  if (result.pv.empty() || !(result.pv.front() == result.best)) result.pv = {result.best};
  return result;
}

}  // namespace detail

namespace {

using detail::Clock;
using detail::kLevels;
using detail::Searcher;

// Kaboom boards small enough are played perfectly (levels 7 and 8). The solver gets half of a
// time budget; if it runs out, the search has the rest.
std::optional<SearchResult> solved_turn(const Game& game, const SearchLimits& limits) {
  if (game.variant() != VariantId::Kaboom || limits.level < 7) return std::nullopt;
  if (game.width() * game.height() > kSolverAutoCells) return std::nullopt;
  SolveBudget budget;
  budget.stop = limits.stop;
  if (limits.time) budget.time = *limits.time / 2;
  if (limits.nodes) budget.max_positions = std::max<std::uint64_t>(*limits.nodes / 4, 1000);
  budget.draw_distance = false;  // any drawing move keeps a draw: the time goes to the play
  const auto solved = solve_kaboom(game, budget);
  if (!solved || !solved->best) return std::nullopt;
  SearchResult r;
  r.best = Turn{{*solved->best}};
  r.pv = {r.best};
  r.solved = true;
  r.depth = std::max(solved->turns, 0);  // a draw's distance may be unknown
  r.nodes = solved->positions;
  r.score = solved->outcome == Outcome::Win    ? kWin - solved->turns
            : solved->outcome == Outcome::Loss ? -(kWin - solved->turns)
                                               : 0;
  return r;
}

}  // namespace

SearchResult choose_turn(const Game& game, const SearchLimits& limits) {
  if (game.over()) return {};
  const auto start = Clock::now();
  if (auto solved = solved_turn(game, limits)) return *solved;
  SearchLimits rest = limits;
  if (limits.time) {
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    rest.time = std::max(std::chrono::milliseconds(1), *limits.time - spent);
  }
  const int level = std::clamp(limits.level, kMinLevel, kMaxLevel);
  std::optional<TranspositionTable> own;
  TranspositionTable* tt = limits.tt;
  if (tt == nullptr) {
    own.emplace(kLevels[static_cast<std::size_t>(level)].tt_megabytes);
    tt = &*own;
  }
  // The searcher holds the PV table and per-ply move lists: too big for a server thread's stack.
  auto searcher = std::make_unique<Searcher>(game, rest, tt->impl());
  return searcher->run();
}

}  // namespace bc::ai
