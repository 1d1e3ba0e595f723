// RULES.md section T: triple-king checkers (flying kings, max capture, triple kings).
#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr VariantId kTk = VariantId::TripleKing;

Game tk(std::vector<Piece> pieces, Side turn = kBlack) {
  return position(kTk, std::move(pieces), turn);
}

TEST(TripleKing, T1_SidesAndStartPosition) {
  EXPECT_EQ(bc::side_name(kTk, Side::First), "black");
  EXPECT_EQ(bc::side_name(kTk, Side::Second), "white");
  Game g = start(kTk);
  EXPECT_EQ(g.turn(), kBlack);
  for (const auto& p : g.pieces()) {
    EXPECT_EQ(p.kind, Kind::Normal);
    EXPECT_EQ(p.rank, Rank::Man);
    EXPECT_EQ(p.side, p.at.y <= 2 ? kBlack : kWhite);
  }
  EXPECT_EQ(g.pieces().size(), 24u);
  EXPECT_EQ(g.legal().size(), 7u);
}

TEST(TripleKing, T2_CaptureIsCompulsoryOverTheWholeBoard) {
  Game g = tk({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kBlack, 6, 2), king(kBlack, 0, 4),
               man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4})));
}

TEST(TripleKing, T2_MustTakeTheLargestCapture) {
  // [2,2] can take two ([3,3] then [5,5]) or one ([1,3]): only the two-piece sequence is allowed.
  Game g = tk({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 1, 3),
               man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4})));
  EXPECT_FALSE(g.apply(A::jump({2, 2}, {0, 4})).has_value());
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({4, 4}, {6, 6})));
  EXPECT_FALSE(r.next.apply(A::end_turn()).has_value()) << "a sequence must be continued";
  EXPECT_THAT(g.turns(), ElementsAre(Turn{{A::jump({2, 2}, {4, 4}), A::jump({4, 4}, {6, 6})}}));
}

TEST(TripleKing, T2_LargestCaptureAcrossPieces) {
  // [2,2] takes one; [4,0] takes two ([5,1] then [5,3]). Only [4,0] may capture.
  Game g = tk({man(kBlack, 2, 2), man(kWhite, 1, 3), man(kBlack, 4, 0), man(kWhite, 5, 1),
               man(kWhite, 5, 3), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({4, 0}, {6, 2})));
}

TEST(TripleKing, T2_EqualSequencesMayBothBeChosen) {
  // After [2,2]x[3,3] the man may take [5,5] or [3,5]: one piece more either way.
  Game g = tk({man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 3, 5),
               man(kWhite, 7, 7)});
  Game mid = play(g, A::jump({2, 2}, {4, 4})).next;
  EXPECT_THAT(mid.legal(), UnorderedElementsAre(A::jump({4, 4}, {6, 6}), A::jump({4, 4}, {2, 6})));
}

TEST(TripleKing, T2_LargestCaptureAppliesMidSequence) {
  // King [0,2] x[1,3] lands on [2,4] only ([3,5] blocks). From [2,4]: x[3,5] to [4,6]/[5,7] and
  // stop (2 in all), or x[3,3] to [4,2] then x[5,1] to [6,0] (3 in all): only the latter.
  Game g = tk({king(kBlack, 0, 2), man(kWhite, 1, 3), man(kWhite, 3, 5), man(kWhite, 3, 3),
               man(kWhite, 5, 1), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 2}, {2, 4})));
  Game mid = play(g, A::jump({0, 2}, {2, 4})).next;
  EXPECT_THAT(mid.legal(), UnorderedElementsAre(A::jump({2, 4}, {4, 2})));
  EXPECT_THAT(g.turns(), ElementsAre(Turn{{A::jump({0, 2}, {2, 4}), A::jump({2, 4}, {4, 2}),
                                           A::jump({4, 2}, {6, 0})}}));
}

TEST(TripleKing, T2_DoubleCaptureCountsTwo) {
  // Triple king [3,7] takes [2,6]+[1,5] in one hop (2); man [4,0] takes [5,1] then [5,3] (2).
  std::vector<Piece> ps{triple(kBlack, 3, 7), man(kWhite, 2, 6), man(kWhite, 1, 5),
                        man(kBlack, 4, 0),    man(kWhite, 5, 1), man(kWhite, 5, 3)};
  EXPECT_THAT(tk(ps).legal(),
              UnorderedElementsAre(A::jump({3, 7}, {0, 4}), A::jump({4, 0}, {6, 2})));
  // Without [5,3] the man takes only one: the double capture (two) wins.
  ps.pop_back();
  EXPECT_THAT(tk(ps).legal(), UnorderedElementsAre(A::jump({3, 7}, {0, 4})));
}

