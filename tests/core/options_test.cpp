// Options per variant (C6 draw_turns, X1 kaboom options): specs, set/get, validation, create.
#include <set>

#include "test_helpers.hpp"

namespace {

using namespace bct;

TEST(Options, CheckersHaveDrawTurns) {
  for (VariantId v : {VariantId::Bomb, VariantId::Classic, VariantId::TripleKing}) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    auto specs = bc::option_specs(v);
    ASSERT_EQ(specs.size(), 1u);
    EXPECT_EQ(specs[0].name, "draw_turns");
    EXPECT_EQ(specs[0].type, bc::OptionType::Int);
    EXPECT_EQ(specs[0].def, 80);
    EXPECT_LE(specs[0].min, 0) << "C6: 0 turns the rule off";
    EXPECT_GE(specs[0].max, 80);
    EXPECT_EQ(bc::default_options(v).draw_turns, 80);
    EXPECT_EQ(bc::get_option(bc::default_options(v), v, "draw_turns"), 80);
  }
}

TEST(Options, KaboomSpecsMatchDefaults) {
  const VariantId v = VariantId::Kaboom;
  Options d = bc::default_options(v);
  for (const auto& s : bc::option_specs(v)) {
    EXPECT_LE(s.min, s.def) << s.name;
    EXPECT_LE(s.def, s.max) << s.name;
    EXPECT_EQ(bc::get_option(d, v, s.name), s.def) << s.name;
    EXPECT_FALSE(s.help.empty()) << s.name;
    if (s.name == "misere" || s.name == "superbomb") {
      EXPECT_EQ(s.type, bc::OptionType::Bool);
      EXPECT_EQ(s.min, 0);
      EXPECT_EQ(s.max, 1);
    } else {
      EXPECT_EQ(s.type, bc::OptionType::Int);
    }
  }
  auto bombs = std::find_if(bc::option_specs(v).begin(), bc::option_specs(v).end(),
                            [](const bc::OptionSpec& s) { return s.name == "bombs"; });
  ASSERT_NE(bombs, bc::option_specs(v).end());
  EXPECT_EQ(bombs->min, 0) << "X1: 0 bombs makes it plain Connect-N";
}

TEST(Options, UnknownNamesRefused) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    Options o = bc::default_options(v);
    const Options before = o;
    auto err = bc::set_option(o, v, "no_such_option", 1);
    ASSERT_TRUE(err.has_value());
    EXPECT_FALSE(err->empty());
    EXPECT_EQ(o, before);
    EXPECT_EQ(bc::get_option(o, v, "no_such_option"), std::nullopt);
  }
  Options o = bc::default_options(VariantId::Classic);
  EXPECT_TRUE(bc::set_option(o, VariantId::Classic, "width", 8).has_value())
      << "width is a kaboom option";
  EXPECT_EQ(bc::get_option(o, VariantId::Classic, "width"), std::nullopt);
  Options k = bc::default_options(VariantId::Kaboom);
  EXPECT_TRUE(bc::set_option(k, VariantId::Kaboom, "draw_turns", 10).has_value())
      << "draw_turns is a checkers option";
}

TEST(Options, RangesEnforcedForEverySpec) {
  for (VariantId v : bc::kAllVariants) {
    for (const auto& s : bc::option_specs(v)) {
      SCOPED_TRACE(std::string(bc::variant_key(v)) + "." + std::string(s.name));
      Options o = bc::default_options(v);
      const Options before = o;
      auto low = bc::set_option(o, v, s.name, s.min - 1);
      ASSERT_TRUE(low.has_value());
      EXPECT_FALSE(low->empty());
      auto high = bc::set_option(o, v, s.name, s.max + 1);
      ASSERT_TRUE(high.has_value());
      EXPECT_FALSE(high->empty());
      EXPECT_EQ(o, before) << "a refused value changes nothing";
      EXPECT_EQ(bc::set_option(o, v, s.name, s.min), std::nullopt);
      EXPECT_EQ(bc::get_option(o, v, s.name), s.min);
      EXPECT_EQ(bc::set_option(o, v, s.name, s.max), std::nullopt);
      EXPECT_EQ(bc::get_option(o, v, s.name), s.max);
    }
  }
}

