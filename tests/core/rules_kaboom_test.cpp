// RULES.md section X: Kaboom (Connect-N with bombs). Boards are drawn top row first:
// '.' empty, 'x'/'o' normal pieces, 'X'/'O' bombs of x/o; the last string is row 0.
#include <random>
#include <set>

#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr VariantId kKaboom = VariantId::Kaboom;

Game kaboom(const std::vector<std::string_view>& rows, Side turn = kX,
            std::array<int, 2> bombs = {0, 0}, const Options& o = bc::default_options(kKaboom)) {
  return position(kKaboom, o, kaboom_board(rows), turn, bombs);
}

std::vector<Action> drops(int width, bool bombs) {
  std::vector<Action> out;
  for (int c = 0; c < width; ++c) {
    out.push_back(A::drop(c, Kind::Normal));
    if (bombs) out.push_back(A::drop(c, Kind::Bomb));
  }
  return out;
}

TEST(Kaboom, X1_DefaultOptions) {
  Options o = bc::default_options(kKaboom);
  EXPECT_EQ(o.width, 7);
  EXPECT_EQ(o.height, 6);
  EXPECT_EQ(o.connect, 4);
  EXPECT_EQ(o.bombs, 1);
  EXPECT_FALSE(o.misere);
  EXPECT_FALSE(o.superbomb);
  std::set<std::string_view> names;
  for (const auto& spec : bc::option_specs(kKaboom)) {
    names.insert(spec.name);
    EXPECT_EQ(bc::get_option(o, kKaboom, spec.name), spec.def) << spec.name;
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"width", "height", "connect", "bombs", "misere",
                                               "superbomb"}));
}

TEST(Kaboom, X1_SidesXFirstThenO) {
  EXPECT_EQ(bc::side_name(kKaboom, Side::First), "x");
  EXPECT_EQ(bc::side_name(kKaboom, Side::Second), "o");
  EXPECT_EQ(bc::side_from_name(kKaboom, "o"), Side::Second);
  Game g = start(kKaboom);
  EXPECT_EQ(g.turn(), kX);
  EXPECT_EQ(g.width(), 7);
  EXPECT_EQ(g.height(), 6);
  EXPECT_THAT(g.pieces(), IsEmpty());
  EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{1, 1}));
  EXPECT_THAT(g.legal(), UnorderedElementsAreArray(drops(7, true)));
}

TEST(Kaboom, X1_BoardSizeAndBombCountOptions) {
  Game g = start(kKaboom, opts(kKaboom, {{"width", 9}, {"height", 7}, {"bombs", 3}}));
  EXPECT_EQ(g.width(), 9);
  EXPECT_EQ(g.height(), 7);
  EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{3, 3}));
  EXPECT_THAT(g.legal(), UnorderedElementsAreArray(drops(9, true)));
}

TEST(Kaboom, X1_ZeroBombsIsPlainConnectN) {
  Game g = start(kKaboom, opts(kKaboom, {{"bombs", 0}}));
  EXPECT_EQ(g.bombs_left(), (std::array<int, 2>{0, 0}));
  EXPECT_THAT(g.legal(), UnorderedElementsAreArray(drops(7, false)));
}

TEST(Kaboom, X2_DroppedPieceFallsToLowestEmptySquare) {
  Game g = start(kKaboom);
  Applied r = play(g, A::drop(3, Kind::Normal));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.pieces(), std::vector<Piece>{man(kX, 3, 0)});
  EXPECT_EQ(r.next.turn(), kO);
  Game g2 = play(r.next, A::drop(3, Kind::Normal)).next;
  EXPECT_EQ(g2.pieces(), (std::vector<Piece>{man(kX, 3, 0), man(kO, 3, 1)}));
  EXPECT_EQ(g2.turn(), kX);
}

TEST(Kaboom, X2_FullColumnIsNotOffered) {
  Game g = kaboom({"x......", "o......", "x......", "o......", "x......", "o......"}, kX);
  auto expected = drops(7, false);
  expected.erase(expected.begin());  // column 0
  EXPECT_THAT(g.legal(), UnorderedElementsAreArray(expected));
  EXPECT_FALSE(g.apply(A::drop(0, Kind::Normal)).has_value());
}