TEST(TripleKing, T3_MenMoveAndCaptureForwardOnly) {
  Game g = tk({man(kBlack, 3, 3), man(kWhite, 2, 2), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({3, 3}, {2, 4}), A::step({3, 3}, {4, 4})));
}

TEST(TripleKing, T3_KingStepsOneSquareWhenNotCapturing) {
  // [3,3],[4,4] side by side: a plain king cannot take two, so it only steps one square.
  Game g = tk({king(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 4, 4)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({2, 2}, {1, 3}), A::step({2, 2}, {3, 1}),
                                              A::step({2, 2}, {1, 1})));
}

TEST(TripleKing, T3_FlyingCaptureLandsAnywhereBeyondUpToTheNextPiece) {
  Game g = tk({king(kBlack, 1, 1), man(kWhite, 4, 4), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({1, 1}, {5, 5}), A::jump({1, 1}, {6, 6})));
  Applied r = play(g, A::jump({1, 1}, {6, 6}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{4, 4}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_TRUE(has_piece(r.next, king(kBlack, 6, 6)));
}

TEST(TripleKing, T3_FlyingCaptureToTheEdge) {
  Game g = tk({king(kBlack, 6, 6), man(kWhite, 4, 4), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({6, 6}, {3, 3}), A::jump({6, 6}, {2, 2}),
                                              A::jump({6, 6}, {1, 1}), A::jump({6, 6}, {0, 0})));
}

TEST(TripleKing, T3_KingTakesOnlyTheFirstOfTwoSeparatedPieces) {
  // [2,2] then [4,4] on one line: the hop takes [2,2] and lands on [3,3], then goes on.
  Game g = tk({king(kBlack, 0, 0), man(kWhite, 2, 2), man(kWhite, 4, 4), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {3, 3})));
  Applied r = play(g, A::jump({0, 0}, {3, 3}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{2, 2}));
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::jump({3, 3}, {6, 6}),
                                                   A::jump({3, 3}, {7, 7})));
}

TEST(TripleKing, T3_PlainKingCannotPassOwnPiece) {
  Game g = tk({king(kBlack, 1, 1), man(kBlack, 2, 2), man(kWhite, 4, 4), man(kWhite, 7, 7)});
  EXPECT_FALSE(g.is_legal(A::jump({1, 1}, {5, 5})));
  for (const auto& a : g.legal()) EXPECT_NE(a.kind, bc::ActionKind::Jump) << describe(a);
}

// Lead's choice: captured pieces leave the board at each hop, so a king may fly back over the
// square of a piece it has just taken.
TEST(TripleKing, T3_CapturedPieceRemovedAtOnceKingFliesBackOverIt) {
  Game g = tk({king(kBlack, 3, 3), man(kWhite, 4, 4), man(kWhite, 1, 1)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::jump({3, 3}, {6, 6}),
                                              A::jump({3, 3}, {7, 7}), A::jump({3, 3}, {0, 0})));
  Applied r = play(g, A::jump({3, 3}, {6, 6}));
  EXPECT_TRUE(is_empty(r.next, {4, 4}));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({6, 6}, {0, 0})));
  Applied r2 = play(r.next, A::jump({6, 6}, {0, 0}));
  EXPECT_THAT(r2.effects.captured, ElementsAre(Square{1, 1}));
  EXPECT_THAT(r2.effects.promoted, ElementsAre(Square{0, 0}));  // T4: own back row
  EXPECT_TRUE(has_piece(r2.next, triple(kBlack, 0, 0)));
  ASSERT_TRUE(r2.next.over());
  EXPECT_EQ(*r2.next.result(), win(kBlack, Reason::NoPieces));
}

