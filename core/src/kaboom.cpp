// Kaboom: Connect-N with bombs (RULES.md X).
#include <algorithm>
#include <string>

#include "internal.hpp"

namespace bc::detail {
namespace {

constexpr std::uint8_t kEmpty = 0;

constexpr std::uint8_t cell_code(Side s, Kind k) {
  return static_cast<std::uint8_t>(1 + index(s) + (k == Kind::Bomb ? 2 : 0));
}
constexpr bool is_bomb(std::uint8_t c) {
  return c >= 3;
}
constexpr int owner(std::uint8_t c) {
  return (c - 1) % 2;
}

struct Grid {
  int w;
  int h;
  std::size_t at(int x, int y) const { return static_cast<std::size_t>(y * w + x); }
  bool inside(int x, int y) const { return x >= 0 && x < w && y >= 0 && y < h; }
};

Grid grid(const Options& o) {
  return {o.width, o.height};
}

// The lowest empty row of a column, or h when the column is full (X2: pieces fall).
int drop_row(const KaboomState& s, const Grid& g, int col) {
  for (int y = 0; y < g.h; ++y) {
    if (s.cells[g.at(col, y)] == kEmpty) return y;
  }
  return g.h;
}

// Whether `side` has N in a row anywhere (X4; bombs count for their owner).
bool has_line(const KaboomState& s, const Grid& g, int side, int n) {
  constexpr int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int y = 0; y < g.h; ++y) {
    for (int x = 0; x < g.w; ++x) {
      const std::uint8_t c = s.cells[g.at(x, y)];
      if (c == kEmpty || owner(c) != side) continue;
      for (const auto& d : kDirs) {
        // Count only from the start of a run, so each run is walked once.
        const int px = x - d[0];
        const int py = y - d[1];
        if (g.inside(px, py)) {
          const std::uint8_t p = s.cells[g.at(px, py)];
          if (p != kEmpty && owner(p) == side) continue;
        }
        int len = 0;
        for (int cx = x, cy = y; g.inside(cx, cy); cx += d[0], cy += d[1]) {
          const std::uint8_t q = s.cells[g.at(cx, cy)];
          if (q == kEmpty || owner(q) != side) break;
          if (++len >= n) return true;
        }
      }
    }
  }
  return false;
}

bool board_full(const KaboomState& s, const Grid& g) {
  for (int x = 0; x < g.w; ++x) {
    if (s.cells[g.at(x, g.h - 1)] == kEmpty) return false;
  }
  return true;
}

bool owns_bomb_on_board(const KaboomState& s, const Grid& g, int side) {
  for (int i = 0; i < g.w * g.h; ++i) {
    const std::uint8_t c = s.cells[static_cast<std::size_t>(i)];
    if (c != kEmpty && is_bomb(c) && owner(c) == side) return true;
  }
  return false;
}

}  // namespace

KaboomState kaboom_start(const Options& o) {
  KaboomState s;
  s.bombs_left = {static_cast<std::uint8_t>(o.bombs), static_cast<std::uint8_t>(o.bombs)};
  return s;
}

void kaboom_legal(const KaboomState& s, const Options& o, std::vector<Action>& out) {
  const Grid g = grid(o);
  const int me = index(s.turn);
  for (int x = 0; x < g.w; ++x) {
    if (drop_row(s, g, x) == g.h) continue;
    out.push_back(Action::drop(x, Kind::Normal));
    if (s.bombs_left[static_cast<std::size_t>(me)] > 0) out.push_back(Action::drop(x, Kind::Bomb));
  }
  for (int y = 0; y < g.h; ++y) {
    for (int x = 0; x < g.w; ++x) {
      const std::uint8_t c = s.cells[g.at(x, y)];
      if (c != kEmpty && is_bomb(c) && owner(c) == me) out.push_back(Action::detonate({x, y}));
    }
  }
}

