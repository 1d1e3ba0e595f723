// Invariants over every variant: random playouts (seeded) check every state and every action.
#include <map>
#include <random>
#include <set>

#include "test_helpers.hpp"

namespace {

using namespace bct;

class Invariants : public ::testing::TestWithParam<VariantId> {};

std::string variant_param_name(const ::testing::TestParamInfo<VariantId>& p) {
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

bool contains(const std::vector<Action>& v, const Action& a) {
  return std::find(v.begin(), v.end(), a) != v.end();
}

std::string actions_text(const std::vector<Action>& v) {
  return describe(v);
}

// Everything that must hold of one state.
void check_state(const Game& g) {
  const VariantId v = g.variant();
  const auto ps = g.pieces();
  std::set<std::pair<int, int>> seen;
  std::array<std::array<int, 2>, 2> bombs_on_board{};  // [side][0]
  for (const auto& p : ps) {
    ASSERT_TRUE(seen.insert({p.at.x, p.at.y}).second) << "two pieces on one square";
    ASSERT_GE(p.at.x, 0);
    ASSERT_LT(p.at.x, g.width());
    ASSERT_GE(p.at.y, 0);
    ASSERT_LT(p.at.y, g.height());
    EXPECT_EQ(g.piece_at(p.at), p);
    switch (v) {
      case VariantId::Bomb:
        EXPECT_NE(p.rank, Rank::TripleKing);
        break;
      case VariantId::Classic:
        EXPECT_EQ(p.kind, Kind::Normal);
        EXPECT_NE(p.rank, Rank::TripleKing);
        break;
      case VariantId::TripleKing:
        EXPECT_EQ(p.kind, Kind::Normal);
        break;
      case VariantId::Kaboom:
        EXPECT_NE(p.kind, Kind::Shield);
        EXPECT_EQ(p.rank, Rank::Man);
        break;
    }
    if (bc::is_checkers(v)) {
      EXPECT_EQ((p.at.x + p.at.y) % 2, 0) << "piece on a non-playable square";
      // C4, B8: a man of any kind reaching its far row is crowned there (a jumping bomb explodes).
      EXPECT_FALSE(p.rank == Rank::Man && p.at.y == (p.side == Side::First ? 7 : 0))
          << "an uncrowned man on its far row";
      EXPECT_EQ(g.width(), 8);
      EXPECT_EQ(g.height(), 8);
    } else {
      if (p.at.y > 0) {
        EXPECT_TRUE(g.piece_at({p.at.x, p.at.y - 1}).has_value()) << "floating piece";
      }
      if (p.kind == Kind::Bomb) ++bombs_on_board[bc::index(p.side)][0];
    }
  }
  EXPECT_EQ(ps, sorted_pieces(ps)) << "pieces() sorted by (y, x)";

  const auto legal = g.legal();
  EXPECT_EQ(legal.empty(), g.over()) << "legal() is empty exactly when the game is over";
  for (const auto& a : legal) EXPECT_TRUE(g.is_legal(a)) << describe(a);
  {
    std::set<std::tuple<int, int, int, int, int, int, int, int, int>> uniq;
    for (const auto& a : legal) {
      uniq.insert({static_cast<int>(a.kind), a.from.x, a.from.y, a.to.x, a.to.y, a.at.x, a.at.y,
                   a.column, static_cast<int>(a.piece)});
    }
    EXPECT_EQ(uniq.size(), legal.size()) << "duplicate legal actions: " << actions_text(legal);
  }

  if (bc::is_checkers(v)) {
    EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{0, 0}));
    EXPECT_EQ(g.mid_turn(), g.jumper().has_value());
    EXPECT_GE(g.quiet_turns(), 0);
    if (g.options().draw_turns > 0) {
      EXPECT_LE(g.quiet_turns(), g.options().draw_turns);
    }
    for (const auto& a : legal) {
      EXPECT_TRUE(a.kind == bc::ActionKind::Step || a.kind == bc::ActionKind::Jump ||
                  a.kind == bc::ActionKind::EndTurn)
          << describe(a);
      if (a.kind == bc::ActionKind::EndTurn) {
        EXPECT_EQ(v, VariantId::Bomb) << "end_turn only in bomb";
        EXPECT_TRUE(g.mid_turn()) << "end_turn only while continuing is optional";
      }
      if (a.kind != bc::ActionKind::EndTurn) {
        auto p = g.piece_at(a.from);
        ASSERT_TRUE(p.has_value()) << describe(a);
        EXPECT_EQ(p->side, g.turn()) << describe(a);
        EXPECT_FALSE(g.piece_at(a.to).has_value()) << describe(a);
      }
      if (g.mid_turn()) {
        if (a.kind != bc::ActionKind::EndTurn) {
          EXPECT_EQ(a.kind, bc::ActionKind::Jump) << describe(a);
          EXPECT_EQ(a.from, *g.jumper()) << describe(a);
        }
      }
    }
    if (g.mid_turn() && v == VariantId::Bomb) {
      EXPECT_TRUE(contains(legal, A::end_turn())) << "bomb: continuing is optional (B5)";
    }
  } else {
    for (int s = 0; s < 2; ++s) {
      EXPECT_GE(g.bombs_left()[static_cast<std::size_t>(s)], 0);
      EXPECT_LE(g.bombs_left()[static_cast<std::size_t>(s)] +
                    bombs_on_board[static_cast<std::size_t>(s)][0],
                g.options().bombs)
          << "bombs left + bombs on the board cannot exceed the bombs option";
    }
    EXPECT_FALSE(g.mid_turn());
    for (const auto& a : legal) {
      if (a.kind == bc::ActionKind::Detonate) {
        auto p = g.piece_at(a.at);
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->side, g.turn());
        EXPECT_EQ(p->kind, Kind::Bomb);
      } else {
        ASSERT_EQ(a.kind, bc::ActionKind::Drop) << describe(a);
        ASSERT_GE(a.column, 0);
        ASSERT_LT(a.column, g.width());
        EXPECT_FALSE(g.piece_at({a.column, g.height() - 1}).has_value()) << "column is full";
        if (a.piece == Kind::Bomb) {
          EXPECT_GT(g.bombs_left()[static_cast<std::size_t>(bc::index(g.turn()))], 0);
        }
      }
    }
  }
  Game copy = g;
  EXPECT_EQ(copy, g);
  EXPECT_EQ(copy.hash(), g.hash());
}