TEST(Options, ValidateOptions) {
  for (VariantId v : bc::kAllVariants) {
    EXPECT_EQ(bc::validate_options(bc::default_options(v), v), std::nullopt);
  }
  Options c = bc::default_options(VariantId::Classic);
  c.draw_turns = -1;
  auto err = bc::validate_options(c, VariantId::Classic);
  ASSERT_TRUE(err.has_value());
  EXPECT_FALSE(err->empty());

  Options k = bc::default_options(VariantId::Kaboom);
  k.width = 1000;
  EXPECT_TRUE(bc::validate_options(k, VariantId::Kaboom).has_value());
  k = bc::default_options(VariantId::Kaboom);
  k.bombs = -1;
  EXPECT_TRUE(bc::validate_options(k, VariantId::Kaboom).has_value());
  k = bc::default_options(VariantId::Kaboom);
  k.height = 0;
  EXPECT_TRUE(bc::validate_options(k, VariantId::Kaboom).has_value());
}

// RULES.md does not say it, but a line longer than both sides of the board can never be made; the
// header promises cross-field checks and this is the obvious one.
TEST(Options, ConnectLongerThanTheBoardRefused) {
  Options k = opts(VariantId::Kaboom, {{"width", 4}, {"height", 4}});
  k.connect = 5;
  EXPECT_TRUE(bc::validate_options(k, VariantId::Kaboom).has_value());
  k.connect = 4;
  EXPECT_EQ(bc::validate_options(k, VariantId::Kaboom), std::nullopt);
}

TEST(Options, CreateRefusesInvalidOptions) {
  Options k = bc::default_options(VariantId::Kaboom);
  k.width = 2;
  auto r = Game::create(VariantId::Kaboom, k);
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_FALSE(std::get<std::string>(r).empty());

  Options c = bc::default_options(VariantId::Classic);
  c.draw_turns = -5;
  auto rc = Game::create(VariantId::Classic, c);
  ASSERT_TRUE(std::holds_alternative<std::string>(rc));
  EXPECT_FALSE(std::get<std::string>(rc).empty());
}

TEST(Options, LargestKaboomBoardWorks) {
  Options o = bc::default_options(VariantId::Kaboom);
  for (const auto& s : bc::option_specs(VariantId::Kaboom)) {
    if (s.name == "width" || s.name == "height") {
      ASSERT_EQ(bc::set_option(o, VariantId::Kaboom, s.name, s.max), std::nullopt);
    }
  }
  Game g = start(VariantId::Kaboom, o);
  EXPECT_EQ(g.width(), o.width);
  EXPECT_EQ(g.height(), o.height);
  EXPECT_LE(o.width * o.height, bc::KaboomState::kMaxCells);
  // Fill the rightmost column to the top.
  for (int i = 0; i < o.height; ++i) g = play(g, A::drop(o.width - 1, Kind::Normal)).next;
  EXPECT_TRUE(g.piece_at({o.width - 1, o.height - 1}).has_value());
  EXPECT_FALSE(g.is_legal(A::drop(o.width - 1, Kind::Normal)));
}

}  // namespace

// The rules revision is no player option: set_option does not know it, and only the revisions
// this core plays are accepted.
TEST(Options, RulesRevisionIsNotAPlayerOption) {
  for (VariantId v : bc::kAllVariants) {
    Options o = bc::default_options(v);
    EXPECT_EQ(o.rules, bc::kRulesRevision);
    EXPECT_TRUE(bc::set_option(o, v, "rules", 1).has_value()) << "set_option must refuse 'rules'";
    for (const auto& spec : bc::option_specs(v)) EXPECT_NE(spec.name, "rules");
    o.rules = 0;
    EXPECT_TRUE(bc::validate_options(o, v).has_value());
    o.rules = bc::kRulesRevision + 1;
    EXPECT_TRUE(bc::validate_options(o, v).has_value());
    o.rules = 1;
    EXPECT_FALSE(bc::validate_options(o, v).has_value());
  }
}
