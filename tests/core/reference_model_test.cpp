// An independent, slow, obviously-written model of the checkers rules (RULES.md C, B, K, T and the
// lead's choices), compared hop by hop with the core on random positions and random games: the
// legal list, what each action captures, the board after it, and whether it ends the turn.
#include <map>
#include <optional>
#include <random>

#include "test_helpers.hpp"

namespace {

using namespace bct;

using Board = std::map<std::pair<int, int>, Piece>;

constexpr int kDirs[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

bool on_board(int x, int y) {
  return x >= 0 && x < 8 && y >= 0 && y < 8;
}

const Piece* at(const Board& b, int x, int y) {
  auto it = b.find({x, y});
  return it == b.end() ? nullptr : &it->second;
}

int forward(Side s) {
  return s == Side::First ? 1 : -1;
}
int far_row(Side s) {
  return s == Side::First ? 7 : 0;
}
int own_row(Side s) {
  return s == Side::First ? 0 : 7;
}

struct Hop {
  Square to;
  std::vector<Square> captured;
};

// Capture hops of the piece on `from` (RULES.md C3, B3, K, T3, T5b).
std::vector<Hop> capture_hops(VariantId v, const Board& b, Square from) {
  const Piece& p = *at(b, from.x, from.y);
  std::vector<Hop> out;
  for (const auto& d : kDirs) {
    const int dx = d[0];
    const int dy = d[1];
    if (p.rank == Rank::Man && dy != forward(p.side)) continue;
    const bool flying = v == VariantId::TripleKing && p.rank != Rank::Man;
    const bool triple = v == VariantId::TripleKing && p.rank == Rank::TripleKing;
    if (!flying) {
      const Piece* mid = at(b, from.x + dx, from.y + dy);
      const int lx = from.x + 2 * dx;
      const int ly = from.y + 2 * dy;
      if (mid && mid->side != p.side && on_board(lx, ly) && !at(b, lx, ly)) {
        out.push_back({{lx, ly}, {{from.x + dx, from.y + dy}}});
      }
      continue;
    }
    // Flying: pass empty squares (and own pieces for a triple king) up to the first opponent.
    int x = from.x + dx;
    int y = from.y + dy;
    while (on_board(x, y)) {
      const Piece* q = at(b, x, y);
      if (!q || (triple && q->side == p.side)) {
        x += dx;
        y += dy;
        continue;
      }
      break;
    }
    if (!on_board(x, y) || at(b, x, y)->side == p.side) continue;
    std::vector<Square> taken{{x, y}};
    x += dx;
    y += dy;
    if (triple && on_board(x, y) && at(b, x, y) && at(b, x, y)->side != p.side) {
      taken.push_back({x, y});  // T5b: a pair in one hop
      x += dx;
      y += dy;
    }
    // Landing squares beyond (T3, T5b): the empty ones up to the next piece, own or not.
    while (on_board(x, y) && !at(b, x, y)) {
      out.push_back({{x, y}, taken});
      x += dx;
      y += dy;
    }
  }
  return out;
}

std::vector<Square> step_targets(VariantId v, const Board& b, Square from) {
  const Piece& p = *at(b, from.x, from.y);
  std::vector<Square> out;
  for (const auto& d : kDirs) {
    if (p.rank == Rank::Man && d[1] != forward(p.side)) continue;
    int x = from.x + d[0];
    int y = from.y + d[1];
    if (on_board(x, y) && !at(b, x, y)) out.push_back({x, y});
    if (v != VariantId::TripleKing || p.rank != Rank::TripleKing) continue;
    // T5a: leap over own pieces, landing on any empty square after the first own piece.
    bool passed_own = false;
    while (on_board(x, y)) {
      const Piece* q = at(b, x, y);
      if (q && q->side != p.side) break;
      if (q) {
        passed_own = true;
      } else if (passed_own) {
        out.push_back({x, y});
      }
      x += d[0];
      y += d[1];
    }
  }
  return out;
}

struct HopResult {
  Board board;
  bool crowned = false;
  bool exploded = false;
  std::vector<Square> exploded_squares;
};

// Moves the piece, removes what it took, then blasts (bomb) or crowns.
HopResult do_hop(VariantId v, const Board& b, Square from, Square to,
                 const std::vector<Square>& captured) {
  HopResult r;
  r.board = b;
  Piece p = r.board.at({from.x, from.y});
  r.board.erase({from.x, from.y});
  for (const auto& c : captured) r.board.erase({c.x, c.y});
  p.at = to;
  const bool jump = !captured.empty();
  if (v == VariantId::Bomb && p.kind == Kind::Bomb && jump) {  // B7, B8: only a jump explodes
    r.exploded = true;
    r.exploded_squares.push_back(to);
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        auto it = r.board.find({to.x + dx, to.y + dy});
        if (it != r.board.end() && it->second.kind != Kind::Shield) {
          r.exploded_squares.push_back(it->second.at);
          r.board.erase(it);
        }
      }
    }
    return r;
  }
  if (p.rank == Rank::Man && to.y == far_row(p.side)) {
    p.rank = Rank::King;
    r.crowned = true;
  } else if (v == VariantId::TripleKing && p.rank == Rank::King && to.y == own_row(p.side)) {
    p.rank = Rank::TripleKing;
    r.crowned = true;
  }
  r.board[{to.x, to.y}] = p;
  return r;
}

