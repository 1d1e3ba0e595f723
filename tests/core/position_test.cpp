// Names, custom start positions (PROTOCOL.md `position`), and Game as a value (==, hash).
#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr VariantId kBomb = VariantId::Bomb;
constexpr VariantId kClassic = VariantId::Classic;
constexpr VariantId kTk = VariantId::TripleKing;
constexpr VariantId kKaboom = VariantId::Kaboom;

TEST(Names, VariantKeysRoundTrip) {
  EXPECT_EQ(bc::variant_key(kBomb), "bomb");
  EXPECT_EQ(bc::variant_key(kClassic), "classic");
  EXPECT_EQ(bc::variant_key(kTk), "triple_king");
  EXPECT_EQ(bc::variant_key(kKaboom), "kaboom");
  for (VariantId v : bc::kAllVariants) {
    EXPECT_EQ(bc::variant_from_key(bc::variant_key(v)), v);
    EXPECT_FALSE(bc::variant_title(v).empty());
  }
  EXPECT_EQ(bc::variant_from_key("chess"), std::nullopt);
  EXPECT_EQ(bc::variant_from_key(""), std::nullopt);
  EXPECT_EQ(bc::variant_from_key("Bomb"), std::nullopt);
}

TEST(Names, ProtocolNamesRoundTrip) {
  EXPECT_EQ(bc::kind_name(Kind::Normal), "normal");
  EXPECT_EQ(bc::kind_name(Kind::Shield), "shield");
  EXPECT_EQ(bc::kind_name(Kind::Bomb), "bomb");
  EXPECT_EQ(bc::rank_name(Rank::Man), "man");
  EXPECT_EQ(bc::rank_name(Rank::King), "king");
  EXPECT_EQ(bc::rank_name(Rank::TripleKing), "triple_king");
  for (Kind k : {Kind::Normal, Kind::Shield, Kind::Bomb})
    EXPECT_EQ(bc::kind_from_name(bc::kind_name(k)), k);
  for (Rank r : {Rank::Man, Rank::King, Rank::TripleKing}) {
    EXPECT_EQ(bc::rank_from_name(bc::rank_name(r)), r);
  }
  EXPECT_EQ(bc::kind_from_name("queen"), std::nullopt);
  EXPECT_EQ(bc::rank_from_name("queen"), std::nullopt);

  using bc::ActionKind;
  const std::pair<ActionKind, std::string_view> kinds[] = {{ActionKind::Step, "step"},
                                                           {ActionKind::Jump, "jump"},
                                                           {ActionKind::EndTurn, "end_turn"},
                                                           {ActionKind::Drop, "drop"},
                                                           {ActionKind::Detonate, "detonate"}};
  for (const auto& [k, name] : kinds) {
    EXPECT_EQ(bc::action_kind_name(k), name);
    EXPECT_EQ(bc::action_kind_from_name(name), k);
  }
  EXPECT_EQ(bc::action_kind_from_name("move"), std::nullopt);

  const std::pair<Reason, std::string_view> reasons[] = {
      {Reason::NoPieces, "no_pieces"},
      {Reason::NoMoves, "no_moves"},
      {Reason::MutualDestruction, "mutual_destruction"},
      {Reason::Connect, "connect"},
      {Reason::Resigned, "resigned"},
      {Reason::DrawAgreed, "draw_agreed"},
      {Reason::DrawRule, "draw_rule"},
      {Reason::BoardFull, "board_full"},
      {Reason::TurnLimit, "turn_limit"}};
  for (const auto& [r, name] : reasons) {
    EXPECT_EQ(bc::reason_name(r), name);
    EXPECT_EQ(bc::reason_from_name(name), r);
  }
  EXPECT_EQ(bc::reason_from_name("checkmate"), std::nullopt);
}

TEST(Names, SideNamesPerVariant) {
  const std::pair<VariantId, std::array<std::string_view, 2>> sides[] = {
      {kBomb, {"fire", "water"}},
      {kClassic, {"black", "white"}},
      {kTk, {"black", "white"}},
      {kKaboom, {"x", "o"}}};
  for (const auto& [v, names] : sides) {
    EXPECT_EQ(bc::side_name(v, Side::First), names[0]);
    EXPECT_EQ(bc::side_name(v, Side::Second), names[1]);
    EXPECT_EQ(bc::side_from_name(v, names[0]), Side::First);
    EXPECT_EQ(bc::side_from_name(v, names[1]), Side::Second);
    EXPECT_EQ(bc::side_from_name(v, "nobody"), std::nullopt);
  }
}

// A refused position: the error must say something.
void expect_refused(VariantId v, std::vector<Piece> pieces, const char* why,
                    std::array<int, 2> bombs = {0, 0}, Side turn = Side::First) {
  const std::string err = position_error(v, bc::default_options(v), std::move(pieces), turn, bombs);
  EXPECT_NE(err, "") << why << ": accepted";
  EXPECT_NE(err, "<empty message>") << why << ": refused without a message";
}