KaboomState kaboom_apply(const KaboomState& s, const Options& o, const Action& a, Effects* fx) {
  const Grid g = grid(o);
  KaboomState n = s;
  const int me = index(s.turn);
  if (a.kind == ActionKind::Drop) {
    const int y = drop_row(s, g, a.column);
    n.cells[g.at(a.column, y)] = cell_code(s.turn, a.piece);
    if (a.piece == Kind::Bomb) --n.bombs_left[static_cast<std::size_t>(me)];
  } else {
    // X3: work out the whole chain on the board as it stands, then let pieces fall once.
    std::array<bool, KaboomState::kMaxCells> gone{};
    std::vector<Square> queue{a.at};
    gone[g.at(a.at.x, a.at.y)] = true;
    auto hit = [&](int x, int y) {
      if (!g.inside(x, y)) return;
      const std::size_t i = g.at(x, y);
      if (gone[i] || s.cells[i] == kEmpty) return;
      gone[i] = true;
      if (is_bomb(s.cells[i])) queue.push_back({x, y});  // any side's bomb chains
    };
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const Square b = queue[q];
      if (o.superbomb) {
        for (int x = 0; x < g.w; ++x) hit(x, b.y);
        for (int y = 0; y < g.h; ++y) hit(b.x, y);
      } else {
        hit(b.x - 1, b.y);
        hit(b.x + 1, b.y);
        hit(b.x, b.y - 1);
        hit(b.x, b.y + 1);
      }
    }
    for (int x = 0; x < g.w; ++x) {
      int to = 0;
      for (int y = 0; y < g.h; ++y) {
        const std::size_t i = g.at(x, y);
        if (gone[i]) {
          if (fx != nullptr) fx->exploded.push_back({x, y});
          continue;
        }
        if (s.cells[i] != kEmpty) n.cells[g.at(x, to++)] = s.cells[i];
      }
      for (int y = to; y < g.h; ++y) n.cells[g.at(x, y)] = kEmpty;
    }
    if (fx != nullptr)
      std::sort(fx->exploded.begin(), fx->exploded.end(),
                [](Square l, Square r) { return l.y != r.y ? l.y < r.y : l.x < r.x; });
  }
  n.turn = other(s.turn);
  if (fx != nullptr) fx->turn_over = true;
  return n;
}

std::optional<Result> kaboom_result(const KaboomState& s, const Options& o) {
  const Grid g = grid(o);
  const bool line_first = has_line(s, g, 0, o.connect);
  const bool line_second = has_line(s, g, 1, o.connect);
  if (line_first && line_second) return Result{std::nullopt, Reason::Connect};  // X4
  if (line_first || line_second) {
    const Side liner = line_first ? Side::First : Side::Second;
    return Result{o.misere ? other(liner) : liner, Reason::Connect};
  }
  if (board_full(s, g) && !owns_bomb_on_board(s, g, index(s.turn))) {  // X5
    return Result{std::nullopt, Reason::BoardFull};
  }
  return std::nullopt;
}

bool kaboom_can_ever_win(const KaboomState& s, const Options& o, Side side) {
  const Grid g = grid(o);
  // A bomb in hand or on the board can reopen any line (X3), so nothing is certain.
  if (s.bombs_left[0] > 0 || s.bombs_left[1] > 0) return true;
  for (int i = 0; i < g.w * g.h; ++i) {
    if (is_bomb(s.cells[static_cast<std::size_t>(i)])) return true;
  }
  // Without bombs no piece ever moves again. `side` wins by a line of its own (normal) or of the
  // other side's (misère), so it can win while some window of N cells holds no piece of the
  // side that must not complete it.
  const int liner = o.misere ? index(other(side)) : index(side);
  constexpr int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int y = 0; y < g.h; ++y) {
    for (int x = 0; x < g.w; ++x) {
      for (const auto& d : kDirs) {
        const int ex = x + d[0] * (o.connect - 1);
        const int ey = y + d[1] * (o.connect - 1);
        if (!g.inside(ex, ey)) continue;
        bool open = true;
        for (int k = 0; k < o.connect && open; ++k) {
          const std::uint8_t c = s.cells[g.at(x + d[0] * k, y + d[1] * k)];
          open = c == kEmpty || owner(c) == liner;
        }
        if (open) return true;
      }
    }
  }
  return false;
}

std::optional<std::string> kaboom_from_position(const Options& o, const Position& p,
                                                KaboomState& out) {
  const Grid g = grid(o);
  KaboomState s;
  s.turn = p.turn;
  for (const Piece& piece : p.pieces) {
    const std::string where =
        "[" + std::to_string(piece.at.x) + "," + std::to_string(piece.at.y) + "]";
    if (!g.inside(piece.at.x, piece.at.y)) {
      return "square " + where + " is off the " + std::to_string(g.w) + "x" + std::to_string(g.h) +
             " board";
    }
    if (piece.kind == Kind::Shield) return "Kaboom has normal pieces and bombs, no shields";
    if (piece.rank != Rank::Man) return "Kaboom pieces have no rank: use \"man\"";
    const std::size_t i = g.at(piece.at.x, piece.at.y);
    if (s.cells[i] != kEmpty) return "two pieces on square " + where;
    s.cells[i] = cell_code(piece.side, piece.kind);
  }
  for (int x = 0; x < g.w; ++x) {
    for (int y = 1; y < g.h; ++y) {
      if (s.cells[g.at(x, y)] != kEmpty && s.cells[g.at(x, y - 1)] == kEmpty) {
        return "the piece on [" + std::to_string(x) + "," + std::to_string(y) +
               "] floats above an empty square";
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    const int b = p.bombs[static_cast<std::size_t>(side)];
    if (b < 0 || b > 10) return "bombs left must be between 0 and 10";
    s.bombs_left[static_cast<std::size_t>(side)] = static_cast<std::uint8_t>(b);
  }
  out = s;
  return std::nullopt;
}

}  // namespace bc::detail
