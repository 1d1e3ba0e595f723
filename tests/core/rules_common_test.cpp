// RULES.md section C: rules common to the three checkers variants (bomb, classic, triple_king).
// Each test runs the same position in every checkers variant unless the variants differ.
#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr std::array<VariantId, 3> kCheckers{VariantId::Bomb, VariantId::Classic,
                                             VariantId::TripleKing};

const char* vname(VariantId v) {
  switch (v) {
    case VariantId::Bomb:
      return "bomb";
    case VariantId::Classic:
      return "classic";
    case VariantId::TripleKing:
      return "triple_king";
    case VariantId::Kaboom:
      return "kaboom";
  }
  return "?";
}

// A quiet shuffle: black king [1,1]<->[2,2], white king [6,4]<->[7,5]. No piece is ever on a line
// of an opposing piece, so no capture (not even a triple_king flying one) appears.
Game quiet(const Game& g) {
  if (g.turn() == kBlack) {
    if (g.piece_at({1, 1})) return play(g, A::step({1, 1}, {2, 2})).next;
    return play(g, A::step({2, 2}, {1, 1})).next;
  }
  if (g.piece_at({6, 4})) return play(g, A::step({6, 4}, {7, 5})).next;
  return play(g, A::step({7, 5}, {6, 4})).next;
}

std::vector<Piece> shuffle_pieces() {
  return {king(kBlack, 1, 1), king(kWhite, 6, 4)};
}

TEST(Common, C1_BoardAndStartingPieces) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = start(v);
    EXPECT_EQ(g.width(), 8);
    EXPECT_EQ(g.height(), 8);
    EXPECT_EQ(g.turn(), Side::First);
    auto ps = g.pieces();
    ASSERT_EQ(ps.size(), 24u);
    int first = 0;
    int second = 0;
    for (const auto& p : ps) {
      EXPECT_EQ((p.at.x + p.at.y) % 2, 0) << "piece on a non-playable square";
      if (p.side == Side::First) {
        ++first;
        EXPECT_LE(p.at.y, 2);
      } else {
        ++second;
        EXPECT_GE(p.at.y, 5);
      }
      EXPECT_EQ(p.rank, Rank::Man);
    }
    EXPECT_EQ(first, 12);
    EXPECT_EQ(second, 12);
    // Every playable square of the three nearest rows is filled.
    for (int y : {0, 1, 2, 5, 6, 7}) {
      for (int x = 0; x < 8; ++x) {
        if ((x + y) % 2 == 0) {
          EXPECT_TRUE(g.piece_at({x, y}).has_value()) << x << "," << y;
        } else {
          EXPECT_FALSE(g.piece_at({x, y}).has_value()) << x << "," << y;
        }
      }
    }
  }
}

TEST(Common, C1_PiecesAreSortedByRowThenColumn) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    auto ps = start(v).pieces();
    EXPECT_EQ(ps, sorted_pieces(ps));
  }
}

TEST(Common, C2_ManStepsDiagonallyForward) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 2), man(kWhite, 7, 7)}, kBlack);
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({2, 2}, {1, 3}), A::step({2, 2}, {3, 3})));
    Applied r = play(g, A::step({2, 2}, {3, 3}));
    EXPECT_TRUE(r.effects.turn_over);
    EXPECT_EQ(r.next.turn(), kWhite);
    EXPECT_TRUE(has_piece(r.next, man(kBlack, 3, 3)));
    EXPECT_TRUE(is_empty(r.next, {2, 2}));
  }
}

TEST(Common, C2_ManStepBlockedByEdgeAndOwnPiece) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(
        v, {man(kBlack, 0, 2), man(kBlack, 4, 2), man(kBlack, 5, 3), man(kWhite, 7, 7)}, kBlack);
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({0, 2}, {1, 3}), A::step({4, 2}, {3, 3}),
                                                A::step({5, 3}, {4, 4}), A::step({5, 3}, {6, 4})));
  }
}

TEST(Common, C2_SecondSideManStepsDown) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 0, 0), man(kWhite, 3, 5)}, kWhite);
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({3, 5}, {2, 4}), A::step({3, 5}, {4, 4})));
  }
}

