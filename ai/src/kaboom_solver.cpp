// Exact solver for small Kaboom boards: alpha-beta without heuristic cuts over a memo of exact
// bounds (win or loss with the distance to the end, or draw), keyed exactly (no hash collisions)
// and folded by the board's left-right mirror symmetry. Moves come from Game. KaboomSolver
// (solver.hpp) keeps the memo across positions for the analysis.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "bc/ai.hpp"
#include "eval.hpp"
#include "solver.hpp"

namespace bc::ai {
namespace {

using Clock = std::chrono::steady_clock;

// Scores are relative to the root, as mate scores in chess: kBig - p is a win p turns from the
// root, -(kBig - p) a loss, 0 a draw. The memo keeps bounds relative to their own position (the
// value of a position does not depend on how it was reached: no repetitions, X6).
constexpr int kBig = 30000;
constexpr int kInf = kBig + 1;

int to_memo(int v, int ply) {
  return v > 0 ? v + ply : v < 0 ? v - ply : 0;
}
int from_memo(int v, int ply) {
  return v > 0 ? v - ply : v < 0 ? v + ply : 0;
}

// The score of a finished game for its side to move, `ply` turns from the root.
int terminal_score(const Game& g, int ply) {
  const Result& r = *g.result();
  if (!r.winner) return 0;
  return *r.winner == g.turn() ? kBig - ply : -(kBig - ply);
}

// Exact key: cells in base 5, then bombs in hand (0..10 each) and the side to move. 5^24 * 11 *
// 11 * 2 < 2^64, hence kSolverMaxCells. The smaller of a board and its mirror image is used;
// `mirrored` tells whether that was the mirror image.
std::uint64_t exact_key(const Game& g, bool& mirrored) {
  const auto& s = std::get<KaboomState>(g.state());
  const int w = g.width();
  const int h = g.height();
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      a = a * 5 + s.cells[static_cast<std::size_t>(y * w + x)];
      b = b * 5 + s.cells[static_cast<std::size_t>(y * w + (w - 1 - x))];
    }
  }
  mirrored = b < a;
  std::uint64_t k = std::min(a, b);
  k = k * 11 + std::min<std::uint64_t>(s.bombs_left[0], 10);
  k = k * 11 + std::min<std::uint64_t>(s.bombs_left[1], 10);
  return k * 2 + static_cast<std::uint64_t>(index(s.turn));
}

constexpr std::uint8_t kNoMove = 0xFF;

struct Bounds {
  std::int16_t lo = -kInf;
  std::int16_t hi = kInf;
  std::uint8_t best = kNoMove;  // the last best action, in the key's orientation
  // A draw's distance (draw_distance) once known, below kDrawAtLeast; kDrawAtLeast + n: it is
  // more than n - 1 (a bound searched in vain); 0: nothing known.
  std::uint8_t draw = 0;
};
constexpr int kDrawAtLeast = 128;

// An action as one byte: drops 0..15 (normal) and 16..31 (bomb) by column, detonations 32 + cell;
// `mirror` flips it left-right.
std::uint8_t action_code(const Action& a, int width, bool mirror) {
  if (a.kind == ActionKind::Drop) {
    const int col = mirror ? width - 1 - a.column : a.column;
    return static_cast<std::uint8_t>((a.piece == Kind::Bomb ? 16 : 0) + col);
  }
  const int x = mirror ? width - 1 - a.at.x : a.at.x;
  return static_cast<std::uint8_t>(32 + a.at.y * width + x);
}

std::uint8_t mirror_code(std::uint8_t code, int width) {
  if (code < 32) return static_cast<std::uint8_t>((code & 16) + width - 1 - (code & 15));
  const int cell = code - 32;
  return static_cast<std::uint8_t>(32 + (cell / width) * width + width - 1 - cell % width);
}

// Open addressing, linear probing; slot key 0 is empty (keys are stored plus one).
class Memo {
 public:
  Memo() { resize(1 << 14); }
  std::size_t size() const { return count_; }

  const Bounds* find(std::uint64_t key) const {
    const std::uint64_t k = key + 1;
    for (std::size_t i = slot(k);; i = (i + 1) & mask_) {
      if (slots_[i].key == k) return &slots_[i].bounds;
      if (slots_[i].key == 0) return nullptr;
    }
  }

