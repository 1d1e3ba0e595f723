// RULES.md section B: bomb checkers (fire at the bottom moves first, water at the top).
#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr VariantId kBomb = VariantId::Bomb;

Game bomb_position(std::vector<Piece> pieces, Side turn = kFire) {
  return position(kBomb, std::move(pieces), turn);
}

TEST(Bomb, B1_SidesFireFirstWaterSecond) {
  EXPECT_EQ(bc::side_name(kBomb, Side::First), "fire");
  EXPECT_EQ(bc::side_name(kBomb, Side::Second), "water");
  EXPECT_EQ(bc::side_from_name(kBomb, "fire"), Side::First);
  EXPECT_EQ(bc::side_from_name(kBomb, "water"), Side::Second);
  EXPECT_EQ(bc::side_from_name(kBomb, "black"), std::nullopt);
  Game g = start(kBomb);
  EXPECT_EQ(g.turn(), kFire);
  for (const auto& a : g.legal()) {
    ASSERT_EQ(a.kind, bc::ActionKind::Step);
    EXPECT_EQ(g.piece_at(a.from)->side, kFire);
    EXPECT_EQ(a.to.y, a.from.y + 1) << "fire moves up";
  }
}

TEST(Bomb, B2_SetUp) {
  std::vector<Piece> expected;
  for (int x : {0, 2, 4, 6}) expected.push_back(man(kFire, x, 0));
  for (int x : {1, 3, 5, 7}) expected.push_back(shield(kFire, x, 1));
  for (int x : {0, 2, 4, 6}) expected.push_back(bomb(kFire, x, 2));
  for (int x : {1, 3, 5, 7}) expected.push_back(bomb(kWater, x, 5));
  for (int x : {0, 2, 4, 6}) expected.push_back(shield(kWater, x, 6));
  for (int x : {1, 3, 5, 7}) expected.push_back(man(kWater, x, 7));
  Game g = start(kBomb);
  EXPECT_EQ(g.pieces(), sorted_pieces(expected));
  EXPECT_TRUE(has_piece(g, man(kFire, 0, 0)));
  EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{0, 0}));
}

TEST(Bomb, B2_StartLegalActionsAreTheBombSteps) {
  EXPECT_THAT(start(kBomb).legal(),
              UnorderedElementsAre(A::step({0, 2}, {1, 3}), A::step({2, 2}, {1, 3}),
                                   A::step({2, 2}, {3, 3}), A::step({4, 2}, {3, 3}),
                                   A::step({4, 2}, {5, 3}), A::step({6, 2}, {5, 3}),
                                   A::step({6, 2}, {7, 3})));
}

TEST(Bomb, B3_MenMoveAndCaptureForwardOnly) {
  Game g = bomb_position({man(kFire, 3, 3), man(kWater, 2, 2), man(kWater, 4, 4)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({3, 3}, {2, 4}), A::jump({3, 3}, {5, 5})));
  EXPECT_FALSE(g.is_legal(A::jump({3, 3}, {1, 1})));
  EXPECT_FALSE(g.is_legal(A::step({3, 3}, {4, 2})));
}

TEST(Bomb, B3_WaterMenMoveAndCaptureDown) {
  Game g = bomb_position({man(kWater, 4, 4), man(kFire, 3, 3), man(kFire, 5, 5)}, kWater);
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({4, 4}, {5, 3}), A::jump({4, 4}, {2, 2})));
}

TEST(Bomb, B3_KingsMoveAndCaptureInAllFourDirections) {
  Game g =
      bomb_position({king(kFire, 3, 3), man(kWater, 2, 2), man(kWater, 4, 4), man(kWater, 2, 4)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({3, 3}, {1, 1}), A::jump({3, 3}, {5, 5}),
                                              A::jump({3, 3}, {1, 5}), A::step({3, 3}, {4, 2})));
}