// T2: the most pieces a capture sequence can still take from `from` (0 if none).
int best_sequence(const Board& b, Square from) {
  int best = 0;
  for (const auto& h : capture_hops(VariantId::TripleKing, b, from)) {
    HopResult r = do_hop(VariantId::TripleKing, b, from, h.to, h.captured);
    best = std::max(best, static_cast<int>(h.captured.size()) + best_sequence(r.board, h.to));
  }
  return best;
}

struct ModelState {
  Board board;
  Side turn = Side::First;
  std::optional<Square> jumper;
};

std::vector<Action> model_legal(VariantId v, const ModelState& s) {
  std::vector<Action> out;
  std::vector<Square> mine;
  if (s.jumper) {
    mine.push_back(*s.jumper);
  } else {
    for (const auto& [k, p] : s.board) {
      if (p.side == s.turn) mine.push_back(p.at);
    }
  }
  std::vector<std::pair<Action, int>> jumps;  // with the pieces the best sequence takes
  for (const auto& sq : mine) {
    for (const auto& h : capture_hops(v, s.board, sq)) {
      int total = static_cast<int>(h.captured.size());
      if (v == VariantId::TripleKing) {
        total += best_sequence(do_hop(v, s.board, sq, h.to, h.captured).board, h.to);
      }
      jumps.push_back({A::jump(sq, h.to), total});
    }
  }
  int max_total = 0;
  for (const auto& j : jumps) max_total = std::max(max_total, j.second);
  for (const auto& j : jumps) {
    if (v != VariantId::TripleKing || j.second == max_total) out.push_back(j.first);
  }
  if (s.jumper) {
    if (v == VariantId::Bomb) out.push_back(A::end_turn());
    return out;
  }
  if (!out.empty() && v != VariantId::Bomb) return out;  // K2, T2 compulsory; B4 optional
  for (const auto& sq : mine) {
    for (const auto& t : step_targets(v, s.board, sq)) out.push_back(A::step(sq, t));
  }
  return out;
}

ModelState model_of(const Game& g) {
  ModelState s;
  for (const auto& p : g.pieces()) s.board[{p.at.x, p.at.y}] = p;
  s.turn = g.turn();
  s.jumper = g.jumper();
  return s;
}

std::vector<Piece> board_pieces(const Board& b) {
  std::vector<Piece> out;
  for (const auto& [k, p] : b) out.push_back(p);
  return sorted_pieces(out);
}

std::vector<Square> hop_captures(VariantId v, const Board& b, const Action& a) {
  for (const auto& h : capture_hops(v, b, a.from)) {
    if (h.to == a.to) return h.captured;
  }
  return {};
}

