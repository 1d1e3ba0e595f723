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
#include "searcher.hpp"

namespace bc::ai::detail {

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

// Selection sort step: brings the best-ordered move of moves[i..] to i. Cheaper than sorting all:
// most nodes cut off after a move or two.
static void bring_best_to(std::vector<Child>& moves, std::size_t i) {
  std::size_t pick = i;
  for (std::size_t j = i + 1; j < moves.size(); ++j) {
    if (moves[j].order > moves[pick].order) pick = j;
  }
  if (pick != i) std::swap(moves[i], moves[pick]);
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
    bring_best_to(moves, i);
    const Child& c = moves[i];
    const Game& next = detail::materialize(g, moves[i]);
    const int new_depth = depth - 1 + extension;
    int score = 0;
    if (i == 0) {
      score = -pvs(next, new_depth, -beta, -alpha, ply + 1, pv_node);
    } else {
      const auto& k = killers_[static_cast<std::size_t>(ply)];
      const bool quiet = !c.move.jump && c.move.gain == 0 && c.move.sig != k[0] &&
                         c.move.sig != k[1] && !next.over() && c.order < (1 << 26);
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

}  // namespace bc::ai::detail