TEST(TripleKing, T4_ManCrownedMidCaptureGoesOnAsKing) {
  Game g = tk({man(kBlack, 3, 5), man(kWhite, 4, 6), man(kWhite, 6, 6), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({3, 5}, {5, 7})));
  Applied r = play(g, A::jump({3, 5}, {5, 7}));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{5, 7}));
  EXPECT_TRUE(has_piece(r.next, king(kBlack, 5, 7)));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({5, 7}, {7, 5})));
  Applied r2 = play(r.next, A::jump({5, 7}, {7, 5}));
  EXPECT_TRUE(r2.effects.turn_over);
  EXPECT_TRUE(has_piece(r2.next, king(kBlack, 7, 5)));
}

TEST(TripleKing, T4_KingReachingOwnBackRowBecomesTripleKing) {
  Game g = tk({king(kBlack, 3, 3), man(kWhite, 2, 2), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({3, 3}, {1, 1}), A::jump({3, 3}, {0, 0})));
  Applied r = play(g, A::jump({3, 3}, {0, 0}));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{0, 0}));
  EXPECT_TRUE(has_piece(r.next, triple(kBlack, 0, 0)));
  Applied r1 = play(g, A::jump({3, 3}, {1, 1}));
  EXPECT_TRUE(has_piece(r1.next, king(kBlack, 1, 1)));
  EXPECT_THAT(r1.effects.promoted, IsEmpty());
}

TEST(TripleKing, T4_KingSteppingOntoOwnBackRowBecomesTripleKing) {
  Game g = tk({king(kBlack, 1, 1), man(kWhite, 7, 7)});
  Applied r = play(g, A::step({1, 1}, {2, 0}));
  EXPECT_TRUE(has_piece(r.next, triple(kBlack, 2, 0)));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{2, 0}));
  // White's own back row is row 7.
  Game w = tk({king(kWhite, 4, 6), man(kBlack, 0, 0)}, kWhite);
  Applied rw = play(w, A::step({4, 6}, {5, 7}));
  EXPECT_TRUE(has_piece(rw.next, triple(kWhite, 5, 7)));
}

TEST(TripleKing, T4_KingOnFarRowIsNotPromotedAgain) {
  Game g = tk({king(kBlack, 2, 6), man(kWhite, 7, 1)});
  Applied r = play(g, A::step({2, 6}, {1, 7}));
  EXPECT_TRUE(has_piece(r.next, king(kBlack, 1, 7)));
  EXPECT_THAT(r.effects.promoted, IsEmpty());
}

TEST(TripleKing, T4_NewTripleKingGoesOnWithItsNewPowers) {
  // King [4,2] takes [3,1] landing on [2,0] (own back row: triple king); only a triple king can
  // then take the pair [5,3],[6,4] in one hop, landing on [7,5].
  Game g = tk({king(kBlack, 4, 2), man(kWhite, 3, 1), man(kWhite, 5, 3), man(kWhite, 6, 4),
               man(kWhite, 1, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({4, 2}, {2, 0})));
  Applied r = play(g, A::jump({4, 2}, {2, 0}));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{2, 0}));
  EXPECT_TRUE(has_piece(r.next, triple(kBlack, 2, 0)));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({2, 0}, {7, 5})));
  Applied r2 = play(r.next, A::jump({2, 0}, {7, 5}));
  EXPECT_THAT(r2.effects.captured, UnorderedElementsAre(Square{5, 3}, Square{6, 4}));
  EXPECT_TRUE(r2.effects.turn_over);
  EXPECT_EQ(r2.next.pieces(), sorted_pieces({triple(kBlack, 7, 5), man(kWhite, 1, 7)}));
}

TEST(TripleKing, T5a_LeapOverOwnPieces) {
  // Triple king [1,1]; own men on [2,2] and [4,4]; white pair [6,6],[7,7] (no capture: the edge).
  Game g = tk({triple(kBlack, 1, 1), man(kBlack, 2, 2), man(kBlack, 4, 4), man(kWhite, 6, 6),
               man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(),
              UnorderedElementsAre(
                  // the triple king: one square like a king, or a leap landing after [2,2]
                  A::step({1, 1}, {0, 2}), A::step({1, 1}, {2, 0}), A::step({1, 1}, {0, 0}),
                  A::step({1, 1}, {3, 3}), A::step({1, 1}, {5, 5}),
                  // the men
                  A::step({2, 2}, {1, 3}), A::step({2, 2}, {3, 3}), A::step({4, 4}, {3, 5}),
                  A::step({4, 4}, {5, 5})));
  Applied r = play(g, A::step({1, 1}, {5, 5}));
  EXPECT_THAT(r.effects.captured, IsEmpty());
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 2, 2))) << "pieces leapt over stay";
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 4, 4)));
  EXPECT_TRUE(has_piece(r.next, triple(kBlack, 5, 5)));
  EXPECT_TRUE(r.effects.turn_over);
}