TEST(Kaboom, X2_ColumnOutsideTheBoardRefused) {
  Game g = start(kKaboom);
  EXPECT_FALSE(g.apply(A::drop(-1, Kind::Normal)).has_value());
  EXPECT_FALSE(g.apply(A::drop(7, Kind::Normal)).has_value());
  EXPECT_FALSE(g.apply(A::drop(0, Kind::Shield)).has_value());
}

TEST(Kaboom, X2_BombDropUsesOneOfTheSidesBombs) {
  Game g = start(kKaboom);
  Applied r = play(g, A::drop(2, Kind::Bomb));
  EXPECT_EQ(r.next.pieces(), std::vector<Piece>{bomb(kX, 2, 0)});
  EXPECT_EQ(r.next.bombs_left(), (std::array<int, 2>{0, 1}));
  Game g2 = play(r.next, A::drop(2, Kind::Normal)).next;  // o
  EXPECT_EQ(g2.turn(), kX);
  // x has no bomb left to drop, but may detonate the one on the board.
  auto expected = drops(7, false);
  expected.push_back(A::detonate({2, 0}));
  EXPECT_THAT(g2.legal(), UnorderedElementsAreArray(expected));
  EXPECT_FALSE(g2.apply(A::drop(0, Kind::Bomb)).has_value());
}

TEST(Kaboom, X2_DetonateOffersOnlyOwnBombsOnTheBoard) {
  Game g = kaboom({"XOx...."}, kX);
  auto expected = drops(7, false);
  expected.push_back(A::detonate({0, 0}));
  EXPECT_THAT(g.legal(), UnorderedElementsAreArray(expected));
  Game go = kaboom({"XOx...."}, kO, {1, 1});
  auto expected_o = drops(7, true);
  expected_o.push_back(A::detonate({1, 0}));
  EXPECT_THAT(go.legal(), UnorderedElementsAreArray(expected_o));
}

TEST(Kaboom, X3_DetonationRemovesBombAndOrthogonalNeighbours) {
  Game g = kaboom({"..x....",  //
                   ".xo....",  //
                   ".oXo..."},
                  kX);
  Applied r = play(g, A::detonate({2, 0}));
  EXPECT_TRUE(r.effects.turn_over);
  EXPECT_EQ(r.next.turn(), kO);
  // [1,1] was diagonal to the bomb: it stays, then falls; [2,2] falls to the bottom of column 2.
  EXPECT_EQ(r.next.pieces(), (std::vector<Piece>{man(kX, 1, 0), man(kX, 2, 0)}));
}

TEST(Kaboom, X3_DetonationEffectsListRemovedSquares) {
  Game g = kaboom({"..x....", ".xo....", ".oXo..."}, kX);
  Applied r = play(g, A::detonate({2, 0}));
  EXPECT_THAT(r.effects.exploded,
              UnorderedElementsAre(Square{2, 0}, Square{1, 0}, Square{3, 0}, Square{2, 1}));
  EXPECT_THAT(r.effects.captured, IsEmpty());
  EXPECT_THAT(r.effects.promoted, IsEmpty());
}

TEST(Kaboom, X3_OnlyOwnBombsMayBeDetonated) {
  Game g = kaboom({"XO....."}, kX);
  EXPECT_FALSE(g.is_legal(A::detonate({1, 0})));
  EXPECT_FALSE(g.apply(A::detonate({1, 0})).has_value());
  EXPECT_FALSE(g.apply(A::detonate({3, 0})).has_value()) << "nothing there";
  Game n = kaboom({"xO....."}, kX);
  EXPECT_FALSE(n.apply(A::detonate({0, 0})).has_value()) << "a normal piece does not detonate";
}

