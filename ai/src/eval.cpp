// Evaluation. Checkers: material (bombs, shields, kings, triple kings worth differently),
// advancement, back-row guard, centre, trade bonus when ahead, and the blast danger around bombs
// (bomb variant). Kaboom: open lines (windows of N holding one side's pieces only), threats with
// connect-four parity, bombs in hand and on the board.
#include "eval.hpp"

#include <algorithm>
#include <array>
#include <variant>

#include "bc/rules.hpp"
#include "board.hpp"

namespace bc::ai::detail {
namespace {

struct CheckersWeights {
  std::array<int, 3> man;   // by Kind: normal, shield, bomb
  std::array<int, 3> king;  // by Kind: normal, shield, bomb (a bomb crowned by a step, B8)
  int triple;
  std::array<int, 8> advance;  // a man on its relative row 0..7
  int back_guard;              // a man on its own back row while the enemy still has men
  int centre_man;
  int centre_king;
  int blast_latent;  // per enemy non-shield piece around a square a bomb may land on
  int threat_div;    // the opponent's best bomb shot counts 1/threat_div against the mover
};

// Bomb: captures are optional and blasts punish crowds, so shields (blast-proof) are worth more
// than plain men; a bomb is a one-shot weapon worth a little more than a man, and a king bomb, a
// one-shot weapon that reaches every direction and hunts from behind, the most of all.
constexpr CheckersWeights kBombWeights{
    {100, 120, 115}, {160, 185, 200}, 0, {0, 0, 3, 6, 10, 15, 22, 0}, 6, 4, 6, 4, 2};
// Classic: short kings, compulsory captures.
constexpr CheckersWeights kClassicWeights{
    {100, 100, 100}, {150, 150, 150}, 0, {0, 0, 2, 4, 7, 11, 16, 0}, 8, 4, 6, 0, 1};
// Triple king: flying kings (T3) are strong, triple kings (T5) stronger still.
constexpr CheckersWeights kTripleWeights{
    {100, 100, 100}, {280, 280, 280}, 380, {0, 0, 3, 6, 10, 16, 24, 0}, 8, 4, 8, 0, 1};

// Each checkers variant's weights, in VariantId's order; none for a variant of another family. A
// checkers variant added without its weights does not compile, rather than play by another's.
constexpr std::array<const CheckersWeights*, kVariants.size()> kWeights{
    &kBombWeights, &kClassicWeights, &kTripleWeights, nullptr};
constexpr bool every_checkers_variant_weighted() {
  for (const auto& r : kVariants) {
    if ((r.family == Family::Checkers) != (kWeights[static_cast<std::size_t>(r.id)] != nullptr)) {
      return false;
    }
  }
  return true;
}
static_assert(every_checkers_variant_weighted(), "weights for every checkers variant, no other");

const CheckersWeights& weights(VariantId v) {
  return *kWeights[static_cast<std::size_t>(v)];
}

int worth(const CheckersWeights& w, const CheckersState& s, Bits b) {
  if ((s.triples & b) != 0) return w.triple;
  const std::size_t kind = (s.bombs & b) != 0 ? 2 : (s.shields & b) != 0 ? 1 : 0;
  return (s.kings & b) != 0 ? w.king[kind] : w.man[kind];
}

// The directions a piece of `side` jumps in: forward for a man (B3), all four for a king.
constexpr int first_jump_dir(int side, bool king) {
  return king ? 0 : (side == 0 ? 0 : 2);
}
constexpr int end_jump_dir(int side, bool king) {
  return king ? 4 : (side == 0 ? 2 : 4);
}

int worth_of(const CheckersWeights& w, const CheckersState& s, Bits set) {
  int sum = 0;
  for (; set != 0; set &= set - 1) sum += worth(w, s, set & (~set + 1));
  return sum;
}

// The best material swing a bomb of `side` gets by jumping now (B7), or 0.
int best_bomb_shot(const CheckersWeights& w, const CheckersState& s, int side) {
  const Bits own = s.occ[static_cast<std::size_t>(side)];
  const Bits opp = s.occ[static_cast<std::size_t>(1 - side)];
  const Bits empty = ~(own | opp);
  int best = 0;
  for (Bits bombs = own & s.bombs; bombs != 0; bombs &= bombs - 1) {
    const int b = std::countr_zero(bombs);
    const bool king = (s.kings & bit(b)) != 0;
    for (int d = first_jump_dir(side, king); d < end_jump_dir(side, king); ++d) {
      const int over = neighbour(b, d);
      if (over < 0 || (opp & bit(over)) == 0) continue;
      const int land = neighbour(over, d);
      if (land < 0 || (empty & bit(land)) == 0) continue;
      const Bits zone = blast_zone(land) & ~s.shields & ~bit(over);
      const int swing = worth(w, s, bit(over)) + worth_of(w, s, zone & opp) -
                        worth_of(w, s, zone & own & ~bit(b)) - worth(w, s, bit(b));
      best = std::max(best, swing);
    }
  }
  return best;
}

// Crowds of enemy non-shield pieces around the squares a bomb of `side` could land on, less its
// own pieces there: the latent blast danger (positive: good for `side`).
int latent_blast(const CheckersState& s, int side) {
  const Bits own = s.occ[static_cast<std::size_t>(side)];
  const Bits opp = s.occ[static_cast<std::size_t>(1 - side)];
  int sum = 0;
  for (Bits bombs = own & s.bombs; bombs != 0; bombs &= bombs - 1) {
    const int b = std::countr_zero(bombs);
    const bool king = (s.kings & bit(b)) != 0;
    for (int d = first_jump_dir(side, king); d < end_jump_dir(side, king); ++d) {
      const int over = neighbour(b, d);
      if (over < 0) continue;
      const int land = neighbour(over, d);
      if (land < 0) continue;
      const Bits zone = blast_zone(land) & ~s.shields;
      const int net = 2 * popcount(zone & opp) - popcount(zone & own & ~bit(b));
      sum += std::max(0, net);
    }
  }
  return sum;
}

// Ahead in material: the stronger side's kings are drawn toward the enemy pieces, since an
// endgame that is only shuffled ends drawn by the no-progress rule (C6). Measured: 2 kings v 1
// (classic, 20k nodes a turn) converted 16/16 instead of 10/16.
int hunt(const CheckersState& s, const std::array<int, 2>& material, int me) {
  const int diff = material[0] - material[1];
  if (diff > -90 && diff < 90) return 0;
  const int strong = diff > 0 ? 0 : 1;
  const Bits prey = s.occ[static_cast<std::size_t>(1 - strong)];
  int bonus = 0;
  for (Bits k = s.occ[static_cast<std::size_t>(strong)] & s.kings; k != 0; k &= k - 1) {
    const Square a = sq_square(std::countr_zero(k));
    int nearest = 7;
    for (Bits e = prey; e != 0; e &= e - 1) {
      const Square b = sq_square(std::countr_zero(e));
      const int dx = a.x > b.x ? a.x - b.x : b.x - a.x;
      const int dy = a.y > b.y ? a.y - b.y : b.y - a.y;
      nearest = std::min(nearest, std::max(dx, dy));
    }
    bonus += 8 * (7 - nearest);
  }
  return strong == me ? bonus : -bonus;
}

int evaluate_checkers(const Game& g, const CheckersState& s) {
  const VariantId v = g.variant();
  const CheckersWeights& w = weights(v);
  const bool bombs = checkers_rules(v).piece_kinds;  // B7: blasts to threaten and fear
  std::array<int, 2> material{};
  std::array<int, 2> positional{};
  for (int side = 0; side < 2; ++side) {
    const Bits own = s.occ[static_cast<std::size_t>(side)];
    const Bits opp = s.occ[static_cast<std::size_t>(1 - side)];
    const bool enemy_has_men = (opp & ~s.kings) != 0;
    int pos = 0;
    for (Bits b = own; b != 0; b &= b - 1) {
      const int i = std::countr_zero(b);
      const Bits m = bit(i);
      material[static_cast<std::size_t>(side)] += worth(w, s, m);
      if ((s.kings & m) != 0) {
        if ((kCentre & m) != 0) pos += w.centre_king;
      } else {
        const int row = rel_row(i, side);
        pos += w.advance[static_cast<std::size_t>(row)];
        if (row == 0 && enemy_has_men) pos += w.back_guard;
        if ((kCentre & m) != 0) pos += w.centre_man;
      }
    }
    if (bombs) pos += w.blast_latent * latent_blast(s, side);
    positional[static_cast<std::size_t>(side)] = pos;
  }
  const int me = index(s.turn);
  const int total = material[0] + material[1];
  int score = material[static_cast<std::size_t>(me)] - material[static_cast<std::size_t>(1 - me)];
  // Ahead in material: trading down helps (the same lead weighs more with fewer pieces left).
  // With the hunt below it turned 3 kings v 2 (classic) from 4/16 wins to 11/16.
  score += score * 600 / (total + 600) / 2;
  score += positional[static_cast<std::size_t>(me)] - positional[static_cast<std::size_t>(1 - me)];
  score += hunt(s, material, me);
  if (bombs) score -= best_bomb_shot(w, s, 1 - me) / w.threat_div;
  return score;
}

// ---- Kaboom

struct KGrid {
  int w;
  int h;
  int n;
  const KaboomState& s;
  std::uint8_t at(int x, int y) const { return s.cells[static_cast<std::size_t>(y * w + x)]; }
  bool inside(int x, int y) const { return x >= 0 && x < w && y >= 0 && y < h; }
  int drop_row(int x) const {
    for (int y = 0; y < h; ++y) {
      if (at(x, y) == 0) return y;
    }
    return h;
  }
};

constexpr int owner(std::uint8_t code) {
  return (code - 1) % 2;
}
constexpr bool is_bomb_code(std::uint8_t code) {
  return code >= 3;
}
constexpr int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

// Whether a piece of `side` on (x, y) completes a line of n through that cell.
bool completes_line(const KGrid& g, int x, int y, int side) {
  for (const auto& d : kDirs) {
    int run = 1;
    for (int sign = -1; sign <= 1; sign += 2) {
      for (int k = 1; k < g.n; ++k) {
        const int cx = x + sign * k * d[0];
        const int cy = y + sign * k * d[1];
        if (!g.inside(cx, cy)) break;
        const std::uint8_t c = g.at(cx, cy);
        if (c == 0 || owner(c) != side) break;
        ++run;
      }
    }
    if (run >= g.n) return true;
  }
  return false;
}

int evaluate_kaboom(const Game& g, const KaboomState& s) {
  const Options& o = g.options();
  const KGrid grid{o.width, o.height, o.connect, s};
  const int n = o.connect;
  // Open lines: a window of n cells holding pieces of one side only, weighted by how full it is.
  std::array<int, 2> lines{};
  std::array<int, 2> threats{};
  for (int y = 0; y < grid.h; ++y) {
    for (int x = 0; x < grid.w; ++x) {
      for (const auto& d : kDirs) {
        const int ex = x + (n - 1) * d[0];
        const int ey = y + (n - 1) * d[1];
        if (!grid.inside(ex, ey)) continue;
        std::array<int, 2> count{};
        int empty_x = -1;
        int empty_y = -1;
        for (int k = 0; k < n; ++k) {
          const std::uint8_t c = grid.at(x + k * d[0], y + k * d[1]);
          if (c == 0) {
            empty_x = x + k * d[0];
            empty_y = y + k * d[1];
          } else {
            ++count[static_cast<std::size_t>(owner(c))];
          }
        }
        for (int side = 0; side < 2; ++side) {
          const int mine = count[static_cast<std::size_t>(side)];
          if (mine == 0 || count[static_cast<std::size_t>(1 - side)] != 0) continue;
          lines[static_cast<std::size_t>(side)] += (1 << (2 * (mine - 1))) * 4 / std::max(1, n - 2);
          if (mine == n - 1) {
            // A threat; connect-four parity: the first side wants its threats on odd rows
            // (y even, counting from 1), the second on even rows.
            int t = 40;
            if ((empty_y % 2 == 0) == (side == 0)) t += 15;
            if (grid.drop_row(empty_x) == empty_y) t += 10;  // playable now
            threats[static_cast<std::size_t>(side)] += t;
          }
        }
      }
    }
  }
  std::array<int, 2> bombs{};
  for (int side = 0; side < 2; ++side) {
    bombs[static_cast<std::size_t>(side)] += 30 * s.bombs_left[static_cast<std::size_t>(side)];
  }
  for (int y = 0; y < grid.h; ++y) {
    for (int x = 0; x < grid.w; ++x) {
      const std::uint8_t c = grid.at(x, y);
      if (c == 0 || !is_bomb_code(c)) continue;
      const int side = owner(c);
      int net = 0;
      auto look = [&](int cx, int cy) {
        if (!grid.inside(cx, cy) || (cx == x && cy == y)) return;
        const std::uint8_t q = grid.at(cx, cy);
        if (q != 0) net += owner(q) == side ? -1 : 2;
      };
      if (o.superbomb) {
        for (int cx = 0; cx < grid.w; ++cx) look(cx, y);
        for (int cy = 0; cy < grid.h; ++cy) look(x, cy);
      } else {
        look(x - 1, y);
        look(x + 1, y);
        look(x, y - 1);
        look(x, y + 1);
      }
      bombs[static_cast<std::size_t>(side)] += 20 + 6 * std::max(0, net);
    }
  }
  const int me = index(s.turn);
  const int sign = o.misere ? -1 : 1;
  int score =
      sign * (lines[static_cast<std::size_t>(me)] - lines[static_cast<std::size_t>(1 - me)] +
              threats[static_cast<std::size_t>(me)] - threats[static_cast<std::size_t>(1 - me)]);
  score += bombs[static_cast<std::size_t>(me)] - bombs[static_cast<std::size_t>(1 - me)];
  return score + 8;  // the move: the side to move can act first
}

}  // namespace

Evaluator::Evaluator(const Game& g) : variant_(g.variant()), options_(g.options()) {
  if (variant_ != VariantId::Kaboom) return;
  const int w = options_.width;
  const int h = options_.height;
  const int n = options_.connect;
  stride_ = h + 1;
  fast_ = w * stride_ <= 64;
  if (!fast_) return;
  auto cell = [&](int x, int y) { return std::uint64_t{1} << (x * stride_ + y); };
  for (int x = 0; x < w; ++x) {
    bottom_ |= cell(x, 0);
    for (int y = 0; y < h; ++y) {
      board_ |= cell(x, y);
      if (y % 2 == 0) even_rows_ |= cell(x, y);
    }
  }
  dirs_ = {1, stride_, stride_ + 1, stride_ - 1};  // up, right, up-right, down-right
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (const auto& d : kDirs) {
        const int ex = x + (n - 1) * d[0];
        const int ey = y + (n - 1) * d[1];
        if (ex < 0 || ex >= w || ey < 0 || ey >= h) continue;
        std::uint64_t m = 0;
        for (int k = 0; k < n; ++k) m |= cell(x + k * d[0], y + k * d[1]);
        windows_.push_back(m);
      }
    }
  }
}

