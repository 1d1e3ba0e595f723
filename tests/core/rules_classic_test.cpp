// RULES.md section K: classic checkers (American / English draughts).
#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr VariantId kClassic = VariantId::Classic;

Game classic(std::vector<Piece> pieces, Side turn = kBlack) {
  return position(kClassic, std::move(pieces), turn);
}

TEST(Classic, K1_SidesAndStartPosition) {
  EXPECT_EQ(bc::side_name(kClassic, Side::First), "black");
  EXPECT_EQ(bc::side_name(kClassic, Side::Second), "white");
  EXPECT_EQ(bc::side_from_name(kClassic, "white"), Side::Second);
  EXPECT_EQ(bc::side_from_name(kClassic, "fire"), std::nullopt);
  Game g = start(kClassic);
  EXPECT_EQ(g.turn(), kBlack);
  std::vector<Piece> expected;
  for (int y : {0, 1, 2, 5, 6, 7}) {
    for (int x = 0; x < 8; ++x) {
      if ((x + y) % 2 == 0) expected.push_back(man(y <= 2 ? kBlack : kWhite, x, y));
    }
  }
  EXPECT_EQ(g.pieces(), expected);
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({0, 2}, {1, 3}), A::step({2, 2}, {1, 3}),
                                              A::step({2, 2}, {3, 3}), A::step({4, 2}, {3, 3}),
                                              A::step({4, 2}, {5, 3}), A::step({6, 2}, {5, 3}),
                                              A::step({6, 2}, {7, 3})));
}

TEST(Classic, K2_CaptureIsCompulsory) {
  Game g = classic({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kBlack, 6, 2), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4})));
  EXPECT_FALSE(g.apply(A::step({6, 2}, {5, 3})).has_value());
  EXPECT_FALSE(g.apply(A::step({2, 2}, {1, 3})).has_value());
}

TEST(Classic, K2_CompulsoryForKingsToo) {
  Game g = classic({king(kBlack, 3, 3), man(kWhite, 2, 2), man(kBlack, 6, 0), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({3, 3}, {1, 1})));
}

TEST(Classic, K2_AnyCaptureMayBeChosenNoLargestRule) {
  // [2,2] may take two ([3,3] then [5,5]) or one ([1,3]); [6,2] may take [5,3] (then [5,5]).
  Game g = classic({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 1, 3),
                    man(kBlack, 6, 2), man(kWhite, 5, 3), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4}), A::jump({2, 2}, {0, 4}),
                                              A::jump({6, 2}, {4, 4})));
  Applied r = play(g, A::jump({2, 2}, {0, 4}));  // the smaller capture
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.turn(), kWhite);
}

TEST(Classic, K3_SequenceMustBeCompleted) {
  Game g = classic({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_TRUE(r.next.mid_turn());
  EXPECT_EQ(r.next.jumper(), (Square{4, 4}));
  EXPECT_EQ(r.next.turn(), kBlack);
  EXPECT_TRUE(is_empty(r.next, {3, 3})) << "captured pieces are removed at each hop";
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({4, 4}, {6, 6})));
  EXPECT_FALSE(r.next.apply(A::end_turn()).has_value());
  Applied r2 = play(r.next, A::jump({4, 4}, {6, 6}));
  EXPECT_THAT(r2.effects.captured, ElementsAre(Square{5, 5}));
  EXPECT_TRUE(r2.effects.turn_over);
  EXPECT_EQ(r2.next.turn(), kWhite);
}

TEST(Classic, K3_ChoiceBetweenContinuations) {
  Game g = classic({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 3, 5),
                    man(kWhite, 7, 7)});
  Game mid = play(g, A::jump({2, 2}, {4, 4})).next;
  EXPECT_THAT(mid.legal(), UnorderedElementsAre(A::jump({4, 4}, {6, 6}), A::jump({4, 4}, {2, 6})));
  EXPECT_THAT(mid.turns(), UnorderedElementsAre(Turn{{A::jump({4, 4}, {6, 6})}},
                                                Turn{{A::jump({4, 4}, {2, 6})}}));
}

TEST(Classic, K3_KingSequenceInAnyDirection) {
  Game g = classic({king(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 3), man(kWhite, 5, 1),
                    man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4})));
  Game a = play(g, A::jump({2, 2}, {4, 4})).next;
  EXPECT_THAT(a.legal(), UnorderedElementsAre(A::jump({4, 4}, {6, 2})));
  Game b = play(a, A::jump({4, 4}, {6, 2})).next;
  EXPECT_THAT(b.legal(), UnorderedElementsAre(A::jump({6, 2}, {4, 0})));
  Applied c = play(b, A::jump({6, 2}, {4, 0}));
  EXPECT_TRUE(c.effects.turn_over);
  EXPECT_EQ(c.next.pieces(), sorted_pieces({king(kBlack, 4, 0), man(kWhite, 7, 7)}));
  EXPECT_THAT(g.turns(), ElementsAre(Turn{{A::jump({2, 2}, {4, 4}), A::jump({4, 4}, {6, 2}),
                                           A::jump({6, 2}, {4, 0})}}));
}

TEST(Classic, C3_KingJumpsOnlyAnAdjacentPiece) {
  // No flying kings in classic: [3,3] is two squares away, so the king just steps.
  Game g = classic({king(kBlack, 1, 1), man(kWhite, 3, 3), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({1, 1}, {0, 0}), A::step({1, 1}, {2, 2}),
                                              A::step({1, 1}, {0, 2}), A::step({1, 1}, {2, 0})));
}

TEST(Classic, K4_CrownedManEndsTurn) {
  // After [3,5]x[4,6] the new king on [5,7] could take [6,6], but the turn ends there.
  Game g = classic({man(kBlack, 3, 5), man(kWhite, 4, 6), man(kWhite, 6, 6), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({3, 5}, {5, 7})));
  Applied r = play(g, A::jump({3, 5}, {5, 7}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{5, 7}));
  EXPECT_TRUE(has_piece(r.next, king(kBlack, 5, 7)));
  EXPECT_FALSE(r.next.mid_turn());
  EXPECT_EQ(r.next.turn(), kWhite);
  EXPECT_TRUE(has_piece(r.next, man(kWhite, 6, 6)));
  EXPECT_THAT(g.turns(), ElementsAre(Turn{{A::jump({3, 5}, {5, 7})}}));
}

TEST(Classic, K4_WhiteCrownedManEndsTurn) {
  Game g =
      classic({man(kWhite, 4, 2), man(kBlack, 3, 1), man(kBlack, 1, 1), man(kBlack, 6, 6)}, kWhite);
  Applied r = play(g, A::jump({4, 2}, {2, 0}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_TRUE(has_piece(r.next, king(kWhite, 2, 0)));
  EXPECT_EQ(r.next.turn(), kBlack);
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 1, 1)));
}

TEST(Classic, K1_OnlyNormalPiecesAndNoEndTurn) {
  Game g = classic({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 7, 7)});
  Game mid = play(g, A::jump({2, 2}, {4, 4})).next;
  for (const auto& a : mid.legal()) EXPECT_NE(a.kind, bc::ActionKind::EndTurn);
  for (const auto& p : start(kClassic).pieces()) EXPECT_EQ(p.kind, Kind::Normal);
}

}  // namespace