TEST(Kaboom, X3_ChainReactionAcrossBothSides) {
  // x bomb [0,0] takes o bomb [1,0], which takes x bomb [2,0] and x [1,1]; [2,0] takes o [3,0].
  // Worked out on the board as it stands, then one fall: column 1 keeps o [1,2] and x [1,3] (now
  // on rows 0 and 1), x [3,1] falls to [3,0]; o [4,0] was next to no bomb and stays.
  Game g = kaboom({".x.....",  //
                   ".o.....",  //
                   ".x.x...",  //
                   "XOXoo.."},
                  kX);
  auto expected_legal = drops(7, false);
  expected_legal.push_back(A::detonate({0, 0}));
  expected_legal.push_back(A::detonate({2, 0}));
  EXPECT_THAT(g.legal(), UnorderedElementsAreArray(expected_legal));
  Applied r = play(g, A::detonate({0, 0}));
  EXPECT_EQ(r.next.pieces(),
            sorted_pieces({man(kO, 1, 0), man(kX, 1, 1), man(kX, 3, 0), man(kO, 4, 0)}));
  EXPECT_THAT(r.effects.exploded, UnorderedElementsAre(Square{0, 0}, Square{1, 0}, Square{2, 0},
                                                       Square{3, 0}, Square{1, 1}));
  EXPECT_FALSE(r.next.over());
}

TEST(Kaboom, X3_ChainAlsoReachesTheOpponentsBombAboveAndBelow) {
  // x bomb [0,1] takes o bomb [0,2] above it, which takes [0,3] and [1,2].
  Game g = kaboom({"o......",  //
                   "oo.....",  //
                   "Ox.....",  //
                   "Xo.....",  //
                   "xo....."},
                  kX);
  Applied r = play(g, A::detonate({0, 1}));
  // Removed: [0,1] bomb, [0,0] x, [1,1] o, [0,2] O (chain), [0,3] o, [1,2] x. Left: o [0,4],
  // o [1,0], o [1,3] -> column 0: o at row 0; column 1: o [1,0], o [1,3] -> [1,1].
  EXPECT_EQ(r.next.pieces(), sorted_pieces({man(kO, 0, 0), man(kO, 1, 0), man(kO, 1, 1)}));
}

TEST(Kaboom, X3_SuperbombRemovesRowAndColumn) {
  Options o = opts(kKaboom, {{"superbomb", 1}});
  Game g = kaboom({"..o..o.",  //
                   "oxXx.o.",  //
                   "xooxoxo"},
                  kX, {0, 0}, o);
  Applied r = play(g, A::detonate({2, 1}));
  EXPECT_EQ(r.next.pieces(),
            sorted_pieces({man(kX, 0, 0), man(kO, 1, 0), man(kX, 3, 0), man(kO, 4, 0),
                           man(kX, 5, 0), man(kO, 6, 0), man(kO, 5, 1)}));
}

TEST(Kaboom, X3_SuperbombChains) {
  Options o = opts(kKaboom, {{"superbomb", 1}});
  Game g = kaboom({"..o..o.",  //
                   "oxXx.O.",  //
                   "xooxoxo"},
                  kX, {0, 0}, o);
  Applied r = play(g, A::detonate({2, 1}));
  EXPECT_EQ(r.next.pieces(), sorted_pieces({man(kX, 0, 0), man(kO, 1, 0), man(kX, 3, 0),
                                            man(kO, 4, 0), man(kO, 6, 0)}));
}

TEST(Kaboom, X3_WithoutSuperbombOnlyNeighboursGo) {
  Game g = kaboom({"..o..o.",  //
                   "oxXx.o.",  //
                   "xooxoxo"},
                  kX);
  Applied r = play(g, A::detonate({2, 1}));
  // Removed [2,1], [1,1], [3,1], [2,0], [2,2]. Left: row 0 minus [2,0]; o [0,1]; o [5,1],[5,2].
  EXPECT_EQ(r.next.pieces(), sorted_pieces({man(kX, 0, 0), man(kO, 1, 0), man(kX, 3, 0),
                                            man(kO, 4, 0), man(kX, 5, 0), man(kO, 6, 0),
                                            man(kO, 0, 1), man(kO, 5, 1), man(kO, 5, 2)}));
}

TEST(Kaboom, X4_HorizontalLineWins) {
  Game g = kaboom({"ooo....", "xxx...."}, kX);
  Applied r = play(g, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));
  EXPECT_THAT(r.next.legal(), IsEmpty());
}

TEST(Kaboom, X4_VerticalLineWithABombCountsForItsOwner) {
  Game g = kaboom({"X......", "x.o....", "xoo...."}, kX);
  Applied r = play(g, A::drop(0, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));
}