TEST(Bomb, B3_ShieldAndBombMenMoveLikeMen) {
  Game g = bomb_position({shield(kFire, 1, 1), bomb(kFire, 5, 1), man(kWater, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({1, 1}, {0, 2}), A::step({1, 1}, {2, 2}),
                                              A::step({5, 1}, {4, 2}), A::step({5, 1}, {6, 2})));
  Applied r = play(g, A::step({5, 1}, {6, 2}));
  EXPECT_TRUE(has_piece(r.next, bomb(kFire, 6, 2)));
  EXPECT_THAT(r.effects.exploded, IsEmpty()) << "only a bomb's jump explodes";
}

TEST(Bomb, B3_ShieldCanBeCaptured) {
  Game g = bomb_position({man(kFire, 2, 2), shield(kWater, 3, 3), man(kWater, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_TRUE(is_empty(r.next, {3, 3}));
}

TEST(Bomb, B3_CapturedBombDoesNotExplode) {
  Game g = bomb_position({man(kFire, 2, 2), bomb(kWater, 3, 3), man(kWater, 2, 4), man(kFire, 4, 2),
                          man(kWater, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_THAT(r.effects.exploded, IsEmpty());
  EXPECT_TRUE(has_piece(r.next, man(kWater, 2, 4)));
  EXPECT_TRUE(has_piece(r.next, man(kFire, 4, 2)));
  EXPECT_TRUE(has_piece(r.next, man(kFire, 4, 4)));
}

TEST(Bomb, C4_ShieldReachingFarRowBecomesShieldKing) {
  Game g = bomb_position({shield(kFire, 2, 6), man(kWater, 7, 7)});
  Applied r = play(g, A::step({2, 6}, {3, 7}));
  EXPECT_TRUE(has_piece(r.next, shield_king(kFire, 3, 7)));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{3, 7}));
  EXPECT_THAT(r.effects.exploded, IsEmpty());
}

TEST(Bomb, B4_CaptureIsOptional) {
  Game g = bomb_position({man(kFire, 2, 2), man(kWater, 3, 3), man(kWater, 7, 7)});
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::jump({2, 2}, {4, 4}), A::step({2, 2}, {1, 3})));
  Applied r = play(g, A::step({2, 2}, {1, 3}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.turn(), kWater);
  EXPECT_TRUE(has_piece(r.next, man(kWater, 3, 3)));
}

TEST(Bomb, B4_OtherPieceMayStepWhileACaptureExists) {
  Game g =
      bomb_position({man(kFire, 2, 2), man(kWater, 3, 3), man(kFire, 6, 0), man(kWater, 7, 7)});
  EXPECT_TRUE(g.is_legal(A::step({6, 0}, {5, 1})));
  EXPECT_TRUE(g.is_legal(A::jump({2, 2}, {4, 4})));
}

TEST(Bomb, B5_StepEndsTheTurn) {
  Game g = bomb_position({man(kFire, 2, 2), man(kWater, 7, 7)});
  Applied r = play(g, A::step({2, 2}, {3, 3}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_FALSE(r.next.mid_turn());
  EXPECT_EQ(r.next.turn(), kWater);
}

// fire man [1,1] can take [2,2] then [4,4]; fire man [6,0] can only step.
std::vector<Piece> two_jump_pieces(Piece jumper) {
  return {jumper, man(kFire, 6, 0), man(kWater, 2, 2), man(kWater, 4, 4), man(kWater, 7, 7)};
}

TEST(Bomb, B5_ContinuingIsOptional) {
  Game g = bomb_position(two_jump_pieces(man(kFire, 1, 1)));
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::step({1, 1}, {0, 2}), A::jump({1, 1}, {3, 3}),
                                              A::step({6, 0}, {5, 1}), A::step({6, 0}, {7, 1})));
  Applied r = play(g, A::jump({1, 1}, {3, 3}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{2, 2}));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_TRUE(r.next.mid_turn());
  EXPECT_EQ(r.next.jumper(), (Square{3, 3}));
  EXPECT_EQ(r.next.turn(), kFire);
  EXPECT_TRUE(is_empty(r.next, {2, 2})) << "captured pieces are removed at each hop";
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::end_turn()));

  // Stopping.
  Applied stop = play(r.next, A::end_turn());
  EXPECT_TRUE(stop.effects.turn_over);
  EXPECT_THAT(stop.effects.captured, IsEmpty());
  EXPECT_FALSE(stop.next.mid_turn());
  EXPECT_EQ(stop.next.jumper(), std::nullopt);
  EXPECT_EQ(stop.next.turn(), kWater);
  EXPECT_TRUE(has_piece(stop.next, man(kFire, 3, 3)));
  EXPECT_TRUE(has_piece(stop.next, man(kWater, 4, 4)));

  // Going on: the turn ends by itself when no further jump exists.
  Applied more = play(r.next, A::jump({3, 3}, {5, 5}));
  EXPECT_THAT(more.effects.captured, ElementsAre(Square{4, 4}));
  EXPECT_TRUE(more.effects.turn_over);
  EXPECT_EQ(more.next.turn(), kWater);
  EXPECT_FALSE(more.next.mid_turn());
  EXPECT_TRUE(has_piece(more.next, man(kFire, 5, 5)));
}

TEST(Bomb, B5_ShieldMayContinueToo) {
  Game g = bomb_position(two_jump_pieces(shield(kFire, 1, 1)));
  Applied r = play(g, A::jump({1, 1}, {3, 3}));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::end_turn()));
}