// Checks one state against the model: legal list, then every action's outcome.
void compare_state(const Game& g) {
  const VariantId v = g.variant();
  const ModelState s = model_of(g);
  const auto legal = g.legal();
  if (g.over()) return;
  ASSERT_THAT(legal, UnorderedElementsAreArray(model_legal(v, s)))
      << "turn " << (s.turn == Side::First ? "first" : "second") << " jumper "
      << (s.jumper ? std::to_string(s.jumper->x) + "," + std::to_string(s.jumper->y) : "-");
  for (const auto& a : legal) {
    Applied r = play(g, a);
    SCOPED_TRACE(describe(a));
    if (a.kind == bc::ActionKind::EndTurn) {
      EXPECT_EQ(r.next.pieces(), g.pieces());
      EXPECT_TRUE(r.effects.turn_over);
      continue;
    }
    const auto captured = hop_captures(v, s.board, a);
    EXPECT_THAT(r.effects.captured, UnorderedElementsAreArray(captured));
    HopResult h = do_hop(v, s.board, a.from, a.to, captured);
    EXPECT_EQ(r.next.pieces(), board_pieces(h.board));
    EXPECT_THAT(r.effects.exploded, UnorderedElementsAreArray(h.exploded_squares));
    if (h.crowned) {
      EXPECT_THAT(r.effects.promoted, ElementsAre(a.to));
    } else {
      EXPECT_THAT(r.effects.promoted, IsEmpty());
    }
    // Does the turn go on? Only after a jump that did not blow up, by the same piece.
    bool goes_on = false;
    if (!captured.empty() && !h.exploded && !(v == VariantId::Classic && h.crowned)) {
      goes_on = !capture_hops(v, h.board, a.to).empty();
    }
    EXPECT_EQ(r.effects.turn_over, !goes_on);
    if (goes_on) {
      EXPECT_EQ(r.next.jumper(), a.to);
    }
  }
}

void play_and_compare(Game g, std::mt19937& rng, int max_actions) {
  for (int i = 0; i < max_actions && !g.over(); ++i) {
    compare_state(g);
    if (::testing::Test::HasFatalFailure()) return;
    auto legal = g.legal();
    g = play(g, legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]).next;
  }
}

class ReferenceModel : public ::testing::TestWithParam<VariantId> {};

TEST_P(ReferenceModel, RandomGamesFromTheStart) {
  const VariantId v = GetParam();
  std::mt19937 rng(31337u + static_cast<unsigned>(v));
  for (int game = 0; game < 150; ++game) {
    SCOPED_TRACE("game " + std::to_string(game));
    play_and_compare(start(v), rng, 400);
    if (HasFatalFailure()) return;
  }
}

TEST_P(ReferenceModel, RandomPositions) {
  const VariantId v = GetParam();
  std::mt19937 rng(2718u + static_cast<unsigned>(v));
  std::vector<Square> squares;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      if ((x + y) % 2 == 0) squares.push_back({x, y});
    }
  }
  int accepted = 0;
  for (int i = 0; i < 4000 && accepted < 1500; ++i) {
    std::shuffle(squares.begin(), squares.end(), rng);
    bc::Position p;
    const int n = 2 + static_cast<int>(rng() % 18);
    for (int k = 0; k < n; ++k) {
      Piece pc;
      pc.at = squares[static_cast<std::size_t>(k)];
      pc.side = rng() % 2 ? Side::First : Side::Second;
      const int r = static_cast<int>(rng() % 10);
      pc.rank = r < 5 ? Rank::Man : Rank::King;
      if (v == VariantId::TripleKing && r >= 8) pc.rank = Rank::TripleKing;
      if (pc.rank == Rank::Man && pc.at.y == far_row(pc.side)) pc.rank = Rank::King;
      if (v == VariantId::Bomb) {
        const int kd = static_cast<int>(rng() % 3);
        pc.kind = kd == 0 ? Kind::Normal : kd == 1 ? Kind::Shield : Kind::Bomb;
      }
      p.pieces.push_back(pc);
    }
    p.turn = rng() % 2 ? Side::First : Side::Second;
    auto made = Game::from_position(v, bc::default_options(v), p);
    if (!std::holds_alternative<Game>(made)) continue;
    ++accepted;
    std::ostringstream os;
    for (const auto& pc : p.pieces) bc::PrintTo(pc, &os);
    SCOPED_TRACE(os.str() + (p.turn == Side::First ? " first to move" : " second to move"));
    play_and_compare(std::get<Game>(made), rng, 30);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(accepted, 500);
}

std::string checkers_name(const ::testing::TestParamInfo<VariantId>& p) {
  switch (p.param) {
    case VariantId::Bomb:
      return "bomb";
    case VariantId::Classic:
      return "classic";
    case VariantId::TripleKing:
      return "triple_king";
    case VariantId::Kaboom:
      return "kaboom";
  }
  return "unknown";
}

