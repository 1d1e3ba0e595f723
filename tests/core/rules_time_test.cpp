// RULES.md section S: endings the server decides (time forfeit, abort, abandonment), as far as
// the core plays them: the results, their names, and S2's "cannot possibly win".
#include "test_helpers.hpp"

namespace {

using namespace bct;

constexpr VariantId kKaboom = VariantId::Kaboom;
constexpr std::array<VariantId, 3> kCheckers{VariantId::Bomb, VariantId::Classic,
                                             VariantId::TripleKing};

std::string vname(VariantId v) {
  return std::string(bc::variant_key(v));
}

Game kaboom(const std::vector<std::string_view>& rows, Side turn, std::array<int, 2> bombs,
            const Options& o) {
  return position(kKaboom, o, kaboom_board(rows), turn, bombs);
}

Options small(std::initializer_list<std::pair<std::string_view, int>> more = {}) {
  Options o = opts(kKaboom, {{"width", 4}, {"height", 4}, {"connect", 4}, {"bombs", 0}});
  for (const auto& [name, value] : more)
    EXPECT_EQ(bc::set_option(o, kKaboom, name, value), std::nullopt);
  return o;
}

TEST(Time, S1_ServerLevelResultsEndTheGameAndHaveNames) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(vname(v));
    for (Result r :
         {win(Side::First, Reason::Timeout), draw(Reason::Timeout), draw(Reason::Aborted),
          win(Side::Second, Reason::Abandoned), draw(Reason::Abandoned)}) {
      Game g = start(v).ended(r);
      ASSERT_TRUE(g.over());
      EXPECT_EQ(*g.result(), r);
      EXPECT_THAT(g.legal(), IsEmpty());
      EXPECT_EQ(bc::reason_from_name(bc::reason_name(r.reason)), r.reason);
    }
  }
  EXPECT_EQ(bc::reason_name(Reason::Timeout), "timeout");
  EXPECT_EQ(bc::reason_name(Reason::Aborted), "aborted");
  EXPECT_EQ(bc::reason_name(Reason::Abandoned), "abandoned");
}

TEST(Time, S2_InTheCheckersVariantsAFlagAlwaysLoses) {
  for (VariantId v : kCheckers) {
    SCOPED_TRACE(vname(v));
    EXPECT_TRUE(start(v).can_ever_win(Side::First));
    EXPECT_TRUE(start(v).can_ever_win(Side::Second));
    // A lone man against a full army still wins if the army is packed where it cannot move.
    Game lone = position(v, bc::default_options(v),
                         {man(Side::First, 0, 0), king(Side::Second, 7, 7),
                          king(Side::Second, 5, 7), man(Side::Second, 6, 6)},
                         Side::Second);
    EXPECT_TRUE(lone.can_ever_win(Side::First));
  }
}

TEST(Time, S2_KaboomWithEveryLineBlockedAndNoBombsCannotBeWon) {
  // Every window of 4 holds an o, so x can never make a line; o still has open windows.
  const std::vector<std::string_view> rows = {"...o", "...o", "xxox", "ooxx"};
  Game g = kaboom(rows, kX, {0, 0}, small());
  ASSERT_FALSE(g.over());
  EXPECT_FALSE(g.can_ever_win(kX));
  EXPECT_TRUE(g.can_ever_win(kO));
}

TEST(Time, S2_KaboomABombInHandOrOnTheBoardKeepsEveryWinPossible) {
  const std::vector<std::string_view> rows = {"...o", "...o", "xxox", "ooxx"};
  EXPECT_TRUE(kaboom(rows, kX, {0, 1}, small({{"bombs", 1}})).can_ever_win(kX));
  EXPECT_TRUE(kaboom(rows, kX, {1, 0}, small({{"bombs", 1}})).can_ever_win(kX));
  const std::vector<std::string_view> bomb_on_board = {"...o", "...O", "xxox", "ooxx"};
  EXPECT_TRUE(kaboom(bomb_on_board, kX, {0, 0}, small({{"bombs", 1}})).can_ever_win(kX));
}

TEST(Time, S2_KaboomMisereMirrorsWhoseLineCounts) {
  // Misère: x wins only when o makes a line. Every window holds an x, so o never will.
  const std::vector<std::string_view> rows = {"...x", "...x", "ooxo", "xxoo"};
  Game g = kaboom(rows, kX, {0, 0}, small({{"misere", 1}}));
  ASSERT_FALSE(g.over());
  EXPECT_FALSE(g.can_ever_win(kX));
  EXPECT_TRUE(g.can_ever_win(kO));
  // The same board in normal play: x's windows are open, so x can still win.
  EXPECT_TRUE(kaboom(rows, kX, {0, 0}, small()).can_ever_win(kX));
}

}  // namespace