TEST(Kaboom, X4_DiagonalLinesWin) {
  Game up = kaboom({"..xo...", ".xoo...", "xooo..."}, kX);
  Applied r = play(up, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));

  Game down = kaboom({"...ox..", "...oox.", "...ooox"}, kX);
  Applied r2 = play(down, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r2.next.over());
  EXPECT_EQ(*r2.next.result(), win(kX, Reason::Connect));
}

TEST(Kaboom, X4_SecondSideWinsToo) {
  Game g = kaboom({"xxx.x..", "ooo.xx."}, kO);
  Applied r = play(g, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kO, Reason::Connect));
}

TEST(Kaboom, X4_LongerLineWins) {
  Game g = kaboom({"oo.o...", "xx.xx.."}, kX);
  Applied r = play(g, A::drop(2, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));
}

TEST(Kaboom, X4_ThreeIsNotFour) {
  Game g = kaboom({"oo.....", "xx....."}, kX);
  Applied r = play(g, A::drop(2, Kind::Normal));
  EXPECT_FALSE(r.next.over());
}

TEST(Kaboom, X4_ConnectOption) {
  Game g = kaboom({"oo.....", "xx....."}, kX, {0, 0}, opts(kKaboom, {{"connect", 3}}));
  Applied r = play(g, A::drop(2, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));
}

TEST(Kaboom, X4_DetonationCanMakeTheMoversLine) {
  // Detonating [4,0] removes o [3,0]; x [3,1] falls into the gap: x x x x on row 0.
  Game g = kaboom({"...x...", "xxxoX.."}, kX);
  Applied r = play(g, A::detonate({4, 0}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));
  Game m = kaboom({"...x...", "xxxoX.."}, kX, {0, 0}, opts(kKaboom, {{"misere", 1}}));
  Applied rm = play(m, A::detonate({4, 0}));
  ASSERT_TRUE(rm.next.over());
  EXPECT_EQ(*rm.next.result(), win(kO, Reason::Connect));
}

TEST(Kaboom, X4_MisereLineLoses) {
  Game g = kaboom({"ooo....", "xxx...."}, kX, {0, 0}, opts(kKaboom, {{"misere", 1}}));
  Applied r = play(g, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kO, Reason::Connect));
}

// Detonating x's bomb [3,0] takes [2,0] and [3,1]; after the fall row 0 is x x x x and row 1 is
// o o o o: lines for both sides.
const std::vector<std::string_view> kBothLines = {"...o...",  //
                                                  "..ox...",  //
                                                  "ooxo...",  //
                                                  "xxoX..."};

TEST(Kaboom, X4_LinesForBothSidesDraw) {
  Game g = kaboom(kBothLines, kX);
  EXPECT_FALSE(g.over());
  Applied r = play(g, A::detonate({3, 0}));
  EXPECT_EQ(r.next.pieces(),
            sorted_pieces({man(kX, 0, 0), man(kX, 1, 0), man(kX, 2, 0), man(kX, 3, 0),
                           man(kO, 0, 1), man(kO, 1, 1), man(kO, 2, 1), man(kO, 3, 1)}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(r.next.result()->winner, std::nullopt);
  // RULES.md names no reason for this draw; `connect` is the only one that fits.
  EXPECT_EQ(r.next.result()->reason, Reason::Connect);
}

TEST(Kaboom, X4_LinesForBothSidesDrawInMisereToo) {
  Game g = kaboom(kBothLines, kX, {0, 0}, opts(kKaboom, {{"misere", 1}}));
  Applied r = play(g, A::detonate({3, 0}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(r.next.result()->winner, std::nullopt);
}

// As kBothLines but [3,2] is o: after the fall only o has a line.
const std::vector<std::string_view> kOpponentLine = {"...o...",  //
                                                     "..oo...",  //
                                                     "ooxo...",  //
                                                     "xxoX..."};

TEST(Kaboom, X4_DetonationCanGiveTheOpponentALine) {
  Game g = kaboom(kOpponentLine, kX);
  EXPECT_FALSE(g.over());
  Applied r = play(g, A::detonate({3, 0}));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kO, Reason::Connect));
  Game m = kaboom(kOpponentLine, kX, {0, 0}, opts(kKaboom, {{"misere", 1}}));
  Applied rm = play(m, A::detonate({3, 0}));
  ASSERT_TRUE(rm.next.over());
  EXPECT_EQ(*rm.next.result(), win(kX, Reason::Connect));
}

Options small_board() {
  return opts(kKaboom, {{"width", 4}, {"height", 4}, {"connect", 4}});
}

TEST(Kaboom, X5_FullBoardWithoutOwnBombIsADraw) {
  Game g = kaboom({"oox.", "xxoo", "ooxx", "xxoo"}, kX, {0, 0}, small_board());
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::drop(3, Kind::Normal)));
  Applied r = play(g, A::drop(3, Kind::Normal));
  EXPECT_EQ(r.next.pieces().size(), 16u);
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), draw(Reason::BoardFull));
  EXPECT_THAT(r.next.legal(), IsEmpty());
}