INSTANTIATE_TEST_SUITE_P(Checkers, ReferenceModel,
                         ::testing::Values(VariantId::Bomb, VariantId::Classic,
                                           VariantId::TripleKing),
                         checkers_name);

}  // namespace

// Kaboom (RULES.md X): a plain grid model compared action by action with the core.
namespace {

using namespace bct;

struct KModel {
  int w = 0;
  int h = 0;
  std::vector<int> cell;  // -1 empty, else side index + 2 * bomb
  std::array<int, 2> bombs{};
  Side turn = Side::First;
  int& at(int x, int y) { return cell[static_cast<std::size_t>(y * w + x)]; }
  int get(int x, int y) const { return cell[static_cast<std::size_t>(y * w + x)]; }
};

KModel kmodel_of(const Game& g) {
  KModel m;
  m.w = g.width();
  m.h = g.height();
  m.cell.assign(static_cast<std::size_t>(m.w * m.h), -1);
  for (const auto& p : g.pieces()) {
    m.at(p.at.x, p.at.y) = bc::index(p.side) + (p.kind == Kind::Bomb ? 2 : 0);
  }
  m.bombs = g.bombs_left();
  m.turn = g.turn();
  return m;
}

std::vector<Piece> kmodel_pieces(const KModel& m) {
  std::vector<Piece> out;
  for (int y = 0; y < m.h; ++y) {
    for (int x = 0; x < m.w; ++x) {
      const int c = m.get(x, y);
      if (c < 0) continue;
      out.push_back(c >= 2 ? bomb(static_cast<Side>(c - 2), x, y)
                           : man(static_cast<Side>(c), x, y));
    }
  }
  return out;
}

std::vector<Action> kmodel_legal(const KModel& m) {
  std::vector<Action> out;
  const int me = bc::index(m.turn);
  for (int x = 0; x < m.w; ++x) {
    if (m.get(x, m.h - 1) >= 0) continue;
    out.push_back(A::drop(x, Kind::Normal));
    if (m.bombs[static_cast<std::size_t>(me)] > 0) out.push_back(A::drop(x, Kind::Bomb));
  }
  for (int y = 0; y < m.h; ++y) {
    for (int x = 0; x < m.w; ++x) {
      if (m.get(x, y) == me + 2) out.push_back(A::detonate({x, y}));
    }
  }
  return out;
}

// Applies an action; returns the squares removed by a detonation.
std::vector<Square> kmodel_apply(KModel& m, const Action& a, bool superbomb) {
  std::vector<Square> removed;
  const int me = bc::index(m.turn);
  if (a.kind == bc::ActionKind::Drop) {
    int y = 0;
    while (m.get(a.column, y) >= 0) ++y;
    m.at(a.column, y) = me + (a.piece == Kind::Bomb ? 2 : 0);
    if (a.piece == Kind::Bomb) --m.bombs[static_cast<std::size_t>(me)];
  } else {
    // The chain on the board as it stands, then one fall.
    std::vector<bool> gone(m.cell.size(), false);
    std::vector<Square> todo{a.at};
    gone[static_cast<std::size_t>(a.at.y * m.w + a.at.x)] = true;
    while (!todo.empty()) {
      const Square b = todo.back();
      todo.pop_back();
      std::vector<Square> hit;
      if (superbomb) {
        for (int x = 0; x < m.w; ++x) hit.push_back({x, b.y});
        for (int y = 0; y < m.h; ++y) hit.push_back({b.x, y});
      } else {
        hit = {{b.x - 1, b.y}, {b.x + 1, b.y}, {b.x, b.y - 1}, {b.x, b.y + 1}};
      }
      for (const auto& s : hit) {
        if (s.x < 0 || s.x >= m.w || s.y < 0 || s.y >= m.h) continue;
        const auto i = static_cast<std::size_t>(s.y * m.w + s.x);
        if (m.cell[i] < 0 || gone[i]) continue;
        gone[i] = true;
        if (m.cell[i] >= 2) todo.push_back(s);
      }
    }
    for (int y = 0; y < m.h; ++y) {
      for (int x = 0; x < m.w; ++x) {
        if (gone[static_cast<std::size_t>(y * m.w + x)]) {
          removed.push_back({x, y});
          m.at(x, y) = -1;
        }
      }
    }
    for (int x = 0; x < m.w; ++x) {
      int to = 0;
      for (int y = 0; y < m.h; ++y) {
        const int c = m.get(x, y);
        if (c < 0) continue;
        m.at(x, y) = -1;
        m.at(x, to++) = c;
      }
    }
  }
  m.turn = bc::other(m.turn);
  return removed;
}

bool kmodel_line(const KModel& m, int side, int n) {
  const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int y = 0; y < m.h; ++y) {
    for (int x = 0; x < m.w; ++x) {
      for (const auto& d : dirs) {
        int k = 0;
        int cx = x;
        int cy = y;
        while (cx >= 0 && cx < m.w && cy >= 0 && cy < m.h && m.get(cx, cy) >= 0 &&
               m.get(cx, cy) % 2 == side) {
          ++k;
          cx += d[0];
          cy += d[1];
        }
        if (k >= n) return true;
      }
    }
  }
  return false;
}