TEST(Bomb, B5_EndTurnOnlyWhileContinuingIsOptional) {
  Game g = bomb_position(two_jump_pieces(man(kFire, 1, 1)));
  EXPECT_FALSE(g.is_legal(A::end_turn()));
  EXPECT_FALSE(g.apply(A::end_turn()).has_value());
  // A single jump with nothing after it ends the turn: no end_turn offered.
  Game s = bomb_position({man(kFire, 2, 2), man(kWater, 3, 3), man(kWater, 7, 7)});
  Applied r = play(s, A::jump({2, 2}, {4, 4}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.turn(), kWater);
  EXPECT_FALSE(r.next.is_legal(A::end_turn()));
}

TEST(Bomb, B5_OnlyTheJumpingPieceContinues) {
  // fire [6,0] could jump [5,1] at the start of the turn, but not once [1,1] has jumped.
  Game g = bomb_position({man(kFire, 1, 1), man(kFire, 6, 0), man(kWater, 2, 2), man(kWater, 4, 4),
                          man(kWater, 5, 1), man(kWater, 7, 7)});
  EXPECT_TRUE(g.is_legal(A::jump({6, 0}, {4, 2})));
  Applied r = play(g, A::jump({1, 1}, {3, 3}));
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::end_turn()));
  EXPECT_FALSE(r.next.apply(A::jump({6, 0}, {4, 2})).has_value());
  EXPECT_FALSE(r.next.apply(A::step({6, 0}, {7, 1})).has_value());
}

TEST(Bomb, B5_SeveralContinuationsAndStopping) {
  // After [1,1]x[2,2] the man on [3,3] may take [4,4] or [2,4], or stop.
  Game g = bomb_position({man(kFire, 1, 1), man(kWater, 2, 2), man(kWater, 4, 4), man(kWater, 2, 4),
                          man(kWater, 7, 7)});
  Game mid = play(g, A::jump({1, 1}, {3, 3})).next;
  EXPECT_THAT(mid.legal(), UnorderedElementsAre(A::jump({3, 3}, {5, 5}), A::jump({3, 3}, {1, 5}),
                                                A::end_turn()));
}

// Lead's choice: a turn that stops while a further jump exists ends with an explicit end_turn.
TEST(Bomb, B5_TurnsListStopsWithExplicitEndTurn) {
  Game g = bomb_position(two_jump_pieces(man(kFire, 1, 1)));
  EXPECT_THAT(g.turns(),
              UnorderedElementsAre(
                  Turn{{A::step({1, 1}, {0, 2})}}, Turn{{A::jump({1, 1}, {3, 3}), A::end_turn()}},
                  Turn{{A::jump({1, 1}, {3, 3}), A::jump({3, 3}, {5, 5})}},
                  Turn{{A::step({6, 0}, {5, 1})}}, Turn{{A::step({6, 0}, {7, 1})}}));
  // From the middle of the turn: the rest of it.
  Game mid = play(g, A::jump({1, 1}, {3, 3})).next;
  EXPECT_THAT(mid.turns(),
              UnorderedElementsAre(Turn{{A::end_turn()}}, Turn{{A::jump({3, 3}, {5, 5})}}));
}

TEST(Bomb, B6_ManCrownedMidCaptureGoesOnAsKing) {
  Game g =
      bomb_position({man(kFire, 3, 5), man(kWater, 4, 6), man(kWater, 6, 6), man(kWater, 0, 6)});
  Applied r = play(g, A::jump({3, 5}, {5, 7}));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{5, 7}));
  EXPECT_TRUE(has_piece(r.next, king(kFire, 5, 7)));
  EXPECT_FALSE(r.effects.turn_over);
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({5, 7}, {7, 5}), A::end_turn()));
  Applied r2 = play(r.next, A::jump({5, 7}, {7, 5}));  // backwards, as a king
  EXPECT_THAT(r2.effects.captured, ElementsAre(Square{6, 6}));
  EXPECT_THAT(r2.effects.promoted, IsEmpty());
  EXPECT_TRUE(has_piece(r2.next, king(kFire, 7, 5)));
  EXPECT_TRUE(r2.effects.turn_over);
}

