// Fuzz target: the rules core under random action sequences. Each byte either picks a legal
// action or forges one; the invariants of every variant must hold after each step.
#include <cstddef>
#include <cstdint>
#include <variant>

#include "bc/core.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_state(const bc::Game& g, std::size_t pieces_before) {
  const auto pieces = g.pieces();
  check(pieces.size() <= pieces_before || g.variant() == bc::VariantId::Kaboom);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto& p = pieces[i];
    check(p.at.x >= 0 && p.at.y >= 0 && p.at.x < g.width() && p.at.y < g.height());
    if (bc::is_checkers(g.variant())) {
      check((p.at.x + p.at.y) % 2 == 0);
      // C4, B8: no man of any kind rests on its far row (a bomb there was crowned by a step; one
      // that jumped there has exploded).
      const int far_row = p.side == bc::Side::First ? 7 : 0;
      check(!(p.rank == bc::Rank::Man && p.at.y == far_row));
    }
    for (std::size_t j = i + 1; j < pieces.size(); ++j) check(!(pieces[j].at == p.at));
  }
  check(g.over() == g.legal().empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto variant = bc::kAllVariants[data[0] % bc::kAllVariants.size()];
  bc::Options options = bc::default_options(variant);
  if (variant == bc::VariantId::Kaboom && size > 1) {
    options.width = 3 + data[1] % 5;
    options.height = 3 + (data[1] >> 4) % 5;
    options.connect = 3;
    options.bombs = 3;
    options.superbomb = (data[1] & 8) != 0;
    options.misere = (data[1] & 0x80) != 0;
  }
  auto made = bc::Game::create(variant, options);
  check(std::holds_alternative<bc::Game>(made));
  bc::Game g = std::get<bc::Game>(made);
  for (std::size_t i = 2; i < size && !g.over(); ++i) {
    const std::uint8_t b = data[i];
    const auto legal = g.legal();
    const bc::Game before = g;
    const std::size_t pieces_before = g.pieces().size();
    if ((b & 0xC0) == 0xC0) {  // a forged action: refused unless it happens to be legal
      const int v = b & 0x3F;
      const bc::Action forged = bc::Action::jump({v % 8, v / 8}, {(v + 2) % 8, (v / 8 + 2) % 8});
      const auto applied = g.apply(forged);
      check(applied.has_value() == g.is_legal(forged));
      check(g == before);
      if (applied) g = applied->next;
    } else {
      const auto applied = g.apply(legal[b % legal.size()]);
      check(applied.has_value());
      check(g == before);  // applying never changes its input
      g = applied->next;
    }
    check_state(g, pieces_before);
  }
  return 0;
}