TEST(Position, CheckersOffBoardRefused) {
  for (VariantId v : {kBomb, kClassic, kTk}) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    expect_refused(v, {man(kBlack, 0, 0), man(kWhite, 8, 0)}, "x = 8");
    expect_refused(v, {man(kBlack, 0, 0), man(kWhite, 0, 8)}, "y = 8");
    expect_refused(v, {man(kBlack, -1, 1), man(kWhite, 7, 7)}, "x = -1");
    expect_refused(v, {man(kBlack, 1, -1), man(kWhite, 7, 7)}, "y = -1");
    expect_refused(v, {man(kBlack, 100, 100), man(kWhite, 7, 7)}, "far away");
  }
}

TEST(Position, CheckersNonPlayableSquareRefused) {
  for (VariantId v : {kBomb, kClassic, kTk}) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    expect_refused(v, {man(kBlack, 1, 0), man(kWhite, 7, 7)}, "[1,0] is light");
    expect_refused(v, {man(kBlack, 0, 0), man(kWhite, 6, 7)}, "[6,7] is light");
  }
}

TEST(Position, TwoPiecesOnOneSquareRefused) {
  for (VariantId v : {kBomb, kClassic, kTk}) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    expect_refused(v, {man(kBlack, 2, 2), man(kWhite, 2, 2)}, "both sides");
    expect_refused(v, {man(kBlack, 2, 2), man(kBlack, 2, 2), man(kWhite, 7, 7)}, "same side");
  }
  expect_refused(kKaboom, {man(kX, 0, 0), man(kO, 0, 0)}, "kaboom overlap");
}

TEST(Position, ShieldAndBombKindsOnlyInBomb) {
  for (VariantId v : {kClassic, kTk}) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    expect_refused(v, {shield(kBlack, 2, 2), man(kWhite, 7, 7)}, "shield");
    expect_refused(v, {bomb(kBlack, 2, 2), man(kWhite, 7, 7)}, "bomb");
  }
  EXPECT_EQ(position_error(kBomb, bc::default_options(kBomb),
                           {shield(kFire, 2, 2), bomb(kFire, 4, 2), shield_king(kWater, 7, 7)}),
            "");
}

TEST(Position, TripleKingRankOnlyInTripleKing) {
  expect_refused(kClassic, {triple(kBlack, 2, 2), man(kWhite, 7, 7)}, "classic triple king");
  expect_refused(kBomb, {triple(kFire, 2, 2), man(kWater, 7, 7)}, "bomb triple king");
  Piece tk_shield = shield(kFire, 2, 2);
  tk_shield.rank = Rank::TripleKing;
  expect_refused(kBomb, {tk_shield, man(kWater, 7, 7)}, "bomb triple-king shield");
  EXPECT_EQ(
      position_error(kTk, bc::default_options(kTk), {triple(kBlack, 2, 2), man(kWhite, 7, 7)}), "");
}

TEST(Position, B8_BombThatIsAKingLoads) {
  EXPECT_EQ(position_error(kBomb, bc::default_options(kBomb),
                           {bomb_king(kFire, 2, 2), bomb_king(kWater, 5, 7), man(kWater, 7, 7)}),
            "");
}

TEST(Position, BombManOnItsFarRowRefused) {
  expect_refused(kBomb, {bomb(kFire, 1, 7), man(kWater, 7, 5)}, "a bomb man cannot stand on row 7");
}

TEST(Position, KaboomPieceAboveEmptyCellRefused) {
  expect_refused(kKaboom, {man(kX, 0, 1)}, "floating at [0,1]");
  expect_refused(kKaboom, {man(kX, 0, 0), man(kO, 0, 2)}, "gap at [0,1]");
  EXPECT_EQ(position_error(kKaboom, bc::default_options(kKaboom), {man(kX, 0, 0), man(kO, 0, 1)}),
            "");
}

TEST(Position, KaboomKindsNormalOrBombOnly) {
  expect_refused(kKaboom, {shield(kX, 0, 0)}, "shield in kaboom");
  EXPECT_EQ(position_error(kKaboom, bc::default_options(kKaboom), {bomb(kX, 0, 0), man(kO, 1, 0)}),
            "");
}

TEST(Position, KaboomOffBoardRefused) {
  expect_refused(kKaboom, {man(kX, 7, 0)}, "x = width");
  expect_refused(kKaboom, {man(kX, -1, 0)}, "x = -1");
  std::vector<Piece> tall;
  for (int y = 0; y < 7; ++y) tall.push_back(man(y % 2 ? kO : kX, 0, y));
  expect_refused(kKaboom, tall, "y = height");
}