// Checks of one action against the states before and after.
void check_transition(const Game& before, const Action& a, const Applied& r) {
  const Game& after = r.next;
  const Effects& e = r.effects;
  for (Side side : {Side::First, Side::Second}) {
    const bool drop = a.kind == bc::ActionKind::Drop && before.turn() == side;
    EXPECT_LE(count_side(after, side), count_side(before, side) + (drop ? 1 : 0))
        << "piece counts never increase (a kaboom drop adds one)";
  }
  if (e.turn_over) {
    EXPECT_FALSE(after.mid_turn());
    EXPECT_TRUE(after.over() || after.turn() == bc::other(before.turn()));
  } else {
    EXPECT_TRUE(bc::is_checkers(before.variant()));
    EXPECT_FALSE(after.over());
    EXPECT_TRUE(after.mid_turn());
    EXPECT_EQ(after.turn(), before.turn());
  }
  for (const auto& s : e.captured) {
    auto p = before.piece_at(s);
    ASSERT_TRUE(p.has_value()) << "captured an empty square";
    EXPECT_NE(p->side, before.turn()) << "captured an own piece";
    EXPECT_FALSE(after.piece_at(s).has_value());
  }
  if (a.kind == bc::ActionKind::Jump) {
    EXPECT_FALSE(e.captured.empty());
  }
  if (a.kind == bc::ActionKind::Step || a.kind == bc::ActionKind::EndTurn ||
      a.kind == bc::ActionKind::Drop) {
    EXPECT_THAT(e.captured, IsEmpty());
  }
  if (bc::is_checkers(before.variant())) {
    for (const auto& s : e.exploded) {
      EXPECT_FALSE(after.piece_at(s).has_value()) << "exploded square still occupied";
    }
    if (before.variant() != VariantId::Bomb) {
      EXPECT_THAT(e.exploded, IsEmpty());
    }
    for (const auto& s : e.promoted) {
      auto p = after.piece_at(s);
      ASSERT_TRUE(p.has_value());
      EXPECT_NE(p->rank, Rank::Man);
    }
    if (a.kind == bc::ActionKind::Step || a.kind == bc::ActionKind::Jump) {
      const auto moved = before.piece_at(a.from);
      ASSERT_TRUE(moved.has_value());
      const auto landed = after.piece_at(a.to);
      const bool blown = std::find(e.exploded.begin(), e.exploded.end(), a.to) != e.exploded.end();
      if (!blown) {
        ASSERT_TRUE(landed.has_value());
        EXPECT_EQ(landed->side, moved->side);
        EXPECT_EQ(landed->kind, moved->kind);
        EXPECT_GE(landed->rank, moved->rank) << "ranks never go down";
      } else if (blown) {
        EXPECT_EQ(moved->kind, Kind::Bomb) << "only bombs blow up";
      }
    }
  } else {
    EXPECT_THAT(e.promoted, IsEmpty());
  }
}