TEST(TripleKing, T5a_LeapLandsAnywhereAfterTheFirstOwnPiece) {
  Game g = tk({triple(kBlack, 0, 0), man(kBlack, 2, 2), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({0, 0}, {1, 1}), A::step({0, 0}, {3, 3}),
                                              A::step({0, 0}, {4, 4}), A::step({0, 0}, {5, 5}),
                                              A::step({0, 0}, {6, 6}), A::step({0, 0}, {7, 7}),
                                              A::step({2, 2}, {1, 3}), A::step({2, 2}, {3, 3})));
}

TEST(TripleKing, T5a_LeapStopsAtAnOpposingPiece) {
  // Three white pieces in a row cannot be captured; the leap over [2,2] stops before [4,4].
  Game g = tk({triple(kBlack, 1, 1), man(kBlack, 2, 2), man(kWhite, 4, 4), man(kWhite, 5, 5),
               man(kWhite, 6, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({1, 1}, {0, 0}), A::step({1, 1}, {2, 0}),
                                              A::step({1, 1}, {0, 2}), A::step({1, 1}, {3, 3}),
                                              A::step({2, 2}, {1, 3}), A::step({2, 2}, {3, 3})));
}

TEST(TripleKing, T5a_PlainKingCannotLeap) {
  Game g = tk({king(kBlack, 1, 1), man(kBlack, 2, 2), man(kWhite, 7, 7)});
  EXPECT_FALSE(g.is_legal(A::step({1, 1}, {3, 3})));
}

// T5b: own pieces may stand before the captured piece; after it, the landing stops at the next
// piece.
TEST(TripleKing, T5b_CapturePassesOverOwnPieces) {
  Game g = tk({triple(kBlack, 0, 0), man(kBlack, 1, 1), man(kWhite, 3, 3), man(kWhite, 7, 1)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {4, 4}), A::jump({0, 0}, {5, 5}),
                                              A::jump({0, 0}, {6, 6}), A::jump({0, 0}, {7, 7})));
  Applied r = play(g, A::jump({0, 0}, {6, 6}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 1, 1)));
  EXPECT_TRUE(has_piece(r.next, triple(kBlack, 6, 6)));
}

TEST(TripleKing, T5b_StopsBeforeOwnPieceAfterCapture) {
  Game g = tk({triple(kBlack, 0, 0), man(kBlack, 1, 1), man(kWhite, 3, 3), man(kBlack, 5, 5),
               man(kWhite, 7, 1)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {4, 4})));
  EXPECT_FALSE(g.is_legal(A::jump({0, 0}, {6, 6}))) << "never past an own piece after the capture";
  Applied r = play(g, A::jump({0, 0}, {4, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 5, 5)));
}

// Games stored before 2026-11-24 replay under rules revision 1, which allowed the landing past.
TEST(TripleKing, T5b_Revision1LandedPastOwnPieces) {
  Options o = bc::default_options(VariantId::TripleKing);
  o.rules = 1;
  Game g = position(VariantId::TripleKing, o,
                    {triple(kBlack, 0, 0), man(kBlack, 1, 1), man(kWhite, 3, 3), man(kBlack, 5, 5),
                     man(kWhite, 7, 1)},
                    kBlack);
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {4, 4}), A::jump({0, 0}, {6, 6}),
                                              A::jump({0, 0}, {7, 7})));
}

TEST(TripleKing, T5b_DoubleCaptureInOneHop) {
  Game g = tk({triple(kBlack, 0, 0), man(kWhite, 2, 2), man(kWhite, 3, 3), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {4, 4}), A::jump({0, 0}, {5, 5}),
                                              A::jump({0, 0}, {6, 6}), A::jump({0, 0}, {7, 7})));
  Applied r = play(g, A::jump({0, 0}, {5, 5}));
  EXPECT_THAT(r.effects.captured, UnorderedElementsAre(Square{2, 2}, Square{3, 3}));
  EXPECT_TRUE(is_empty(r.next, {2, 2}));
  EXPECT_TRUE(is_empty(r.next, {3, 3}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.pieces(), sorted_pieces({triple(kBlack, 5, 5), man(kWhite, 0, 6)}));
}