  // Creates the entry if needed.
  Bounds& at(std::uint64_t key) {
    if ((count_ + 1) * 10 > slots_.size() * 7) resize(slots_.size() * 2);
    const std::uint64_t k = key + 1;
    std::size_t i = slot(k);
    while (slots_[i].key != 0 && slots_[i].key != k) i = (i + 1) & mask_;
    if (slots_[i].key == 0) {
      slots_[i].key = k;
      ++count_;
    }
    return slots_[i].bounds;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    Bounds bounds;
  };
  std::size_t slot(std::uint64_t k) const {
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> 17) & mask_;
  }
  void resize(std::size_t n) {
    std::vector<Slot> old(n);
    old.swap(slots_);
    mask_ = n - 1;
    for (const Slot& s : old) {
      if (s.key == 0) continue;
      std::size_t i = slot(s.key);
      while (slots_[i].key != 0) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

struct Kid {
  Game next;
  std::uint8_t code;  // action_code in the position's own orientation
  int order;
};

// The value of a root score for the root's side to move.
SolvedValue to_solved(int score) {
  SolvedValue out;
  if (score > 0) {
    out.outcome = Outcome::Win;
    out.turns = kBig - score;
  } else if (score < 0) {
    out.outcome = Outcome::Loss;
    out.turns = kBig + score;
  }
  return out;
}

}  // namespace

// Alpha-beta with exact bounds in the memo: no heuristic cut, so the root value is exact.
class detail::KaboomSolver::Impl {
 public:
  Impl(const Game& like, std::uint64_t max_positions, const std::atomic<bool>* stop,
       std::optional<Clock::time_point> deadline)
      : max_positions_(max_positions), stop_(stop), deadline_(deadline), eval_(like) {}

  int search(const Game& g, int alpha, int beta, int ply) {
    if (out_of_budget()) return 0;
    // Nothing here ends sooner than the next turn.
    const int best_possible = kBig - ply - 1;
    if (alpha >= best_possible) return alpha;
    beta = std::min(beta, best_possible);
    bool mirrored = false;
    const std::uint64_t key = exact_key(g, mirrored);
    const int width = g.width();
    std::uint8_t hint = kNoMove;
    if (const Bounds* b = memo_.find(key)) {
      if (b->best != kNoMove) {
        // Stored in the key's orientation; a code is its own mirror's mirror.
        hint = b->best;
        if (mirrored) hint = mirror_code(hint, width);
      }
      const int lo = b->lo == -kInf ? -kInf : from_memo(b->lo, ply);
      const int hi = b->hi == kInf ? kInf : from_memo(b->hi, ply);
      if (lo >= beta) return lo;
      if (hi <= alpha) return hi;
      if (lo == hi) return lo;
      alpha = std::max(alpha, lo);
      beta = std::min(beta, hi);
    }
    const auto d = static_cast<std::size_t>(ply);
    if (kids_.size() <= d) kids_.resize(d + 1);
    kids_[d].clear();
    int best = -kInf;
    for (const Action& a : g.legal()) {
      Game next = g.apply(a)->next;
      if (next.over()) {
        best = std::max(best, -terminal_score(next, ply + 1));
      } else {
        kids_[d].push_back({std::move(next), action_code(a, width, false), 0});
      }
    }
    const int alpha0 = alpha;
    std::uint8_t best_code = kNoMove;
    if (best < beta && !kids_[d].empty()) {
      alpha = std::max(alpha, best);
      order(kids_[d], hint);
      for (std::size_t i = 0; i < kids_[d].size(); ++i) {
        const Game child = kids_[d][i].next;  // kids_ may grow (and move) below
        const std::uint8_t code = kids_[d][i].code;
        const int v = -search(child, -beta, -alpha, ply + 1);
        if (aborted_) return 0;
        if (v > best) {
          best = v;
          best_code = code;
        }
        if (best >= beta) break;
        alpha = std::max(alpha, best);
      }
    }
    Bounds& b = memo_.at(key);
    if (best_code != kNoMove) b.best = mirrored ? mirror_code(best_code, width) : best_code;
    if (best > alpha0 && best < beta) {
      b.lo = b.hi = static_cast<std::int16_t>(to_memo(best, ply));
    } else if (best >= beta) {
      b.lo = static_cast<std::int16_t>(
          std::max<int>(b.lo == -kInf ? -kInf : b.lo, to_memo(best, ply)));
    } else {
      b.hi =
          static_cast<std::int16_t>(std::min<int>(b.hi == kInf ? kInf : b.hi, to_memo(best, ply)));
    }
    return best;
  }

  // Gamesman's remoteness of a draw: 1 + the smallest remoteness among the turns that keep the
  // draw (a turn that ends the game drawn counts 1). Only for positions whose value is a draw.
  // It is the shortest path to a drawn end through drawn positions, so it is searched by
  // iterative deepening: each bound looks only that many turns ahead, where one search to the
  // end of every drawing line cost far more (4x4 connect 4 with two bombs: 45 million positions
  // in 15 minutes, unfinished). A bound that fails leaves a lower bound in the memo for the next.
  int draw_distance(const Game& g) {
    int bound = 1;
    for (;;) {
      const int d = draw_within(g, bound);
      if (aborted_) return 0;
      if (d <= bound) return d;
      bound = d;  // a proven lower bound: nothing nearer to look for
    }
  }

  // The draw distance of g when it is at most `bound`, else a lower bound of it above `bound`.
  int draw_within(const Game& g, int bound) {
    // With no bomb left anywhere every turn fills a cell and only a full board draws (X4's lines
    // for both sides need a detonation, X5): the distance is the empty cells.
    const auto& s = std::get<KaboomState>(g.state());
    const int cells = g.width() * g.height();
    const auto cell_end = s.cells.begin() + cells;
    if (s.bombs_left[0] == 0 && s.bombs_left[1] == 0 &&
        std::none_of(s.cells.begin(), cell_end, [](std::uint8_t c) { return c >= 3; })) {
      return static_cast<int>(std::count(s.cells.begin(), cell_end, std::uint8_t{0}));
    }
    bool mirrored = false;
    const std::uint64_t key = exact_key(g, mirrored);
    if (const Bounds* b = memo_.find(key); b != nullptr && b->draw != 0) {
      if (b->draw < kDrawAtLeast) return b->draw;
      if (b->draw - kDrawAtLeast > bound) return b->draw - kDrawAtLeast;
    }
    int best = kInf;   // the nearest drawn end found within the bound
    int above = kInf;  // the smallest lower bound of the turns not settled within it
    std::vector<Game> drawing;
    for (const Action& a : g.legal()) {
      Game next = g.apply(a)->next;
      if (next.over()) {
        if (!next.result()->winner) best = 1;
      } else {
        drawing.push_back(std::move(next));
      }
    }
    // An unfinished child's end is at least 2 turns away.
    for (const Game& next : drawing) {
      if (best <= 2) break;
      const int reach = std::min(bound, best - 1) - 1;  // what the child must be within to matter
      if (reach < 1) {
        above = std::min(above, 2);
        continue;
      }
      // Near the bound's edge, a child with no drawn end within reach by any turns at all is
      // passed over before its value is proven, which costs far more than a look two turns on.
      if (reach <= 2 && !ends_drawn_within(next, reach)) {
        above = std::min(above, reach + 2);
        continue;
      }
      // In a drawn position no turn wins, so each child is a draw or a win for its mover: a null
      // window tells them apart.
      if (search(next, 0, 1, 0) > 0) continue;
      const int d = draw_within(next, reach);
      if (aborted_) return 0;
      if (d <= reach) {
        best = d + 1;
      } else {
        above = std::min(above, d + 1);
      }
    }
    if (aborted_) return 0;
    // The position is in the memo: its value was searched before it was asked for.
    Bounds& b = memo_.at(key);
    if (best <= bound) {
      if (best < kDrawAtLeast) b.draw = static_cast<std::uint8_t>(best);
      return best;
    }
    const int at_least = std::min(best, above);
    if (at_least < 255 - kDrawAtLeast &&
        (b.draw == 0 || (b.draw >= kDrawAtLeast && b.draw - kDrawAtLeast < at_least))) {
      b.draw = static_cast<std::uint8_t>(kDrawAtLeast + at_least);
    }
    return at_least;
  }

  // Whether some turns (whatever their value) reach a drawn end within `turns` turns of g.
  static bool ends_drawn_within(const Game& g, int turns) {
    if (turns <= 0) return false;
    for (const Action& a : g.legal()) {
      const Game next = g.apply(a)->next;
      if (next.over() ? !next.result()->winner : ends_drawn_within(next, turns - 1)) return true;
    }
    return false;
  }

  // A draw's distance, or kUnknownDistance when the budget ran out finding it: the draw stands
  // (it was proven first) and the solver answers again, as far as the budget still goes.
  int draw_distance_or_unknown(const Game& g) {
    const int d = draw_distance(g);
    if (!aborted_) return d;
    aborted_ = false;
    return kUnknownDistance;
  }

  // Whether a child of a drawn position is a draw (else it is a win for its mover), or nullopt
  // when the budget ran out telling (the parent's draw stands).
  std::optional<bool> draws(const Game& child, int ply) {
    const bool draw = search(child, 0, 1, ply) <= 0;
    if (!aborted_) return draw;
    aborted_ = false;
    return std::nullopt;
  }

  bool aborted() const { return aborted_; }
  std::uint64_t positions() const { return memo_.size(); }

 private:
  // The memo's best action first, then the most promising by the static evaluation (seen from
  // the mover: the child's negated).
  void order(std::vector<Kid>& kids, std::uint8_t hint) const {
    for (Kid& k : kids) k.order = k.code == hint ? kInf : -eval_(k.next);
    std::stable_sort(kids.begin(), kids.end(),
                     [](const Kid& l, const Kid& r) { return l.order > r.order; });
  }

  bool out_of_budget() {
    if (aborted_) return true;
    if (memo_.size() >= max_positions_) aborted_ = true;
    // A call builds every child position (under ASan ~25 us a memo entry: 32,443 in 825 ms), so
    // every 4,096th overran a deadline by 70 ms; every 256th keeps it to a few milliseconds.
    if ((++calls_ & 255) == 0) {
      if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) aborted_ = true;
      if (deadline_ && Clock::now() >= *deadline_) aborted_ = true;
    }
    return aborted_;
  }

  std::uint64_t max_positions_;
  const std::atomic<bool>* stop_;
  std::optional<Clock::time_point> deadline_;
  detail::Evaluator eval_;
  Memo memo_;
  std::vector<std::vector<Kid>> kids_;
  std::uint64_t calls_ = 0;
  bool aborted_ = false;
};