// Replays every turn of turns(): each must be applicable and end the turn exactly at its end.
void check_turns(const Game& g) {
  const auto ts = g.turns();
  if (g.over()) {
    EXPECT_THAT(ts, IsEmpty());
    return;
  }
  ASSERT_FALSE(ts.empty()) << "turns() empty for a live game";
  std::set<std::vector<std::tuple<int, int, int, int, int, int, int, int, int>>> uniq;
  std::vector<Action> firsts;
  for (const auto& t : ts) {
    ASSERT_FALSE(t.actions.empty());
    std::vector<std::tuple<int, int, int, int, int, int, int, int, int>> key;
    Game cur = g;
    for (std::size_t i = 0; i < t.actions.size(); ++i) {
      const Action& a = t.actions[i];
      key.push_back({static_cast<int>(a.kind), a.from.x, a.from.y, a.to.x, a.to.y, a.at.x, a.at.y,
                     a.column, static_cast<int>(a.piece)});
      auto r = cur.apply(a);
      ASSERT_TRUE(r.has_value()) << "turn action " << i << " " << describe(a) << " refused";
      const bool last = i + 1 == t.actions.size();
      EXPECT_EQ(r->effects.turn_over, last) << "turn_over at action " << i;
      cur = r->next;
    }
    EXPECT_TRUE(cur.over() || cur.turn() == bc::other(g.turn()));
    EXPECT_TRUE(uniq.insert(key).second) << "duplicate turn";
    if (!contains(firsts, t.actions[0])) firsts.push_back(t.actions[0]);
  }
  EXPECT_THAT(firsts, UnorderedElementsAreArray(g.legal()))
      << "every legal action starts a turn, and every turn starts with a legal action";
}

Action random_garbage(std::mt19937& rng) {
  std::uniform_int_distribution<int> kind(0, 4);
  std::uniform_int_distribution<int> coord(-2, 13);
  std::uniform_int_distribution<int> pk(0, 2);
  Action a;
  a.kind = static_cast<bc::ActionKind>(kind(rng));
  switch (a.kind) {
    case bc::ActionKind::Step:
    case bc::ActionKind::Jump:
      a.from = {coord(rng) % 9, coord(rng) % 9};
      a.to = {coord(rng) % 9, coord(rng) % 9};
      break;
    case bc::ActionKind::Drop:
      a.column = coord(rng);
      a.piece = static_cast<Kind>(pk(rng));
      break;
    case bc::ActionKind::Detonate:
      a.at = {coord(rng), coord(rng) % 8};
      break;
    case bc::ActionKind::EndTurn:
      break;
  }
  // Sometimes leave a stray field set that the kind does not use.
  if (rng() % 8 == 0) a.column = 1;
  return a;
}

// A near-miss: a legal action with one field nudged.
Action nudged(const Action& a, std::mt19937& rng) {
  Action b = a;
  switch (rng() % 5) {
    case 0:
      b.to.x += 1;
      break;
    case 1:
      b.from.y -= 1;
      break;
    case 2:
      b.column += 1;
      break;
    case 3:
      b.at.y += 1;
      break;
    default:
      b.piece = b.piece == Kind::Normal ? Kind::Bomb : Kind::Normal;
      break;
  }
  return b;
}

void check_refusals(const Game& g, std::mt19937& rng) {
  const auto legal = g.legal();
  std::vector<Action> probes;
  for (int i = 0; i < 6; ++i) probes.push_back(random_garbage(rng));
  for (const auto& a : legal) {
    if (rng() % 3 == 0) probes.push_back(nudged(a, rng));
  }
  for (const auto& a : probes) {
    const bool in = contains(legal, a);
    EXPECT_EQ(g.is_legal(a), in) << describe(a);
    const Game copy = g;
    auto r = g.apply(a);
    EXPECT_EQ(r.has_value(), in) << describe(a) << " legal: " << actions_text(legal);
    EXPECT_EQ(g, copy);
  }
}

struct PlayoutStats {
  long games = 0;
  long actions = 0;
  std::map<std::string, long> results;
};

