// Every variant as one record: its names, sides, family, options and rules table. The names, the
// option specs and the checkers engine's rules (bc/rules.hpp) are all read from here, so a new
// variant is one more record (README.md, "Adding a variant").
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "bc/core.hpp"

namespace bc {

// The checkers variants' rules as data, each flag naming the RULES.md clause it implements
// (docs/RULES.md lists the tests of each). The checkers engine reads these flags, never the
// variant id; the computer opponent reads them too.
struct CheckersRules {
  VariantId variant = VariantId::Classic;
  int revision = kRulesRevision;       // Options::rules: the revision a game is played under
  bool piece_kinds = false;            // B2, B7: shields, and bombs that explode when they jump
  bool capture_compulsory = true;      // K2, T2 (B4: optional in bomb)
  bool continuation_optional = false;  // B5: a capture sequence may stop (end_turn)
  bool largest_capture = false;        // T2: only the sequences removing the most pieces
  bool flying_kings = false;           // T3: kings capture along the whole diagonal
  bool triple_kings = false;           // T4, T5: a king on its own back row is crowned again
  bool crowning_ends_turn = false;     // K4: a man crowned by a jump stops there
  int turn_limit = 0;                  // C7 (revision 3 on): turns after which the game is drawn
  // Revision 1 only (docs/RULES.md, Revisions): a bomb stepping onto the far row exploded (B8),
  // and a triple king could land past its own pieces after a capture (T5b).
  bool far_row_step_explodes = false;
  bool lands_past_own_after_capture = false;
};

// Which engine plays a variant: checkers on the 8x8 board, or Kaboom's Connect-N with bombs.
enum class Family : std::uint8_t { Checkers, Connect };

struct VariantRecord {
  VariantId id;
  std::string_view key;                   // PROTOCOL.md: "bomb", ...
  std::string_view title;                 // for people: "Bomb Checkers", ...
  std::array<std::string_view, 2> sides;  // First (moves first, starts at the bottom), Second
  Family family;
  std::string_view notation;  // how its games are written down: "pdn" or "text"
  std::span<const OptionSpec> options;
  CheckersRules rules;  // checkers: under kRulesRevision (checkers_rules gives the others)
};

inline constexpr OptionSpec kCheckersOptions[] = {
    {"draw_turns", OptionType::Int, 0, 1000, 80,
     "consecutive turns without a capture or a man's move before the game is drawn (0: never)"},
};

// Kaboom boards are at most 12x12 (KaboomState::kMaxCells).
inline constexpr OptionSpec kKaboomOptions[] = {
    {"width", OptionType::Int, 3, 12, 7, "columns"},
    {"height", OptionType::Int, 3, 12, 6, "rows"},
    {"connect", OptionType::Int, 3, 12, 4, "pieces in a row that win"},
    {"bombs", OptionType::Int, 0, 10, 1, "bombs each player may drop"},
    {"misere", OptionType::Bool, 0, 1, 0, "connecting N loses instead of winning"},
    {"superbomb", OptionType::Bool, 0, 1, 0, "a detonation removes its whole row and column"},
};

// In VariantId's order.
inline constexpr std::array<VariantRecord, 4> kVariants{{
    {.id = VariantId::Bomb,
     .key = "bomb",
     .title = "Bomb Checkers",
     .sides = {"fire", "water"},
     .family = Family::Checkers,
     .notation = "pdn",
     .options = kCheckersOptions,
     // B4: captures optional; B5: a capture sequence may stop.
     .rules = {.variant = VariantId::Bomb,
               .piece_kinds = true,
               .capture_compulsory = false,
               .continuation_optional = true}},
    {.id = VariantId::Classic,
     .key = "classic",
     .title = "Classic Checkers",
     .sides = {"black", "white"},
     .family = Family::Checkers,
     .notation = "pdn",
     .options = kCheckersOptions,
     .rules = {.variant = VariantId::Classic, .crowning_ends_turn = true}},  // K4
    {.id = VariantId::TripleKing,
     .key = "triple_king",
     .title = "Triple-King Checkers",
     .sides = {"black", "white"},
     .family = Family::Checkers,
     .notation = "pdn",
     .options = kCheckersOptions,
     // T2: the largest capture; T3: flying kings; T4, T5: triple kings.
     .rules = {.variant = VariantId::TripleKing,
               .largest_capture = true,
               .flying_kings = true,
               .triple_kings = true}},
    {.id = VariantId::Kaboom,
     .key = "kaboom",
     .title = "Kaboom",
     .sides = {"x", "o"},
     .family = Family::Connect,
     .notation = "text",
     .options = kKaboomOptions,
     .rules = {.variant = VariantId::Kaboom}},  // not read: Kaboom has an engine of its own
}};

constexpr const VariantRecord& variant_record(VariantId v) {
  return kVariants[static_cast<std::size_t>(v)];
}

constexpr bool is_checkers(VariantId v) {
  return variant_record(v).family == Family::Checkers;
}

namespace detail {
constexpr bool records_in_order() {
  for (std::size_t i = 0; i < kAllVariants.size(); ++i) {
    if (kVariants[i].id != kAllVariants[i] || kVariants[i].rules.variant != kAllVariants[i]) {
      return false;
    }
  }
  return kVariants.size() == kAllVariants.size();
}
static_assert(records_in_order(), "one record per variant, in VariantId's order");
}  // namespace detail

}  // namespace bc
