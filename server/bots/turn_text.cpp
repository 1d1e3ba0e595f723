#include "server/bots/turn_text.hpp"

#include <algorithm>
#include <cctype>

#include "bc/ai_notation.hpp"
#include "server/room/notation.hpp"
#include "server/wire/setup.hpp"

namespace bc::server {

namespace {

std::string pdn(Square s) {
  const auto n = pdn_square(s);
  return n ? std::to_string(*n) : std::string("?");
}

// Lower case, with runs of spaces made one and none at the ends: what two spellings of one turn
// share.
std::string normal(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string turn_text(VariantId v, const Turn& t) {
  std::string out;
  if (v == VariantId::Kaboom) {
    for (const Action& a : t.actions) {
      if (a.kind == ActionKind::Drop) {
        out =
            std::string(a.piece == Kind::Bomb ? "drop bomb " : "drop ") + std::to_string(a.column);
      } else if (a.kind == ActionKind::Detonate) {
        out = "detonate [" + std::to_string(a.at.x) + "," + std::to_string(a.at.y) + "]";
      }
    }
    return out;
  }
  for (const Action& a : t.actions) {
    if (a.kind == ActionKind::Step) {
      out = pdn(a.from) + "-" + pdn(a.to);
    } else if (a.kind == ActionKind::Jump) {
      if (out.empty()) out = pdn(a.from);
      out += "x" + pdn(a.to);
    }
  }
  return out.empty() ? std::string("--") : out;
}

std::vector<std::string> legal_turn_texts(const Game& g) {
  std::vector<std::string> out;
  if (g.over()) return out;
  for (const Turn& t : g.turns()) out.push_back(turn_text(g.variant(), t));
  return out;
}

std::variant<Turn, std::string> read_turn(const Game& g, std::string_view text) {
  if (g.over()) return std::string("the game is over");
  const std::string want = normal(text);
  if (want.empty()) return std::string("no move given");
  const VariantId v = g.variant();
  for (const Turn& t : g.turns()) {
    if (normal(turn_text(v, t)) == want || normal(ai::format_turn(t)) == want) return t;
    if (v != VariantId::Kaboom || t.actions.size() != 1) continue;
    const Action& a = t.actions.front();
    if (a.kind != ActionKind::Drop) continue;
    const std::string column = std::to_string(a.column);
    if (a.piece == Kind::Bomb ? (want == column + " bomb" || want == "bomb " + column)
                              : want == column) {
      return t;
    }
  }
  // The text is echoed only when it is plain printable ASCII: it comes from anyone.
  const bool plain =
      std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  if (!plain || text.size() > 40) return std::string("that is not a legal turn here");
  return "'" + std::string(text) + "' is not a legal turn here";
}

PlayedTurns played_turns(const Room& room) {
  PlayedTurns out;
  Game g = fresh_game(room.setup());
  const VariantId v = g.variant();
  Turn current;
  for (const LoggedAction& logged : room.log()) {
    auto applied = g.apply(logged.action);
    if (!applied) break;  // cannot happen for a room's own log
    current.actions.push_back(logged.action);
    const bool over = applied->effects.turn_over || applied->next.over();
    g = std::move(applied->next);
    if (over) {
      out.turns.push_back(turn_text(v, current));
      current.actions.clear();
    }
  }
  out.mid_turn = !current.actions.empty();
  return out;
}

}  // namespace bc::server