void random_playout(const Game& start_game, std::mt19937& rng, PlayoutStats& stats, bool deep) {
  Game g = start_game;
  // C6 bounds a checkers game: at most 24 removals and 24 * 7 man moves, and no more than
  // draw_turns quiet turns between two of them. X6 bounds kaboom the same way.
  const Options& o = g.options();
  const long max_turns =
      bc::is_checkers(g.variant())
          ? (24L + 24L * 7 + 1) * (o.draw_turns + 1)
          : static_cast<long>(o.width) * o.height * (2L * o.bombs + 1) + 2L * o.bombs;
  long turns = 0;
  long step = 0;
  while (!g.over()) {
    check_state(g);
    if (::testing::Test::HasFatalFailure()) return;
    if (deep || step % 5 == 0) {
      check_turns(g);
      check_refusals(g, rng);
      if (::testing::Test::HasFatalFailure()) return;
    }
    auto legal = g.legal();
    ASSERT_FALSE(legal.empty());
    const Action a = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    const Game before = g;
    auto r = g.apply(a);
    ASSERT_TRUE(r.has_value()) << describe(a);
    ASSERT_EQ(g, before) << "apply changed its input";
    check_transition(before, a, *r);
    if (::testing::Test::HasFatalFailure()) return;
    if (r->effects.turn_over) ++turns;
    ASSERT_LE(turns, max_turns) << "game does not end";
    g = std::move(r->next);
    ++step;
    ++stats.actions;
  }
  check_state(g);
  check_turns(g);
  ++stats.games;
  const auto& res = *g.result();
  const char* who = !res.winner ? "/draw" : *res.winner == Side::First ? "/first" : "/second";
  stats.results[std::string(bc::reason_name(res.reason)) + who]++;
}

TEST_P(Invariants, RandomPlayoutsEndAndKeepInvariants) {
  const VariantId v = GetParam();
  std::mt19937 rng(12345u + static_cast<unsigned>(v));
  PlayoutStats stats;
  std::vector<Options> setups;
  if (bc::is_checkers(v)) {
    setups = {bc::default_options(v), opts(v, {{"draw_turns", 12}})};
  } else {
    setups = {bc::default_options(v), opts(v, {{"bombs", 3}}),
              opts(v, {{"bombs", 2}, {"superbomb", 1}}),
              opts(v, {{"width", 5}, {"height", 4}, {"connect", 3}, {"bombs", 4}, {"misere", 1}})};
  }
  const int games = bc::is_checkers(v) ? 350 : 200;
  for (const Options& o : setups) {
    Game g0 = start(v, o);
    for (int i = 0; i < games; ++i) {
      random_playout(g0, rng, stats, i < 5);
      if (HasFatalFailure()) return;
    }
  }
  std::string summary;
  for (const auto& [k, n] : stats.results) summary += k + "=" + std::to_string(n) + " ";
  RecordProperty("results", summary);
  EXPECT_GT(stats.games, 0);
}

TEST_P(Invariants, LegalEmptyExactlyWhenOver) {
  const VariantId v = GetParam();
  Game g = start(v);
  EXPECT_FALSE(g.over());
  EXPECT_FALSE(g.legal().empty());
  Game r = g.resigned(Side::Second);
  EXPECT_TRUE(r.over());
  EXPECT_THAT(r.legal(), IsEmpty());
  EXPECT_THAT(r.turns(), IsEmpty());
  for (const auto& a : g.legal())
    EXPECT_FALSE(r.apply(a).has_value()) << "a finished game refuses actions";
  Game d = g.drawn_by_agreement();
  EXPECT_THAT(d.legal(), IsEmpty());
  EXPECT_NE(d, r);
}

TEST_P(Invariants, GarbageActionsRefusedAtStart) {
  const VariantId v = GetParam();
  std::mt19937 rng(777u + static_cast<unsigned>(v));
  Game g = start(v);
  const auto legal = g.legal();
  for (int i = 0; i < 3000; ++i) {
    Action a = random_garbage(rng);
    const bool in = contains(legal, a);
    ASSERT_EQ(g.is_legal(a), in) << describe(a);
    ASSERT_EQ(g.apply(a).has_value(), in) << describe(a);
  }
}

