// Names of variants and sides (from their records, bc/variants.hpp), kinds, ranks, action kinds
// and result reasons (PROTOCOL.md).
#include <algorithm>

#include "bc/core.hpp"

namespace bc {
namespace {

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::string_view, N>& names, std::string_view name) {
  const auto* it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<E>(it - names.begin());
}

constexpr std::array<std::string_view, 3> kKindNames{"normal", "shield", "bomb"};
constexpr std::array<std::string_view, 3> kRankNames{"man", "king", "triple_king"};
constexpr std::array<std::string_view, 5> kActionNames{"step", "jump", "end_turn", "drop",
                                                       "detonate"};
constexpr std::array<std::string_view, 12> kReasonNames{
    "no_pieces", "no_moves",   "mutual_destruction", "connect", "resigned", "draw_agreed",
    "draw_rule", "board_full", "turn_limit",         "timeout", "aborted",  "abandoned"};

}  // namespace

std::string_view variant_key(VariantId v) {
  return variant_record(v).key;
}
std::string_view variant_title(VariantId v) {
  return variant_record(v).title;
}
std::optional<VariantId> variant_from_key(std::string_view key) {
  for (const auto& r : kVariants) {
    if (r.key == key) return r.id;
  }
  return std::nullopt;
}

std::string_view side_name(VariantId v, Side s) {
  return variant_record(v).sides[static_cast<std::size_t>(s)];
}
std::optional<Side> side_from_name(VariantId v, std::string_view name) {
  return lookup<Side>(variant_record(v).sides, name);
}

std::string_view kind_name(Kind k) {
  return kKindNames[static_cast<std::size_t>(k)];
}
std::optional<Kind> kind_from_name(std::string_view name) {
  return lookup<Kind>(kKindNames, name);
}
std::string_view rank_name(Rank r) {
  return kRankNames[static_cast<std::size_t>(r)];
}
std::optional<Rank> rank_from_name(std::string_view name) {
  return lookup<Rank>(kRankNames, name);
}
std::string_view action_kind_name(ActionKind k) {
  return kActionNames[static_cast<std::size_t>(k)];
}
std::optional<ActionKind> action_kind_from_name(std::string_view name) {
  return lookup<ActionKind>(kActionNames, name);
}
std::string_view reason_name(Reason r) {
  return kReasonNames[static_cast<std::size_t>(r)];
}
std::optional<Reason> reason_from_name(std::string_view name) {
  return lookup<Reason>(kReasonNames, name);
}

}  // namespace bc