TEST(Common, C2_KingStepsOneSquareInFourDirections) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {king(kBlack, 3, 3), man(kWhite, 7, 7)}, kBlack);
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({3, 3}, {2, 2}), A::step({3, 3}, {4, 4}),
                                                A::step({3, 3}, {2, 4}), A::step({3, 3}, {4, 2})));
    EXPECT_FALSE(g.is_legal(A::step({3, 3}, {5, 5}))) << "a king steps one square only";
  }
}

TEST(Common, C2_StepOntoOccupiedOrNonDiagonalSquareRefused) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 2), man(kBlack, 3, 3), man(kWhite, 7, 7)}, kBlack);
    EXPECT_FALSE(g.apply(A::step({2, 2}, {3, 3})).has_value());
    EXPECT_FALSE(g.apply(A::step({2, 2}, {2, 3})).has_value());
    EXPECT_FALSE(g.apply(A::step({2, 2}, {2, 4})).has_value());
    EXPECT_FALSE(g.apply(A::step({7, 7}, {6, 6})).has_value()) << "not the mover's piece";
  }
}

TEST(Common, C3_JumpRemovesTheJumpedPiece) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 7, 7)}, kBlack);
    if (v == VariantId::Bomb) {  // B4: capturing is optional
      EXPECT_THAT(g.legal(),
                  UnorderedElementsAre(A::jump({2, 2}, {4, 4}), A::step({2, 2}, {1, 3})));
    } else {  // K2, T2: compulsory
      EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4})));
    }
    Applied r = play(g, A::jump({2, 2}, {4, 4}));
    EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
    EXPECT_THAT(r.effects.exploded, IsEmpty());
    EXPECT_THAT(r.effects.promoted, IsEmpty());
    EXPECT_TRUE(r.effects.turn_over);
    EXPECT_TRUE(is_empty(r.next, {3, 3}));
    EXPECT_TRUE(is_empty(r.next, {2, 2}));
    EXPECT_TRUE(has_piece(r.next, man(kBlack, 4, 4)));
    EXPECT_EQ(r.next.turn(), kWhite);
    EXPECT_EQ(count_side(r.next, kWhite), 1);
  }
}

TEST(Common, C3_NoJumpWhenLandingOccupiedOrOffBoard) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v,
                      {man(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 4, 4), man(kBlack, 6, 6),
                       man(kWhite, 7, 7)},
                      kBlack);
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({2, 2}, {1, 3}), A::step({6, 6}, {5, 7})));
  }
}

TEST(Common, C3_NoJumpOverOwnPiece) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 2), man(kBlack, 3, 3), man(kWhite, 7, 7)}, kBlack);
    EXPECT_FALSE(g.is_legal(A::jump({2, 2}, {4, 4})));
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({2, 2}, {1, 3}), A::step({3, 3}, {2, 4}),
                                                A::step({3, 3}, {4, 4})));
  }
}

// C3 "men jump forward only"; for bomb, B3 says the same ("capture forward only").
TEST(Common, C3_MenDoNotJumpBackward) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 3, 3), man(kWhite, 2, 2), man(kWhite, 7, 7)}, kBlack);
    EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({3, 3}, {2, 4}), A::step({3, 3}, {4, 4})));
  }
}

TEST(Common, C3_SecondSideManJumpsDown) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 0, 0), man(kBlack, 3, 3), man(kWhite, 4, 4)}, kWhite);
    EXPECT_TRUE(g.is_legal(A::jump({4, 4}, {2, 2})));
    Applied r = play(g, A::jump({4, 4}, {2, 2}));
    EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
    EXPECT_TRUE(has_piece(r.next, man(kWhite, 2, 2)));
  }
}

TEST(Common, C3_KingJumpsBackward) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {king(kBlack, 3, 3), man(kWhite, 2, 2), man(kWhite, 7, 7)}, kBlack);
    auto legal = g.legal();
    EXPECT_TRUE(g.is_legal(A::jump({3, 3}, {1, 1}))) << describe(legal);
    if (v == VariantId::TripleKing) {  // T3: a flying capture may land on any square beyond
      EXPECT_THAT(legal, UnorderedElementsAre(A::jump({3, 3}, {1, 1}), A::jump({3, 3}, {0, 0})));
    } else if (v == VariantId::Classic) {
      EXPECT_THAT(legal, UnorderedElementsAre(A::jump({3, 3}, {1, 1})));
    }
    Applied r = play(g, A::jump({3, 3}, {1, 1}));
    EXPECT_THAT(r.effects.captured, ElementsAre(Square{2, 2}));
    EXPECT_TRUE(has_piece(r.next, king(kBlack, 1, 1)));
  }
}