TEST(Bomb, B6_ShieldCrownedMidCaptureGoesOnAsShieldKing) {
  Game g =
      bomb_position({shield(kFire, 3, 5), man(kWater, 4, 6), man(kWater, 6, 6), man(kWater, 0, 6)});
  Applied r = play(g, A::jump({3, 5}, {5, 7}));
  EXPECT_TRUE(has_piece(r.next, shield_king(kFire, 5, 7)));
  EXPECT_TRUE(r.next.is_legal(A::jump({5, 7}, {7, 5})));
}

TEST(Bomb, B6_WaterManCrownedOnRowZeroGoesOn) {
  Game g = bomb_position({man(kWater, 4, 2), man(kFire, 3, 1), man(kFire, 1, 1), man(kFire, 7, 1)},
                         kWater);
  Applied r = play(g, A::jump({4, 2}, {2, 0}));
  EXPECT_TRUE(has_piece(r.next, king(kWater, 2, 0)));
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{2, 0}));
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::jump({2, 0}, {0, 2}), A::end_turn()));
}

TEST(Bomb, B7_ExplosionRemovesNonShieldsOfBothSidesAndTheBomb) {
  Game g = bomb_position({bomb(kFire, 2, 2), man(kWater, 3, 3),                       // the jump
                          man(kWater, 5, 5), man(kFire, 3, 5), shield(kWater, 5, 3),  // the block
                          man(kFire, 0, 0), man(kWater, 6, 6), man(kWater, 7, 7)});   // outside
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{4, 4}, Square{5, 5}, Square{3, 5}));
  EXPECT_THAT(r.effects.promoted, IsEmpty());
  EXPECT_TRUE(r.effects.turn_over) << "a bomb's turn ends with its first jump";
  EXPECT_EQ(r.next.turn(), kWater);
  EXPECT_FALSE(r.next.mid_turn());
  EXPECT_TRUE(is_empty(r.next, {4, 4})) << "the bomb is removed";
  EXPECT_TRUE(is_empty(r.next, {3, 3}));
  EXPECT_TRUE(is_empty(r.next, {5, 5}));
  EXPECT_TRUE(is_empty(r.next, {3, 5}));
  EXPECT_TRUE(has_piece(r.next, shield(kWater, 5, 3)));
  EXPECT_TRUE(has_piece(r.next, man(kFire, 0, 0)));
  EXPECT_TRUE(has_piece(r.next, man(kWater, 6, 6)));
  EXPECT_TRUE(has_piece(r.next, man(kWater, 7, 7)));
  EXPECT_EQ(r.next.pieces().size(), 4u);
}

