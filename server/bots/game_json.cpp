#include "server/bots/game_json.hpp"

#include <algorithm>

#include "bc/ai_notation.hpp"
#include "server/bots/turn_text.hpp"
#include "server/room/notation.hpp"
#include "server/wire/json.hpp"
#include "server/wire/setup.hpp"

namespace bc::server {

namespace {

using ojson = nlohmann::ordered_json;

std::string_view seat_word(Side s) {
  return s == Side::First ? "first" : "second";
}

ojson side_or_null(const std::optional<Side>& s) {
  return s ? ojson(seat_word(*s)) : ojson(nullptr);
}

ojson result_of(const Game& g) {
  const auto& r = g.result();
  if (!r) return nullptr;
  return ojson{{"winner", side_or_null(r->winner)}, {"reason", reason_name(r->reason)}};
}

ojson player_of(const std::optional<PlayerView>& p) {
  if (!p) return nullptr;
  ojson j{{"name", p->name}, {"bot", p->bot}};
  if (p->ai) j["ai"] = *p->ai;
  j["rating"] = p->rating ? ojson(*p->rating) : ojson(nullptr);
  return j;
}

ojson state_of(const Room& room, const StateView& v, const PlayedTurns& played, Side mine,
               std::int64_t now_ms) {
  const Game& g = room.game();
  ojson j{{"type", "gameState"}, {"version", room.version()}, {"moves", played.turns}};
  j["turn"] = seat_word(g.turn());
  j["position"] = ai::format_position(g);
  if (v.clock) {
    auto left = v.clock->left;
    if (v.clock->running) {
      auto& l = left[static_cast<std::size_t>(index(*v.clock->running))];
      l = std::max<std::int64_t>(0, l - std::max<std::int64_t>(0, now_ms - v.clock->at));
    }
    j["clocks"] = ojson{{"first", left[0]}, {"second", left[1]}};
  } else {
    j["clocks"] = nullptr;
  }
  j["status"] = g.over() ? "over" : "started";
  j["result"] = result_of(g);
  j["draw_offer"] = side_or_null(v.draw_offer);
  j["takeback_offer"] = side_or_null(v.takeback_offer);
  const bool ours =
      !g.over() && !played.mid_turn && g.turn() == mine && room.status() == RoomStatus::Playing;
  j["legal"] = ours ? legal_turn_texts(g) : std::vector<std::string>{};
  return j;
}

}  // namespace

std::optional<ojson> bot_game_state(const Room& room, Side mine, std::int64_t now_ms) {
  const PlayedTurns played = played_turns(room);
  if (played.mid_turn && !room.game().over()) return std::nullopt;
  const StateSnapshot snap = room.snapshot();
  return state_of(room, snap.view(), played, mine, now_ms);
}

ojson bot_game_full(const Room& room, Side mine, std::int64_t now_ms) {
  const GameSetup& setup = room.setup();
  const VariantId v = setup.variant;
  const StateSnapshot snap = room.snapshot();
  const StateView view = snap.view();
  ojson j{{"type", "gameFull"},
          {"id", room.id()},
          {"variant", variant_key(v)},
          {"options", options_json(v, setup.options)},
          {"rated", setup.rated}};
  if (setup.clock) {
    j["clock"] =
        ojson{{"base_ms", setup.clock->base_ms}, {"increment_ms", setup.clock->increment_ms}};
  } else {
    j["clock"] = nullptr;
  }
  j["perf"] = perf_of(setup);
  j["side"] = seat_word(mine);
  j["sides"] = ojson{{"first", side_name(v, Side::First)}, {"second", side_name(v, Side::Second)}};
  j["first"] = player_of(view.players[0]);
  j["second"] = player_of(view.players[1]);
  const Game start = fresh_game(setup);
  if (v == VariantId::Kaboom) {
    j["initial"] = setup.position ? ai::format_position(start) : std::string("empty");
  } else {
    j["initial"] = pdn_fen(start);
  }
  j["state"] = state_of(room, view, played_turns(room), mine, now_ms);
  return j;
}

ojson bot_game_summary(const Room& room, Side mine) {
  const StateSnapshot snap = room.snapshot();
  const StateView view = snap.view();
  return ojson{{"id", room.id()},
               {"url", "/r/" + room.id()},
               {"variant", variant_key(room.setup().variant)},
               {"rated", room.setup().rated},
               {"side", seat_word(mine)},
               {"opponent", player_of(view.players[static_cast<std::size_t>(index(other(mine)))])},
               {"result", result_of(room.game())}};
}

std::optional<ojson> bot_opponent_gone(const Room& room, Side mine, std::int64_t now_ms) {
  const StateSnapshot snap = room.snapshot();
  const StateView view = snap.view();
  if (!view.away || view.away->side == mine) return std::nullopt;
  return ojson{
      {"type", "opponentGone"},
      {"gone", true},
      {"claim_in_seconds", std::max<std::int64_t>(0, (view.away->claim_at - now_ms + 999) / 1000)}};
}

}  // namespace bc::server