TEST(Common, C4_ManReachingFarRowIsCrowned) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 6), man(kWhite, 5, 1)}, kBlack);
    Applied r = play(g, A::step({2, 6}, {1, 7}));
    EXPECT_TRUE(has_piece(r.next, king(kBlack, 1, 7)));
    EXPECT_THAT(r.effects.promoted, ElementsAre(Square{1, 7}));
    EXPECT_TRUE(r.effects.turn_over);
    // The second side's far row is row 0.
    Applied w = play(r.next, A::step({5, 1}, {6, 0}));
    EXPECT_TRUE(has_piece(w.next, king(kWhite, 6, 0)));
    EXPECT_THAT(w.effects.promoted, ElementsAre(Square{6, 0}));
  }
}

TEST(Common, C4_ManNotOnFarRowIsNotCrowned) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 1, 5), man(kWhite, 5, 1)}, kBlack);
    Applied r = play(g, A::step({1, 5}, {0, 6}));
    EXPECT_TRUE(has_piece(r.next, man(kBlack, 0, 6)));
    EXPECT_THAT(r.effects.promoted, IsEmpty());
  }
}

// Capturing a king gives the capturer nothing: only the far row crowns.
TEST(Common, C4_ManCapturingAKingIsNotCrowned) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 2), king(kWhite, 3, 3), man(kWhite, 7, 7)}, kBlack);
    Applied r = play(g, A::jump({2, 2}, {4, 4}));
    EXPECT_TRUE(has_piece(r.next, man(kBlack, 4, 4)));
    EXPECT_THAT(r.effects.promoted, IsEmpty());
    EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  }
}

TEST(Common, C4_ManCrownedByJumpOntoFarRow) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 3, 5), man(kWhite, 4, 6), man(kWhite, 0, 6)}, kBlack);
    Applied r = play(g, A::jump({3, 5}, {5, 7}));
    EXPECT_TRUE(has_piece(r.next, king(kBlack, 5, 7)));
    EXPECT_THAT(r.effects.promoted, ElementsAre(Square{5, 7}));
  }
}

TEST(Common, C5_NoLegalActionLoses) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    // White blocks the black man in the corner: [1,1] and [2,2] both taken, so no step or jump.
    Game g = position(v, {man(kBlack, 0, 0), man(kWhite, 1, 1), man(kWhite, 3, 3)}, kWhite);
    EXPECT_FALSE(g.over());
    Applied r = play(g, A::step({3, 3}, {2, 2}));
    EXPECT_TRUE(r.effects.turn_over);
    ASSERT_TRUE(r.next.over());
    EXPECT_EQ(*r.next.result(), win(kWhite, Reason::NoMoves));
    EXPECT_THAT(r.next.legal(), IsEmpty());
  }
}

// A custom position whose side to move is already stuck: the core may refuse it (with a message),
// or accept it as a game already lost; never a live game without legal actions.
TEST(Common, C5_PositionWithoutMovesIsLostOrRefused) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    bc::Position p;
    p.pieces = {man(kBlack, 0, 0), man(kWhite, 1, 1), man(kWhite, 2, 2)};
    p.turn = kBlack;
    auto r = Game::from_position(v, bc::default_options(v), p);
    if (auto* err = std::get_if<std::string>(&r)) {
      EXPECT_FALSE(err->empty());
      continue;
    }
    const Game& g = std::get<Game>(r);
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), win(kWhite, Reason::NoMoves));
    EXPECT_THAT(g.legal(), IsEmpty());
  }
}

TEST(Common, C5_NoPiecesLoses) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 2, 2), man(kWhite, 3, 3)}, kBlack);
    Applied r = play(g, A::jump({2, 2}, {4, 4}));
    ASSERT_TRUE(r.next.over());
    EXPECT_EQ(*r.next.result(), win(kBlack, Reason::NoPieces));
    EXPECT_THAT(r.next.legal(), IsEmpty());
    EXPECT_THAT(r.next.turns(), IsEmpty());
  }
}