TEST(Position, KaboomNegativeBombsRefused) {
  expect_refused(kKaboom, {man(kX, 0, 0)}, "negative bombs", {-1, 0});
  expect_refused(kKaboom, {man(kX, 0, 0)}, "negative bombs", {0, -3});
}

TEST(Position, KaboomBombCountKeptOrRefused) {
  // A count the state cannot hold must be refused, never silently changed.
  const std::string err =
      position_error(kKaboom, bc::default_options(kKaboom), {man(kX, 0, 0)}, kO, {1000, 2});
  if (err.empty()) {
    Game g = position(kKaboom, bc::default_options(kKaboom), {man(kX, 0, 0)}, kO, {1000, 2});
    EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{1000, 2}));
  }
  Game g = position(kKaboom, bc::default_options(kKaboom), {man(kX, 0, 0)}, kO, {3, 2});
  EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{3, 2}));
  EXPECT_EQ(g.turn(), kO);
}

TEST(Position, InvalidOptionsRefused) {
  Options o = bc::default_options(kKaboom);
  o.width = 2;
  bc::Position p;
  auto r = Game::from_position(kKaboom, o, p);
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_FALSE(std::get<std::string>(r).empty());
}

TEST(Position, AcceptedPositionIsKeptExactly) {
  std::vector<Piece> ps{king(kWhite, 7, 7), shield(kFire, 1, 1), bomb(kWater, 4, 4),
                        shield_king(kWater, 0, 6), man(kFire, 6, 0)};
  Game g = position(kBomb, ps, kWater);
  EXPECT_EQ(g.pieces(), sorted_pieces(ps));
  EXPECT_EQ(g.turn(), kWater);
  EXPECT_EQ(g.variant(), kBomb);
  EXPECT_FALSE(g.mid_turn());
  EXPECT_EQ(g.quiet_turns(), 0);
  EXPECT_EQ(g.piece_at({4, 4}), bomb(kWater, 4, 4));
  EXPECT_EQ(g.piece_at({3, 3}), std::nullopt);
  EXPECT_EQ(g.piece_at({-1, 0}), std::nullopt);
  EXPECT_EQ(g.piece_at({8, 8}), std::nullopt);
  EXPECT_EQ(g.piece_at({1, 0}), std::nullopt);
}

TEST(Position, KaboomPositionIsKeptExactly) {
  Game g = position(kKaboom, bc::default_options(kKaboom), kaboom_board({"o......", "xX....O"}), kO,
                    {0, 1});
  EXPECT_EQ(g.pieces(), sorted_pieces(kaboom_board({"o......", "xX....O"})));
  EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{0, 1}));
  EXPECT_EQ(g.turn(), kO);
}

TEST(GameValue, EqualGamesHaveEqualHashes) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    Game a = start(v);
    Game b = start(v);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a.hash(), b.hash());
    Game c = a;
    EXPECT_EQ(c.hash(), a.hash());
  }
}

TEST(GameValue, TranspositionsAreEqual) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    Action a1;
    Action b1;
    Action a2;
    if (v == kKaboom) {
      a1 = A::drop(0, Kind::Normal);
      b1 = A::drop(1, Kind::Normal);
      a2 = A::drop(2, Kind::Normal);
    } else {
      a1 = A::step({0, 2}, {1, 3});
      b1 = A::step({1, 5}, {0, 4});
      a2 = A::step({6, 2}, {7, 3});
    }
    Game x = play_all(start(v), {a1, b1, a2});
    Game y = play_all(start(v), {a2, b1, a1});
    EXPECT_EQ(x, y);
    EXPECT_EQ(x.hash(), y.hash());
    Game z = play_all(start(v), {a1, b1});
    EXPECT_NE(x, z);
    EXPECT_NE(x.hash(), z.hash()) << "different positions should (almost always) hash apart";
  }
}

TEST(GameValue, ApplyLeavesTheInputUnchanged) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    const Game g = start(v);
    const Game copy = g;
    const auto h = g.hash();
    for (const auto& a : g.legal()) {
      auto r = g.apply(a);
      ASSERT_TRUE(r.has_value());
      EXPECT_NE(r->next, g);
    }
    EXPECT_EQ(g, copy);
    EXPECT_EQ(g.hash(), h);
  }
}

TEST(GameValue, OptionsAreKept) {
  Options o = opts(kKaboom, {{"width", 5}, {"connect", 5}, {"misere", 1}});
  Game g = start(kKaboom, o);
  EXPECT_EQ(g.options(), o);
  EXPECT_EQ(g.variant(), kKaboom);
  Options c = opts(kClassic, {{"draw_turns", 12}});
  EXPECT_EQ(start(kClassic, c).options().draw_turns, 12);
}

}  // namespace