Evaluator::KaboomBits Evaluator::bits(const KaboomState& s) const {
  KaboomBits b;
  const int w = options_.width;
  const int h = options_.height;
  for (int x = 0; x < w; ++x) {
    for (int y = 0; y < h; ++y) {
      const std::uint8_t c = s.cells[static_cast<std::size_t>(y * w + x)];
      if (c == 0) break;  // pieces stand on each other (X2)
      const std::uint64_t m = std::uint64_t{1} << (x * stride_ + y);
      b.own[static_cast<std::size_t>(owner(c))] |= m;
      if (is_bomb_code(c)) b.bombs |= m;
    }
  }
  return b;
}

// Cells where a piece would complete a line of N: for each direction, k own pieces on one side
// and N-1-k on the other. The padding bits stop runs at the columns' ends.
std::uint64_t Evaluator::winning_cells(std::uint64_t own) const {
  const int n = options_.connect;
  std::uint64_t win = 0;
  for (int d : dirs_) {
    std::uint64_t before[13];  // before[k]: the k cells before are own; [0, n) filled
    std::uint64_t after[13];
    before[0] = after[0] = ~std::uint64_t{0};
    for (int k = 1; k < n; ++k) {
      const int sh = k * d;
      before[k] = sh < 64 ? before[k - 1] & (own << sh) : 0;
      after[k] = sh < 64 ? after[k - 1] & (own >> sh) : 0;
    }
    for (int k = 0; k < n; ++k) win |= before[k] & after[n - 1 - k];
  }
  return win & board_;
}