std::optional<Result> kmodel_result(const KModel& m, const Options& o) {
  const bool x = kmodel_line(m, 0, o.connect);
  const bool y = kmodel_line(m, 1, o.connect);
  if (x && y) return draw(Reason::Connect);
  if (x || y) {
    Side s = x ? Side::First : Side::Second;
    if (o.misere) s = bc::other(s);
    return win(s, Reason::Connect);
  }
  bool full = true;
  bool own_bomb = false;
  for (int xx = 0; xx < m.w; ++xx) full = full && m.get(xx, m.h - 1) >= 0;
  for (int c : m.cell) own_bomb = own_bomb || c == bc::index(m.turn) + 2;
  if (full && !own_bomb) return draw(Reason::BoardFull);
  return std::nullopt;
}

TEST(KaboomReferenceModel, RandomGames) {
  std::mt19937 rng(8080);
  const std::vector<Options> setups{
      bc::default_options(VariantId::Kaboom),
      opts(VariantId::Kaboom, {{"bombs", 4}}),
      opts(VariantId::Kaboom, {{"bombs", 3}, {"superbomb", 1}}),
      opts(VariantId::Kaboom,
           {{"width", 4}, {"height", 5}, {"connect", 3}, {"bombs", 5}, {"misere", 1}}),
      opts(VariantId::Kaboom, {{"width", 3}, {"height", 3}, {"connect", 3}, {"bombs", 2}}),
      opts(VariantId::Kaboom,
           {{"width", 6}, {"height", 5}, {"bombs", 6}, {"superbomb", 1}, {"misere", 1}})};
  int draws = 0;
  int full = 0;
  for (const Options& o : setups) {
    for (int game = 0; game < 200; ++game) {
      Game g = start(VariantId::Kaboom, o);
      SCOPED_TRACE("game " + std::to_string(game) + " width " + std::to_string(o.width));
      while (!g.over()) {
        KModel m = kmodel_of(g);
        const auto legal = g.legal();
        ASSERT_THAT(legal, UnorderedElementsAreArray(kmodel_legal(m)));
        // Prefer detonations now and then, so chains happen.
        Action a = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
        for (const auto& b : legal) {
          if (b.kind == bc::ActionKind::Detonate && rng() % 3 == 0) a = b;
        }
        Applied r = play(g, a);
        const auto removed = kmodel_apply(m, a, o.superbomb);
        ASSERT_EQ(r.next.pieces(), kmodel_pieces(m)) << describe(a);
        EXPECT_EQ(r.next.bombs_left(), m.bombs);
        if (a.kind == bc::ActionKind::Detonate) {
          EXPECT_THAT(r.effects.exploded, UnorderedElementsAreArray(removed)) << describe(a);
        }
        const auto res = kmodel_result(m, o);
        ASSERT_EQ(r.next.result(), res) << describe(a);
        if (res && !res->winner) ++draws;
        if (res && res->reason == Reason::BoardFull) ++full;
        if (!res) {
          EXPECT_EQ(r.next.turn(), m.turn);
        }
        g = r.next;
      }
    }
  }
  EXPECT_GT(draws, 0);
  EXPECT_GT(full, 0);
}

}  // namespace
