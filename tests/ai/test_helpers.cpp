#include "test_helpers.hpp"

#include <algorithm>

namespace bc {
void PrintTo(const Turn& t, std::ostream* os) {
  *os << '"' << ai::format_turn(t) << '"';
}
}  // namespace bc

namespace bc::ai::test {

Options kaboom_options(int width, int height, int connect, int bombs) {
  Options o = default_options(VariantId::Kaboom);
  o.width = width;
  o.height = height;
  o.connect = connect;
  o.bombs = bombs;
  return o;
}

Game position(VariantId v, std::string_view text, const Options& o) {
  auto parsed = parse_position(v, o, text);
  if (auto* err = std::get_if<std::string>(&parsed)) {
    ADD_FAILURE() << "position '" << text << "' refused: " << *err;
    return std::get<Game>(Game::create(v, o));
  }
  return std::get<Game>(parsed);
}

Game position(VariantId v, std::string_view text) {
  return position(v, text, default_options(v));
}

std::optional<Game> play(const Game& g, const Turn& t) {
  if (t.actions.empty()) return std::nullopt;
  Game cur = g;
  for (std::size_t i = 0; i < t.actions.size(); ++i) {
    auto applied = cur.apply(t.actions[i]);
    if (!applied) return std::nullopt;
    if (applied->effects.turn_over != (i + 1 == t.actions.size())) return std::nullopt;
    cur = applied->next;
  }
  return cur;
}

bool is_legal_turn(const Game& g, const Turn& t) {
  const auto all = g.turns();
  return std::find(all.begin(), all.end(), t) != all.end();
}

SearchLimits node_limits(int level, std::uint64_t nodes, std::uint64_t seed) {
  SearchLimits l;
  l.level = level;
  l.nodes = nodes;
  l.seed = seed;
  return l;
}

}  // namespace bc::ai::test
