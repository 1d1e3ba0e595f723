// Fuzz target: the custom-position validator. Bytes become a variant, options and pieces (any
// coordinates, sides, kinds and ranks); an accepted position must be sound and playable.
#include <cstddef>
#include <cstdint>
#include <variant>

#include "bc/core.hpp"

namespace {

struct Bytes {
  const std::uint8_t* p;
  std::size_t n;
  std::uint8_t next() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
};

void check_sound(const bc::Game& g) {
  const auto pieces = g.pieces();
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto& a = pieces[i];
    if (a.at.x < 0 || a.at.y < 0 || a.at.x >= g.width() || a.at.y >= g.height()) __builtin_trap();
    if (bc::is_checkers(g.variant()) && (a.at.x + a.at.y) % 2 != 0) __builtin_trap();
    for (std::size_t j = i + 1; j < pieces.size(); ++j) {
      if (pieces[j].at == a.at) __builtin_trap();
    }
  }
  if (g.over() != g.legal().empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in{data, size};
  const auto variant = bc::kAllVariants[in.next() % bc::kAllVariants.size()];
  bc::Options options = bc::default_options(variant);
  if (variant == bc::VariantId::Kaboom) {
    options.width = in.next() % 16;
    options.height = in.next() % 16;
    options.connect = in.next() % 16;
    options.superbomb = (in.next() & 1) != 0;
  }
  bc::Position pos;
  pos.turn = (in.next() & 1) != 0 ? bc::Side::Second : bc::Side::First;
  pos.bombs = {static_cast<std::int8_t>(in.next()), static_cast<std::int8_t>(in.next())};
  const int count = in.next() % 40;
  for (int i = 0; i < count; ++i) {
    bc::Piece piece;
    piece.at = {static_cast<std::int8_t>(in.next()) % 20, static_cast<std::int8_t>(in.next()) % 20};
    const std::uint8_t bits = in.next();
    piece.side = (bits & 1) != 0 ? bc::Side::Second : bc::Side::First;
    piece.kind = static_cast<bc::Kind>((bits >> 1) % 3);
    piece.rank = static_cast<bc::Rank>((bits >> 3) % 3);
    pos.pieces.push_back(piece);
  }
  const auto made = bc::Game::from_position(variant, options, pos);
  if (const auto* game = std::get_if<bc::Game>(&made)) {
    check_sound(*game);
    // Play a few turns from it: the first legal action each time.
    bc::Game g = *game;
    for (int ply = 0; ply < 20 && !g.over(); ++ply) {
      const auto legal = g.legal();
      const auto next = g.apply(legal[in.next() % legal.size()]);
      if (!next) __builtin_trap();
      g = next->next;
      check_sound(g);
    }
  } else if (std::get<std::string>(made).empty()) {
    __builtin_trap();  // a refusal must say why
  }
  return 0;
}