namespace detail {

KaboomSolver::KaboomSolver(const Game& like, std::uint64_t max_positions,
                           const std::atomic<bool>* stop, std::optional<Clock::time_point> deadline)
    : impl_(std::make_unique<Impl>(like, max_positions, stop, deadline)) {}
KaboomSolver::~KaboomSolver() = default;

std::optional<SolvedValue> KaboomSolver::value(const Game& g) {
  if (g.over()) return to_solved(terminal_score(g, 0));
  // The outcome first, by a window around a draw (far cheaper than distances, and all a draw
  // needs); then a win's or loss's distance by null windows from the bound it gave (MTD(f)), each
  // cheap on the memo the previous one filled.
  int v = impl_->search(g, -1, 1, 0);
  if (v != 0) {
    int lower = v > 0 ? v : -kInf;
    int upper = v < 0 ? v : kInf;
    while (lower < upper && !impl_->aborted()) {
      const int beta = std::max(v, lower + 1);
      v = impl_->search(g, beta - 1, beta, 0);
      if (v < beta) {
        upper = v;
      } else {
        lower = v;
      }
    }
  }
  SolvedValue out = to_solved(v);
  if (impl_->aborted()) return std::nullopt;
  if (v == 0) out.turns = kUnknownDistance;
  out.positions = impl_->positions();
  return out;
}

int KaboomSolver::draw_distance(const Game& g) {
  if (g.over()) return 0;
  return impl_->draw_distance_or_unknown(g);
}

bool KaboomSolver::aborted() const {
  return impl_->aborted();
}

std::uint64_t KaboomSolver::positions() const {
  return impl_->positions();
}

}  // namespace detail