TEST(Common, C5_SecondSideWinsByTakingLastPiece) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, {man(kBlack, 3, 3), man(kWhite, 4, 4)}, kWhite);
    Applied r = play(g, A::jump({4, 4}, {2, 2}));
    ASSERT_TRUE(r.next.over());
    EXPECT_EQ(*r.next.result(), win(kWhite, Reason::NoPieces));
  }
}

TEST(Common, C6_NoProgressDrawAfter80QuietTurns) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, shuffle_pieces(), kBlack);
    ASSERT_EQ(bc::default_options(v).draw_turns, 80);
    EXPECT_EQ(g.quiet_turns(), 0);
    for (int i = 0; i < 80; ++i) {
      ASSERT_FALSE(g.over()) << "over after " << i << " quiet turns";
      g = quiet(g);
      EXPECT_EQ(g.quiet_turns(), std::min(i + 1, 80));
    }
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), draw(Reason::DrawRule));
    EXPECT_THAT(g.legal(), IsEmpty());
  }
}

TEST(Common, C6_ManMoveResetsCounter) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    auto ps = shuffle_pieces();
    ps.push_back(man(kBlack, 4, 0));
    Game g = position(v, ps, kBlack);
    for (int i = 0; i < 30; ++i) g = quiet(g);  // black to move again
    EXPECT_EQ(g.quiet_turns(), 30);
    g = play(g, A::step({4, 0}, {5, 1})).next;
    EXPECT_EQ(g.quiet_turns(), 0);
    // White's next move is a quiet turn; 80 of them are needed again for the draw.
    for (int i = 31; i < 31 + 79; ++i) {
      g = quiet(g);
      ASSERT_FALSE(g.over()) << "drawn too early, turn " << i;
    }
    EXPECT_EQ(g.quiet_turns(), 79);
    g = quiet(g);
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), draw(Reason::DrawRule));
  }
}

TEST(Common, C6_CaptureResetsCounter) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    auto ps = shuffle_pieces();
    ps.push_back(king(kWhite, 4, 2));
    Game g = position(v, ps, kBlack);
    for (int i = 0; i < 21; ++i) g = quiet(g);  // black king now on [2,2]
    ASSERT_TRUE(has_piece(g, king(kBlack, 2, 2)));
    ASSERT_EQ(g.turn(), kWhite);
    g = play(g, A::step({4, 2}, {3, 1})).next;  // a king move: still quiet
    EXPECT_EQ(g.quiet_turns(), 22);
    Applied r = play(g, A::jump({2, 2}, {4, 0}));
    EXPECT_TRUE(r.effects.turn_over);
    EXPECT_EQ(r.next.quiet_turns(), 0);
    EXPECT_FALSE(r.next.over());
  }
}

TEST(Common, C6_DrawTurnsOptionChangesTheNumber) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, opts(v, {{"draw_turns", 10}}), shuffle_pieces(), kBlack);
    for (int i = 0; i < 9; ++i) g = quiet(g);
    EXPECT_FALSE(g.over());
    g = quiet(g);
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), draw(Reason::DrawRule));
  }
}

TEST(Common, C6_ZeroDrawTurnsTurnsTheRuleOff) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, opts(v, {{"draw_turns", 0}}), shuffle_pieces(), kBlack);
    for (int i = 0; i < 400; ++i) {
      g = quiet(g);
      ASSERT_FALSE(g.over()) << "drawn after " << i + 1 << " turns with the rule off";
    }
  }
}

// The quiet turn that reaches the draw rule's count also leaves White without a move: the game is
// won (C5), not drawn (C6). In triple_king the king's step to its back row crowns it, still quiet.
TEST(Common, C6_NoMovesOutranksTheDrawRuleOnTheSameTurn) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, opts(v, {{"draw_turns", 1}}),
                      {man(kBlack, 1, 1), king(kBlack, 3, 1), man(kWhite, 0, 2)}, kBlack);
    Applied r = play(g, A::step({3, 1}, {2, 0}));
    EXPECT_EQ(r.next.quiet_turns(), 1);
    ASSERT_TRUE(r.next.over());
    EXPECT_EQ(*r.next.result(), win(kBlack, Reason::NoMoves));
  }
}