TEST(Bomb, B7_ShieldsSurviveCrownedOrNot) {
  Game g = bomb_position({bomb(kFire, 2, 2), man(kWater, 3, 3), shield_king(kWater, 5, 5),
                          shield(kFire, 3, 5), shield_king(kFire, 5, 3), man(kWater, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.exploded, ElementsAre(Square{4, 4}));
  EXPECT_TRUE(has_piece(r.next, shield_king(kWater, 5, 5)));
  EXPECT_TRUE(has_piece(r.next, shield(kFire, 3, 5)));
  EXPECT_TRUE(has_piece(r.next, shield_king(kFire, 5, 3)));
}

TEST(Bomb, B7_KingsInTheBlockAreDestroyed) {
  Game g = bomb_position({bomb(kFire, 2, 2), man(kWater, 3, 3), king(kWater, 5, 5),
                          king(kFire, 3, 5), man(kWater, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{4, 4}, Square{5, 5}, Square{3, 5}));
}

TEST(Bomb, B7_NoChainReaction) {
  // [5,5] and [3,5] are bombs in the block: removed, but they do not explode, so [6,6] and [2,6]
  // (next to them, outside the first block) stay.
  Game g =
      bomb_position({bomb(kFire, 2, 2), man(kWater, 3, 3), bomb(kWater, 5, 5), bomb(kFire, 3, 5),
                     man(kWater, 6, 6), man(kFire, 2, 6), man(kWater, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{4, 4}, Square{5, 5}, Square{3, 5}));
  EXPECT_TRUE(has_piece(r.next, man(kWater, 6, 6)));
  EXPECT_TRUE(has_piece(r.next, man(kFire, 2, 6)));
  EXPECT_TRUE(has_piece(r.next, man(kWater, 7, 7)));
}

TEST(Bomb, B7_BombJumpingAShieldStillRemovesIt) {
  Game g = bomb_position({bomb(kFire, 2, 2), shield(kWater, 3, 3), man(kWater, 7, 7)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{3, 3}));
  EXPECT_THAT(r.effects.exploded, ElementsAre(Square{4, 4}));
  EXPECT_TRUE(is_empty(r.next, {3, 3}));
}

TEST(Bomb, B7_WaterBombExplodes) {
  Game g = bomb_position({bomb(kWater, 5, 5), man(kFire, 4, 4), man(kFire, 2, 2), man(kWater, 4, 2),
                          man(kFire, 0, 0), man(kWater, 7, 7)},
                         kWater);
  Applied r = play(g, A::jump({5, 5}, {3, 3}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{4, 4}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{3, 3}, Square{2, 2}, Square{4, 2}));
  EXPECT_EQ(r.next.turn(), kFire);
  EXPECT_EQ(r.next.pieces(), sorted_pieces({man(kFire, 0, 0), man(kWater, 7, 7)}));
}

TEST(Bomb, B7_BlastAtTheEdgeOfTheBoard) {
  Game g = bomb_position({bomb(kFire, 2, 2), man(kWater, 1, 3), man(kWater, 1, 5),
                          man(kWater, 7, 7), man(kFire, 6, 0)});
  Applied r = play(g, A::jump({2, 2}, {0, 4}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{1, 3}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{0, 4}, Square{1, 5}));
  EXPECT_EQ(r.next.pieces(), sorted_pieces({man(kFire, 6, 0), man(kWater, 7, 7)}));
}

TEST(Bomb, B8_BombSteppingOntoFarRowIsCrowned) {
  Game g =
      bomb_position({bomb(kFire, 2, 6), man(kWater, 0, 6), man(kFire, 4, 0), man(kWater, 7, 7)});
  Applied r = play(g, A::step({2, 6}, {1, 7}));
  EXPECT_THAT(r.effects.exploded, IsEmpty()) << "a step never explodes a bomb";
  EXPECT_THAT(r.effects.captured, IsEmpty());
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{1, 7}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.pieces(), sorted_pieces({bomb_king(kFire, 1, 7), man(kWater, 0, 6),
                                            man(kFire, 4, 0), man(kWater, 7, 7)}));
  EXPECT_FALSE(r.next.over());
}

TEST(Bomb, B8_WaterBombSteppingOntoRowZeroIsCrowned) {
  Game g = bomb_position(
      {bomb(kWater, 1, 1), man(kFire, 3, 1), man(kFire, 6, 0), man(kWater, 7, 7)}, kWater);
  Applied r = play(g, A::step({1, 1}, {2, 0}));
  EXPECT_THAT(r.effects.exploded, IsEmpty());
  EXPECT_THAT(r.effects.promoted, ElementsAre(Square{2, 0}));
  EXPECT_TRUE(has_piece(r.next, bomb_king(kWater, 2, 0)));
  EXPECT_TRUE(has_piece(r.next, man(kFire, 3, 1)));
}

// A king bomb steps and captures backwards (B3 for kings), and its capture explodes it (B7).
TEST(Bomb, B8_KingBombStepsAndCapturesBackwardsThenExplodes) {
  Game g = bomb_position({bomb_king(kFire, 3, 5), man(kWater, 2, 4), man(kWater, 0, 4),
                          shield(kWater, 1, 1), man(kWater, 7, 7), man(kFire, 6, 0)});
  EXPECT_TRUE(g.is_legal(A::step({3, 5}, {4, 4}))) << "backwards step";
  EXPECT_TRUE(g.is_legal(A::step({3, 5}, {2, 6})));
  EXPECT_TRUE(g.is_legal(A::step({3, 5}, {4, 6})));
  EXPECT_TRUE(g.is_legal(A::jump({3, 5}, {1, 3}))) << "backwards capture";
  Applied stepped = play(g, A::step({3, 5}, {4, 4}));
  EXPECT_THAT(stepped.effects.exploded, IsEmpty());
  EXPECT_TRUE(has_piece(stepped.next, bomb_king(kFire, 4, 4)));
  Applied r = play(g, A::jump({3, 5}, {1, 3}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{2, 4}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{1, 3}, Square{0, 4}));
  EXPECT_TRUE(r.effects.turn_over) << "a bomb's turn ends with its first jump";
  EXPECT_EQ(r.next.pieces(),
            sorted_pieces({shield(kWater, 1, 1), man(kWater, 7, 7), man(kFire, 6, 0)}));
}

TEST(Bomb, B8_KingBombInCustomPositionLoads) {
  Game g = bomb_position(
      {bomb_king(kFire, 3, 7), bomb_king(kWater, 4, 0), man(kFire, 0, 0), man(kWater, 7, 7)});
  EXPECT_TRUE(has_piece(g, bomb_king(kFire, 3, 7)));
  EXPECT_TRUE(has_piece(g, bomb_king(kWater, 4, 0)));
  EXPECT_TRUE(g.is_legal(A::step({3, 7}, {2, 6})));
}

TEST(Bomb, B8_BombJumpingOntoFarRowIsNeverCrowned) {
  Game g = bomb_position({bomb(kFire, 3, 5), man(kWater, 4, 6), man(kWater, 6, 6), man(kFire, 0, 0),
                          man(kWater, 0, 6)});
  Applied r = play(g, A::jump({3, 5}, {5, 7}));
  EXPECT_THAT(r.effects.captured, ElementsAre(Square{4, 6}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{5, 7}, Square{6, 6}));
  EXPECT_THAT(r.effects.promoted, IsEmpty());
  EXPECT_TRUE(is_empty(r.next, {5, 7}));
  EXPECT_TRUE(r.effects.turn_over);
}

// Games stored before 2026-11-24 replay under rules revision 1, where the far-row step exploded.
TEST(Bomb, B8_Revision1BombSteppingOntoFarRowExploded) {
  Options o = bc::default_options(kBomb);
  o.rules = 1;
  Game g = position(
      kBomb, o, {bomb(kFire, 2, 6), man(kWater, 0, 6), man(kFire, 4, 0), man(kWater, 7, 7)}, kFire);
  Applied r = play(g, A::step({2, 6}, {1, 7}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{1, 7}, Square{0, 6}));
  EXPECT_THAT(r.effects.promoted, IsEmpty());
  EXPECT_EQ(r.next.pieces(), sorted_pieces({man(kFire, 4, 0), man(kWater, 7, 7)}));
}

TEST(Bomb, B9_MutualDestructionIsADraw) {
  Game g = bomb_position({bomb(kFire, 2, 2), man(kWater, 3, 3), man(kWater, 5, 5)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  EXPECT_THAT(r.next.pieces(), IsEmpty());
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), draw(Reason::MutualDestruction));
  EXPECT_THAT(r.next.legal(), IsEmpty());
}

TEST(Bomb, B9_KingBombBlastBackwardsCanDestroyBothSides) {
  Game g = bomb_position({bomb_king(kFire, 4, 4), man(kWater, 3, 3), man(kWater, 1, 1)});
  Applied r = play(g, A::jump({4, 4}, {2, 2}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), draw(Reason::MutualDestruction));
}

TEST(Bomb, B9_BlastThatLeavesOnlyTheOpponentLoses) {
  Game g = bomb_position({bomb(kFire, 2, 2), man(kWater, 3, 3), shield(kWater, 5, 5)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kWater, Reason::NoPieces));
}

TEST(Bomb, B9_BlastThatLeavesOnlyTheMoverWins) {
  Game g =
      bomb_position({bomb(kFire, 2, 2), shield(kFire, 3, 5), man(kWater, 3, 3), man(kWater, 5, 5)});
  Applied r = play(g, A::jump({2, 2}, {4, 4}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kFire, Reason::NoPieces));
}

TEST(Bomb, B9_NoLegalActionLoses) {
  Game g = bomb_position({man(kWater, 1, 1), man(kFire, 0, 0), king(kFire, 3, 1)});
  Applied r = play(g, A::step({3, 1}, {2, 0}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kFire, Reason::NoMoves));
}

}  // namespace