namespace {

// A drawn root's distance, and its move: the drawing turn nearest a drawn end (the root's windows
// left later actions' values as bounds, so each is asked again around a draw, from the memo).
// kUnknownDistance, and `best` left as it was (a drawing move), when the budget runs out.
int nearest_draw(const Game& game, detail::KaboomSolver::Impl& solver,
                 std::optional<Action>& best) {
  int nearest = kInf;
  for (const Action& a : game.legal()) {
    const Game next = game.apply(a)->next;
    int d = kInf;
    if (next.over()) {
      if (!next.result()->winner) d = 1;
    } else if (const auto draw = solver.draws(next, 1); !draw) {
      return kUnknownDistance;
    } else if (*draw) {
      d = solver.draw_distance_or_unknown(next);
      if (d == kUnknownDistance) return kUnknownDistance;
      ++d;
    }
    if (d < nearest) {
      nearest = d;
      best = a;
    }
  }
  return nearest;
}

}  // namespace

std::optional<SolvedValue> solve_kaboom(const Game& game, const SolveBudget& budget) {
  if (game.variant() != VariantId::Kaboom || game.over()) return std::nullopt;
  if (game.width() * game.height() > kSolverMaxCells) return std::nullopt;
  std::optional<Clock::time_point> deadline;
  if (budget.time) deadline = Clock::now() + *budget.time;
  detail::KaboomSolver::Impl solver(game, budget.max_positions, budget.stop, deadline);
  // The root looks at every action with a full window: the first that reaches the best value
  // is the move (shortest win, longest loss, else a draw).
  int best = -kInf;
  std::optional<Action> best_action;
  for (const Action& a : game.legal()) {
    const Game next = game.apply(a)->next;
    const int v = next.over() ? -terminal_score(next, 1) : -solver.search(next, -kInf, -best, 1);
    if (solver.aborted()) return std::nullopt;
    if (v > best) {
      best = v;
      best_action = a;
    }
  }
  SolvedValue out = to_solved(best);
  if (best == 0) {
    out.turns = budget.draw_distance ? nearest_draw(game, solver, best_action) : kUnknownDistance;
  }
  out.best = best_action;
  out.positions = solver.positions();
  return out;
}

}  // namespace bc::ai