// The same quiet turn with a reply left for White: now the draw rule ends the game.
TEST(Common, C6_DrawRuleEndsTheGameWhenTheOpponentCanMove) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, opts(v, {{"draw_turns", 1}}),
                      {man(kBlack, 1, 1), king(kBlack, 3, 1), man(kWhite, 6, 6)}, kBlack);
    Applied r = play(g, A::step({3, 1}, {2, 0}));
    ASSERT_TRUE(r.next.over());
    EXPECT_EQ(*r.next.result(), draw(Reason::DrawRule));
  }
}

// C7: with the no-progress rule off, the 1,000th turn ends the game drawn, and not a turn before.
TEST(Common, C7_TurnLimitDrawsAfter1000TurnsWhateverTheDrawRule) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = position(v, opts(v, {{"draw_turns", 0}}), shuffle_pieces(), kBlack);
    for (int i = 0; i < bc::kTurnLimit - 1; ++i) {
      g = quiet(g);
      ASSERT_FALSE(g.over()) << "over after " << i + 1 << " turns";
    }
    EXPECT_EQ(g.turns_played(), bc::kTurnLimit - 1);
    g = quiet(g);
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), draw(Reason::TurnLimit));
    EXPECT_TRUE(g.legal().empty());
  }
}

// A capture sequence of several hops is one turn; a custom position starts counting at 0.
TEST(Common, C7_AMultiJumpIsOneTurn) {
  Game g = position(VariantId::Classic,
                    {man(kBlack, 0, 0), man(kWhite, 1, 1), man(kWhite, 3, 3), man(kWhite, 7, 7)},
                    kBlack);
  EXPECT_EQ(g.turns_played(), 0);
  Applied r = play(g, A::jump({0, 0}, {2, 2}));
  ASSERT_FALSE(r.effects.turn_over);
  EXPECT_EQ(r.next.turns_played(), 0);
  r = play(r.next, A::jump({2, 2}, {4, 4}));
  ASSERT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.turns_played(), 1);
}

// A game stored under revision 2 was played without the limit and goes on past it.
TEST(Common, C7_Revision2GamesHaveNoTurnLimit) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Options o = opts(v, {{"draw_turns", 0}});
    o.rules = 2;
    Game g = position(v, o, shuffle_pieces(), kBlack);
    for (int i = 0; i < bc::kTurnLimit + 200; ++i) g = quiet(g);
    EXPECT_FALSE(g.over());
  }
}

// An optional capture sequence stopped with end_turn still removed a piece: the count starts again.
TEST(Common, C6_BombJumpThenEndTurnResetsCounter) {
  auto ps = shuffle_pieces();
  ps.push_back(king(kWhite, 4, 2));
  ps.push_back(king(kWhite, 5, 1));  // jumpable again from [4,0]: the sequence may go on
  Game g = position(VariantId::Bomb, ps, kBlack);
  for (int i = 0; i < 21; ++i) g = quiet(g);
  ASSERT_TRUE(has_piece(g, king(kBlack, 2, 2)));
  ASSERT_EQ(g.turn(), kWhite);
  g = play(g, A::step({4, 2}, {3, 1})).next;
  ASSERT_GT(g.quiet_turns(), 0);
  Applied r = play(g, A::jump({2, 2}, {4, 0}));
  ASSERT_FALSE(r.effects.turn_over) << "a further jump was expected";
  r = play(r.next, A::end_turn());
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.quiet_turns(), 0);
}

TEST(Common, C6_DrawByAgreement) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    Game g = start(v).drawn_by_agreement();
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), draw(Reason::DrawAgreed));
    EXPECT_THAT(g.legal(), IsEmpty());
  }
}

TEST(Common, C5_ResignationLoses) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(vname(v));
    Game g = start(v).resigned(Side::First);
    ASSERT_TRUE(g.over());
    EXPECT_EQ(*g.result(), win(Side::Second, Reason::Resigned));
    EXPECT_THAT(g.legal(), IsEmpty());
  }
}

}  // namespace