int Evaluator::kaboom_fast(const KaboomState& s) const {
  const KaboomBits b = bits(s);
  const std::uint64_t occ = b.own[0] | b.own[1];
  const std::uint64_t empty = board_ & ~occ;
  const std::uint64_t playable = (occ + bottom_) & board_;
  const int n = options_.connect;
  std::array<int, 2> value{};
  for (std::uint64_t m : windows_) {
    const int c0 = std::popcount(b.own[0] & m);
    const int c1 = std::popcount(b.own[1] & m);
    if (c0 > 0 && c1 == 0) value[0] += (1 << (2 * (c0 - 1))) * 4 / std::max(1, n - 2);
    if (c1 > 0 && c0 == 0) value[1] += (1 << (2 * (c1 - 1))) * 4 / std::max(1, n - 2);
  }
  for (std::size_t side = 0; side < 2; ++side) {
    const std::uint64_t threats = winning_cells(b.own[side]) & empty;
    const std::uint64_t good = side == 0 ? even_rows_ : ~even_rows_;
    value[side] += 40 * std::popcount(threats) + 15 * std::popcount(threats & good) +
                   10 * std::popcount(threats & playable);
  }
  if (options_.misere) {
    value[0] = -value[0];
    value[1] = -value[1];
  }
  // Bombs: in hand (a flexible threat), on the board (worth more next to enemy pieces).
  for (std::size_t side = 0; side < 2; ++side) value[side] += 30 * s.bombs_left[side];
  for (std::uint64_t bb = b.bombs; bb != 0; bb &= bb - 1) {
    const int i = std::countr_zero(bb);
    const std::uint64_t m = std::uint64_t{1} << i;
    const std::size_t side = (b.own[1] & m) != 0 ? 1 : 0;
    std::uint64_t zone = 0;
    if (options_.superbomb) {
      const int x = i / stride_;
      const int y = i % stride_;
      for (int k = 0; k < options_.width; ++k) zone |= std::uint64_t{1} << (k * stride_ + y);
      for (int k = 0; k < options_.height; ++k) zone |= std::uint64_t{1} << (x * stride_ + k);
    } else {
      zone = ((m << 1) | (m >> 1) | (m << stride_) | (m >> stride_)) & board_;
    }
    zone &= ~m;
    const int net = 2 * std::popcount(zone & b.own[1 - side]) - std::popcount(zone & b.own[side]);
    value[side] += 20 + 6 * std::max(0, net);
  }
  const int me = index(s.turn);
  return value[static_cast<std::size_t>(me)] - value[static_cast<std::size_t>(1 - me)] + 8;
}

int Evaluator::operator()(const Game& g) const {
  if (const auto* c = std::get_if<CheckersState>(&g.state())) return evaluate_checkers(g, *c);
  const auto& k = std::get<KaboomState>(g.state());
  return fast_ ? kaboom_fast(k) : evaluate_kaboom(g, k);
}

std::uint32_t Evaluator::winning_drops(const Game& g, Side side) const {
  const auto* s = std::get_if<KaboomState>(&g.state());
  if (s == nullptr) return 0;
  std::uint32_t out = 0;
  if (fast_) {
    const KaboomBits b = bits(*s);
    const std::uint64_t playable = ((b.own[0] | b.own[1]) + bottom_) & board_;
    for (std::uint64_t w = winning_cells(b.own[static_cast<std::size_t>(index(side))]) & playable;
         w != 0; w &= w - 1) {
      out |= 1u << (std::countr_zero(w) / stride_);
    }
    return out;
  }
  const KGrid grid{options_.width, options_.height, options_.connect, *s};
  for (int x = 0; x < grid.w; ++x) {
    const int y = grid.drop_row(x);
    if (y < grid.h && completes_line(grid, x, y, index(side))) out |= 1u << x;
  }
  return out;
}

}  // namespace bc::ai::detail