TEST(TripleKing, T5b_DoubleCaptureAfterPassingOwnPiece) {
  Game g = tk({triple(kBlack, 0, 0), man(kBlack, 1, 1), man(kWhite, 2, 2), man(kWhite, 3, 3),
               man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {4, 4}), A::jump({0, 0}, {5, 5}),
                                              A::jump({0, 0}, {6, 6}), A::jump({0, 0}, {7, 7})));
  Applied r = play(g, A::jump({0, 0}, {4, 4}));
  EXPECT_THAT(r.effects.captured, UnorderedElementsAre(Square{2, 2}, Square{3, 3}));
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 1, 1)));
}

TEST(TripleKing, T5b_ThreeInARowCannotBeJumped) {
  Game g = tk({triple(kBlack, 0, 0), man(kWhite, 2, 2), man(kWhite, 3, 3), man(kWhite, 4, 4)});
  for (const auto& a : g.legal()) EXPECT_NE(a.kind, bc::ActionKind::Jump) << describe(a);
}

TEST(TripleKing, T5b_SeparatedPiecesNeedTwoHops) {
  // [2,2] and [4,4] are not adjacent: the first hop takes [2,2] and must land on [3,3].
  Game g = tk({triple(kBlack, 0, 0), man(kWhite, 2, 2), man(kWhite, 4, 4), man(kWhite, 0, 6)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({0, 0}, {3, 3})));
  Applied r = play(g, A::jump({0, 0}, {3, 3}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{2, 2}));
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::jump({3, 3}, {6, 6}),
                                                   A::jump({3, 3}, {7, 7})));
}

TEST(TripleKing, T5b_PlainKingCannotTakeAPairButTripleKingCan) {
  Game plain = tk({king(kBlack, 1, 1), man(kWhite, 3, 3), man(kWhite, 4, 4)});
  for (const auto& a : plain.legal()) EXPECT_NE(a.kind, bc::ActionKind::Jump) << describe(a);
  Game triple_k = tk({triple(kBlack, 1, 1), man(kWhite, 3, 3), man(kWhite, 4, 4)});
  EXPECT_THAT(triple_k.legal(),
              UnorderedElementsAre(A::jump({1, 1}, {5, 5}), A::jump({1, 1}, {6, 6}),
                                   A::jump({1, 1}, {7, 7})));
}

TEST(TripleKing, T6_AnyRankCanBeCaptured) {
  Game g = tk({man(kBlack, 2, 2), triple(kWhite, 3, 3), man(kWhite, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4})));
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_TRUE(has_piece(r.next, man(kBlack, 4, 4)));
  EXPECT_THAT(r.effects.promoted, IsEmpty());
}

TEST(TripleKing, T6_WinAndLossAsC5) {
  Game g = tk({triple(kBlack, 0, 0), man(kWhite, 2, 2), man(kWhite, 3, 3)});
  Applied r = play(g, A::jump({0, 0}, {7, 7}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kBlack, Reason::NoPieces));
}

// T8: `(row, column)` with row 0 at the top: row = 7 - y, column = x.
TEST(TripleKing, T8_RowColumnNotation) {
  EXPECT_EQ(bc::to_row_col({0, 0}), (bc::RowCol{7, 0}));
  EXPECT_EQ(bc::to_row_col({6, 6}), (bc::RowCol{1, 6}));  // the document: 7th square of 2nd row
  EXPECT_EQ(bc::to_row_col({7, 7}), (bc::RowCol{0, 7}));
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      EXPECT_EQ(bc::from_row_col(bc::to_row_col({x, y})), (bc::Square{x, y}));
    }
  }
  // White starts at the top: the document's rows 0..2 hold white men.
  const auto game = std::get<bc::Game>(
      bc::Game::create(bc::VariantId::TripleKing, bc::default_options(bc::VariantId::TripleKing)));
  for (const bc::Piece& p : game.pieces()) {
    EXPECT_EQ(p.side == bc::Side::Second, bc::to_row_col(p.at).row <= 2);
  }
}

}  // namespace