TEST(Kaboom, X5_OnlyTheMoversBombsCount) {
  // The board fills with x's bomb on it; o, to move, has none of its own: a draw.
  Game g = kaboom({"oox.", "xxoo", "ooxx", "Xxoo"}, kX, {0, 0}, small_board());
  Applied r = play(g, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), draw(Reason::BoardFull));
}

TEST(Kaboom, X5_FullBoardWithOwnBombMustDetonate) {
  Game g = kaboom({"ooxx", "xxoo", "ooxx", "XxoO"}, kX, {1, 1}, small_board());
  EXPECT_FALSE(g.over());
  EXPECT_THAT(g.legal(), UnorderedElementsAre(A::detonate({0, 0})));
  Game go = kaboom({"ooxx", "xxoo", "ooxx", "XxoO"}, kO, {1, 1}, small_board());
  EXPECT_FALSE(go.over());
  EXPECT_THAT(go.legal(), UnorderedElementsAre(A::detonate({3, 0})));
  Applied r = play(g, A::detonate({0, 0}));
  EXPECT_EQ(r.next.pieces().size(), 13u);
}

TEST(Kaboom, X5_FullBoardReachedByTheLastDrop) {
  // The last drop fills the board and leaves o (to move) with its own bomb: not over.
  Game g = kaboom({"oox.", "xxoo", "ooxx", "xxoO"}, kX, {0, 0}, small_board());
  Applied r = play(g, A::drop(3, Kind::Normal));
  EXPECT_FALSE(r.next.over());
  EXPECT_THAT(r.next.legal(), UnorderedElementsAre(A::detonate({3, 0})));
}

TEST(Kaboom, X4_LineOnTheLastCellWinsRatherThanBoardFull) {
  Game g = kaboom({"xxx.", "xxoo", "ooxx", "xxoo"}, kX, {0, 0}, small_board());
  Applied r = play(g, A::drop(3, Kind::Normal));
  ASSERT_TRUE(r.next.over());
  EXPECT_EQ(*r.next.result(), win(kX, Reason::Connect));
}

TEST(Kaboom, X6_RandomGamesAlwaysEnd) {
  std::mt19937 rng(20240601);
  const std::vector<Options> setups{
      bc::default_options(kKaboom), opts(kKaboom, {{"bombs", 3}}),
      opts(kKaboom, {{"bombs", 3}, {"superbomb", 1}}),
      opts(kKaboom, {{"width", 4}, {"height", 4}, {"bombs", 4}, {"misere", 1}})};
  for (const Options& o : setups) {
    const int cells = o.width * o.height;
    const int bound = cells * (2 * o.bombs + 1) + 2 * o.bombs;  // drops + detonations
    for (int game = 0; game < 150; ++game) {
      Game g = start(kKaboom, o);
      int actions = 0;
      while (!g.over()) {
        ASSERT_LE(actions, bound) << "game did not end";
        auto legal = g.legal();
        ASSERT_FALSE(legal.empty());
        const Action a =
            legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
        const auto before = g.pieces().size();
        g = play(g, a).next;
        const auto after = g.pieces().size();
        if (a.kind == bc::ActionKind::Drop) {
          EXPECT_EQ(after, before + 1);
        } else {
          EXPECT_LT(after, before) << "a detonation removes pieces for good";
        }
        ++actions;
      }
    }
  }
}

}  // namespace