TEST_P(Invariants, StartTurnsReplay) {
  check_turns(start(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Invariants, ::testing::ValuesIn(bc::kAllVariants),
                         variant_param_name);

}  // namespace

namespace {

using namespace bct;

// A random legal-looking checkers position for variant v; the core may still refuse some (for
// example a position that is already over), which the caller skips.
bc::Position random_checkers_position(VariantId v, std::mt19937& rng) {
  bc::Position p;
  std::vector<Square> squares;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      if ((x + y) % 2 == 0) squares.push_back({x, y});
    }
  }
  std::shuffle(squares.begin(), squares.end(), rng);
  const int n = 2 + static_cast<int>(rng() % 14);
  for (int i = 0; i < n; ++i) {
    Piece pc;
    pc.at = squares[static_cast<std::size_t>(i)];
    pc.side = i % 2 == 0 ? Side::First : Side::Second;
    const int far_row = pc.side == Side::First ? 7 : 0;
    const int r = static_cast<int>(rng() % 10);
    pc.rank = r < 6 ? Rank::Man : Rank::King;
    if (v == VariantId::TripleKing && r == 9) pc.rank = Rank::TripleKing;
    if (pc.rank == Rank::Man && pc.at.y == far_row) pc.rank = Rank::King;
    if (v == VariantId::Bomb) {
      const int k = static_cast<int>(rng() % 3);
      pc.kind = k == 0 ? Kind::Normal : k == 1 ? Kind::Shield : Kind::Bomb;
    }
    p.pieces.push_back(pc);
  }
  p.turn = rng() % 2 ? Side::First : Side::Second;
  return p;
}

bc::Position random_kaboom_position(const Options& o, std::mt19937& rng) {
  bc::Position p;
  for (int x = 0; x < o.width; ++x) {
    const int h = static_cast<int>(rng() % static_cast<unsigned>(o.height + 1));
    for (int y = 0; y < h; ++y) {
      Piece pc;
      pc.at = {x, y};
      pc.side = rng() % 2 ? Side::First : Side::Second;
      pc.kind = rng() % 4 == 0 ? Kind::Bomb : Kind::Normal;
      p.pieces.push_back(pc);
    }
  }
  // Keep bombs on the board plus bombs left within the option, as in a real game.
  std::array<int, 2> used{};
  for (auto& pc : p.pieces) {
    if (pc.kind != Kind::Bomb) continue;
    if (used[static_cast<std::size_t>(bc::index(pc.side))] >= o.bombs) {
      pc.kind = Kind::Normal;
    } else {
      ++used[static_cast<std::size_t>(bc::index(pc.side))];
    }
  }
  p.turn = rng() % 2 ? Side::First : Side::Second;
  for (std::size_t s = 0; s < 2; ++s) {
    p.bombs[s] = static_cast<int>(rng() % static_cast<unsigned>(o.bombs - used[s] + 1));
  }
  return p;
}

std::uint64_t hops_perft(const Game& g, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& a : g.legal()) {
    Applied r = play(g, a);
    n += r.effects.turn_over ? hops_perft(r.next, depth - 1) : hops_perft(r.next, depth);
  }
  return n;
}

std::string position_text(const bc::Position& p) {
  std::ostringstream os;
  os << "turn " << (p.turn == Side::First ? "first" : "second") << " bombs " << p.bombs[0] << ","
     << p.bombs[1] << " pieces:";
  for (const auto& pc : p.pieces) {
    os << ' ';
    bc::PrintTo(pc, &os);
  }
  return os.str();
}

class RandomPositions : public ::testing::TestWithParam<VariantId> {};

// Random custom positions: every invariant holds, the fast perft agrees with hop-by-hop counting,
// and random play from there ends.
TEST_P(RandomPositions, InvariantsAndPerftAgree) {
  const VariantId v = GetParam();
  std::mt19937 rng(4242u + static_cast<unsigned>(v));
  Options o = bc::default_options(v);
  if (v == VariantId::Kaboom)
    o = opts(v, {{"width", 5}, {"height", 4}, {"connect", 3}, {"bombs", 2}});
  int accepted = 0;
  PlayoutStats stats;
  for (int i = 0; i < 1500 && accepted < 400; ++i) {
    const bc::Position p =
        v == VariantId::Kaboom ? random_kaboom_position(o, rng) : random_checkers_position(v, rng);
    auto made = Game::from_position(v, o, p);
    if (std::holds_alternative<std::string>(made)) {
      EXPECT_FALSE(std::get<std::string>(made).empty());
      continue;
    }
    ++accepted;
    const Game g = std::get<Game>(made);
    SCOPED_TRACE(position_text(p));
    EXPECT_EQ(g.pieces(), sorted_pieces(p.pieces)) << "the position is kept as given";
    check_state(g);
    check_turns(g);
    check_refusals(g, rng);
    if (HasFatalFailure()) return;
    for (int d = 1; d <= 3; ++d) {
      ASSERT_EQ(bc::perft_leaves(g, d), hops_perft(g, d)) << "depth " << d;
    }
    random_playout(g, rng, stats, false);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(accepted, 100);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, RandomPositions, ::testing::ValuesIn(bc::kAllVariants),
                         variant_param_name);

}  // namespace
