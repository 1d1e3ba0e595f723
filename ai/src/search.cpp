// Principal variation search over complete turns: iterative deepening with aspiration windows, a
// transposition table, move ordering (TT move, immediate wins, captures/explosions by material
// swing, killers, history), late move reductions, a one-reply extension, and quiescence on
// captures (checkers) or immediate threats (kaboom). Lower levels search shallower, misjudge
// their root moves by a random amount and sometimes play a random turn.
#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <memory>
#include <variant>

#include "bc/ai.hpp"
#include "bc/rules.hpp"
#include "board.hpp"
#include "eval.hpp"
#include "movegen.hpp"
#include "tt.hpp"

namespace bc::ai {
namespace {

using detail::Child;
using detail::Move;
using Clock = std::chrono::steady_clock;

constexpr int kMaxPly = 128;
constexpr int kMaxDepth = 64;
constexpr int kInf = kWin + 1;
constexpr int kMaxQuiescence = 32;     // checkers: every capture removes a piece, so far fewer
constexpr int kMaxKaboomThreats = 4;   // kaboom: plies of forced replies to immediate threats

struct LevelParams {
  int max_depth;
  int noise;            // root move misjudgement amplitude (hundredths of a man)
  int random_permille;  // chance of playing a uniformly random turn
  std::uint64_t default_nodes;  // node budget when the caller gives none (0: time based)
  std::size_t tt_megabytes;
};

constexpr std::array<LevelParams, kMaxLevel + 1> kLevels{{
    {1, 0, 0, 0, 1},               // unused (levels start at 1)
    {1, 300, 200, 2'000, 1},       // 1: sees one turn, judges badly, often plays at random
    {2, 180, 100, 10'000, 1},      // 2
    {3, 100, 50, 30'000, 1},       // 3
    {4, 50, 20, 100'000, 2},       // 4
    {5, 25, 0, 200'000, 4},        // 5
    {7, 12, 0, 500'000, 8},        // 6
    {10, 5, 0, 2'000'000, 16},     // 7
    {kMaxDepth, 0, 0, 0, 32},      // 8: full strength, one second by default
}};
constexpr std::chrono::milliseconds kDefaultTime{1000};

int score_to_tt(int score, int ply) {
  if (score >= kWinBound) return score + ply;
  if (score <= -kWinBound) return score - ply;
  return score;
}

int score_from_tt(int score, int ply) {
  if (score >= kWinBound) return score - ply;
  if (score <= -kWinBound) return score + ply;
  return score;
}

// The score of a finished game for its side to move, `ply` turns from the root.
int terminal_score(const Game& g, int ply) {
  const Result& r = *g.result();
  if (!r.winner) return 0;
  return *r.winner == g.turn() ? kWin - ply : -(kWin - ply);
}

class Searcher {
 public:
  Searcher(const Game& root, const SearchLimits& limits, TranspositionTable::Impl& tt)
      : root_(root), limits_(limits), tt_(tt), variant_(root.variant()), eval_(root) {
    level_ = std::clamp(limits.level, kMinLevel, kMaxLevel);
    params_ = kLevels[static_cast<std::size_t>(level_)];
    start_ = Clock::now();
    if (limits.time) {
      deadline_ = start_ + *limits.time;
      has_deadline_ = true;
    }
    node_limit_ = limits.nodes ? std::max<std::uint64_t>(*limits.nodes, 1) : params_.default_nodes;
    if (!limits.time && !limits.nodes && params_.default_nodes == 0) {
      deadline_ = start_ + kDefaultTime;
      has_deadline_ = true;
    }
    max_depth_ = std::min(params_.max_depth, limits.depth ? std::max(1, *limits.depth) : kMaxDepth);
    noise_seed_ = limits.seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    stack_.resize(kMaxPly + 1);
    tt_.new_search();
  }

  SearchResult run();

 private:
  int pvs(const Game& g, int depth, int alpha, int beta, int ply, bool pv_node);
  int qsearch(const Game& g, int alpha, int beta, int ply, int qply);
  int qsearch_kaboom(const Game& g, int alpha, int beta, int ply, int qply);
  int root_search(std::vector<Child>& root, int depth, int alpha, int beta);
  void order_root(std::vector<Child>& root);
  int search_window(std::vector<Child>& root, int depth, int best_score);
  int static_eval(const Game& g);
  void order(const Game& g, std::vector<Child>& moves, std::uint32_t tt_move, int ply);
  void update_quiet(const Move& m, int depth, int ply);
  void update_pv(int ply, const Move& m);

  bool time_up() {
    if (stopped_) return true;
    if (node_limit_ != 0 && nodes_ >= node_limit_) {
      stopped_ = true;
    } else if ((nodes_ & 1023) == 0) {
      if (limits_.stop != nullptr && limits_.stop->load(std::memory_order_relaxed)) stopped_ = true;
      if (has_deadline_ && Clock::now() >= deadline_) stopped_ = true;
    }
    return stopped_;
  }

  std::chrono::milliseconds elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
  }

  const Game& root_;
  const SearchLimits& limits_;
  TranspositionTable::Impl& tt_;
  VariantId variant_;
  detail::Evaluator eval_;
  int level_ = kMaxLevel;
  LevelParams params_{};
  Clock::time_point start_;
  Clock::time_point deadline_;
  bool has_deadline_ = false;
  std::uint64_t node_limit_ = 0;
  int max_depth_ = kMaxDepth;
  std::uint64_t noise_seed_ = 0;
  std::vector<int> root_noise_;  // per root move, in the root list's order

  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  int root_depth_ = 0;
  std::vector<std::vector<Child>> stack_;
  std::array<std::array<std::uint32_t, 2>, kMaxPly + 1> killers_{};
  std::array<int, detail::kHistorySize> history_{};
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 1> pv_len_{};
};

int Searcher::static_eval(const Game& g) {
  return std::clamp(eval_(g), -kWinBound + 1, kWinBound - 1);
}

void Searcher::update_pv(int ply, const Move& m) {
  const auto p = static_cast<std::size_t>(ply);
  pv_[p][0] = m;
  const int child_len = ply + 1 <= kMaxPly ? pv_len_[p + 1] : 0;
  for (int i = 0; i < child_len && i + 1 < kMaxPly; ++i) {
    pv_[p][static_cast<std::size_t>(i + 1)] = pv_[p + 1][static_cast<std::size_t>(i)];
  }
  pv_len_[p] = std::min(child_len + 1, kMaxPly);
}

void Searcher::update_quiet(const Move& m, int depth, int ply) {
  auto& k = killers_[static_cast<std::size_t>(ply)];
  if (k[0] != m.sig) {
    k[1] = k[0];
    k[0] = m.sig;
  }
  int& h = history_[m.history_index];
  h += depth * depth;
  if (h > (1 << 20)) {
    for (int& x : history_) x /= 2;
  }
}

void Searcher::order(const Game& g, std::vector<Child>& moves, std::uint32_t tt_move, int ply) {
  const auto& k = killers_[static_cast<std::size_t>(ply)];
  std::uint32_t blocks = 0;
  std::uint32_t wins = 0;
  int width = 0;
  if (variant_ == VariantId::Kaboom) {
    blocks = eval_.winning_drops(g, other(g.turn()));
    if (!g.options().misere) wins = eval_.winning_drops(g, g.turn());
    width = g.width();
  }
  const Side mover = g.turn();
  for (Child& c : moves) {
    const Move& m = c.move;
    int o = history_[m.history_index];
    if (m.sig == tt_move) {
      o = 1 << 30;
    } else if (c.next && c.next->over()) {
      const auto& r = c.next->result();
      o = r->winner == mover ? (1 << 29) : r->winner ? -(1 << 20) : (1 << 26);
    } else if (variant_ == VariantId::Kaboom) {
      if (m.action.kind == ActionKind::Drop) {
        if ((wins >> m.action.column & 1u) != 0) {
          o = 1 << 29;
        } else if ((blocks >> m.action.column & 1u) != 0) {
          o = 1 << 28;
        }
        // Central columns belong to more lines.
        const int off = 2 * m.action.column - (width - 1);
        o += 64 * (width - (off < 0 ? -off : off));
        if (m.action.piece == Kind::Bomb) o -= 256;
      } else if (m.sig == k[0] || m.sig == k[1]) {
        o += 1 << 25;
      }
    } else if ((m.jump || m.gain != 0) && m.gain >= 0) {  // captures, far-row bomb steps (B8)
      o = (1 << 28) + m.gain * 1024 + m.hops;
    } else if (m.sig == k[0]) {
      o = 1 << 27;
    } else if (m.sig == k[1]) {
      o = (1 << 27) - 1;
    }
    c.order = o;
  }
}

int Searcher::qsearch_kaboom(const Game& g, int alpha, int beta, int ply, int qply) {
  const Options& o = g.options();
  if (o.misere) return static_eval(g);
  if (eval_.winning_drops(g, g.turn()) != 0) return kWin - ply - 1;
  const int stand = static_eval(g);
  if (qply >= kMaxKaboomThreats || eval_.winning_drops(g, other(g.turn())) == 0) {
    return stand;
  }
  // The opponent threatens to win on the next turn: every reply is looked at (blocks, blasts).
  auto& moves = stack_[static_cast<std::size_t>(ply)];
  moves.clear();
  detail::generate(g, false, moves);
  order(g, moves, 0, ply);
  std::stable_sort(moves.begin(), moves.end(),
                   [](const Child& l, const Child& r) { return l.order > r.order; });
  int best = -kInf;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Game& next = detail::materialize(g, moves[i]);
    const int score = next.over() ? -terminal_score(next, ply + 1)
                                  : -qsearch(next, -beta, -alpha, ply + 1, qply + 1);
    if (stopped_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

int Searcher::qsearch(const Game& g, int alpha, int beta, int ply, int qply) {
  ++nodes_;
  if (time_up()) return 0;
  if (g.over()) return terminal_score(g, ply);
  if (ply >= kMaxPly - 1) return static_eval(g);
  if (variant_ == VariantId::Kaboom) return qsearch_kaboom(g, alpha, beta, ply, qply);

  auto& moves = stack_[static_cast<std::size_t>(ply)];
  moves.clear();
  if (qply < kMaxQuiescence) detail::generate(g, true, moves);
  // K2, T2: when a capture exists it is compulsory, so the side to move cannot stand pat.
  const bool forced = !moves.empty() && checkers_rules(variant_).capture_compulsory;
  int best = -kInf;
  if (!forced) {
    best = static_eval(g);
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
  }
  for (Child& c : moves) c.order = c.move.gain * 64 + c.move.hops;
  std::stable_sort(moves.begin(), moves.end(),
                   [](const Child& l, const Child& r) { return l.order > r.order; });
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const int score = -qsearch(detail::materialize(g, moves[i]), -beta, -alpha, ply + 1, qply + 1);
    if (stopped_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

int Searcher::pvs(const Game& g, int depth, int alpha, int beta, int ply, bool pv_node) {
  pv_len_[static_cast<std::size_t>(ply)] = 0;
  if (g.over()) return terminal_score(g, ply);
  if (depth <= 0) return qsearch(g, alpha, beta, ply, 0);
  ++nodes_;
  if (time_up()) return 0;
  if (ply >= kMaxPly - 1) return static_eval(g);

  // Mate distance pruning: nothing here can beat a win already found nearer the root.
  alpha = std::max(alpha, -(kWin - ply));
  beta = std::min(beta, kWin - ply - 1);
  if (alpha >= beta) return alpha;

  const std::uint64_t key = detail::zobrist(g);
  std::uint32_t tt_move = 0;
  if (const TTEntry* e = tt_.probe(key)) {
    tt_move = e->move;
    if (!pv_node && e->depth >= depth) {
      const int s = score_from_tt(e->score, ply);
      if (e->bound == Bound::Exact || (e->bound == Bound::Lower && s >= beta) ||
          (e->bound == Bound::Upper && s <= alpha)) {
        return s;
      }
    }
  }

  auto& moves = stack_[static_cast<std::size_t>(ply)];
  moves.clear();
  detail::generate(g, false, moves);
  if (moves.empty()) return static_eval(g);  // cannot happen: a game not over has a turn
  order(g, moves, tt_move, ply);

  // One-reply extension: a forced turn costs nothing to look past (common with compulsory
  // captures), bounded so that forcing lines cannot grow the tree without end.
  const int extension = moves.size() == 1 && ply < 2 * root_depth_ + 4 ? 1 : 0;
  const int alpha0 = alpha;
  int best = -kInf;
  const Move* best_move = nullptr;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    // Selection sort step: bring the best-ordered remaining move to i.
    std::size_t pick = i;
    for (std::size_t j = i + 1; j < moves.size(); ++j) {
      if (moves[j].order > moves[pick].order) pick = j;
    }
    if (pick != i) std::swap(moves[i], moves[pick]);
    const Child& c = moves[i];
    const Game& next = detail::materialize(g, moves[i]);
    const int new_depth = depth - 1 + extension;
    int score = 0;
    if (i == 0) {
      score = -pvs(next, new_depth, -beta, -alpha, ply + 1, pv_node);
    } else {
      const auto& k = killers_[static_cast<std::size_t>(ply)];
      const bool quiet = !c.move.jump && c.move.gain == 0 && c.move.sig != k[0] && c.move.sig != k[1] &&
                         !next.over() && c.order < (1 << 26);
      int reduction = 0;
      if (quiet && depth >= 3 && i >= 3) reduction = (depth >= 6 && i >= 8) ? 2 : 1;
      score = -pvs(next, new_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
      if (score > alpha && reduction > 0 && !stopped_) {
        score = -pvs(next, new_depth, -alpha - 1, -alpha, ply + 1, false);
      }
      if (score > alpha && score < beta && pv_node && !stopped_) {
        score = -pvs(next, new_depth, -beta, -alpha, ply + 1, true);
      }
    }
    if (stopped_) return 0;
    if (score > best) {
      best = score;
      best_move = &moves[i].move;
      if (score > alpha) {
        alpha = score;
        if (pv_node) update_pv(ply, moves[i].move);
        if (alpha >= beta) {
          if (!c.move.jump && c.move.gain == 0) update_quiet(c.move, depth, ply);
          break;
        }
      }
    }
  }
  const Bound bound = best >= beta ? Bound::Lower : best > alpha0 ? Bound::Exact : Bound::Upper;
  tt_.store(key, score_to_tt(best, ply), best_move != nullptr ? best_move->sig : 0, depth, bound);
  return best;
}

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
    root_noise_.push_back(params_.noise > 0 ? static_cast<int>(r % static_cast<std::uint64_t>(span)) -
                                                  params_.noise
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
  if (params_.random_permille > 0 &&
      static_cast<int>(roll % 1000) < params_.random_permille && root.size() > 1) {
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
    if (has_deadline_ && Clock::now() - start_ > (deadline_ - start_) * 45 / 100) break;
  }

  result.best = detail::to_turn(best_move, variant_);
  result.score = best_score;
  result.depth = completed;
  result.nodes = nodes_;
  for (const Move& m : best_pv) result.pv.push_back(detail::to_turn(m, variant_));
  if (result.pv.empty() || !(result.pv.front() == result.best)) result.pv = {result.best};
  return result;
}

// Kaboom boards small enough are played perfectly (levels 7 and 8). The solver gets half of a
// time budget; if it runs out, the search has the rest.
std::optional<SearchResult> solved_turn(const Game& game, const SearchLimits& limits) {
  if (game.variant() != VariantId::Kaboom || limits.level < 7) return std::nullopt;
  if (game.width() * game.height() > kSolverAutoCells) return std::nullopt;
  SolveBudget budget;
  budget.stop = limits.stop;
  if (limits.time) budget.time = *limits.time / 2;
  if (limits.nodes) budget.max_positions = std::max<std::uint64_t>(*limits.nodes / 4, 1000);
  const auto solved = solve_kaboom(game, budget);
  if (!solved || !solved->best) return std::nullopt;
  SearchResult r;
  r.best = Turn{{*solved->best}};
  r.pv = {r.best};
  r.solved = true;
  r.depth = solved->turns;
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
