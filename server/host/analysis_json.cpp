// The answers to `analyse` (docs/PROTOCOL.md, "Analysis").
#include "bc/ai_notation.hpp"
#include "server/host/analysis.hpp"
#include "server/wire/json.hpp"

namespace bc::server {

namespace {

std::string_view outcome_name(ai::Outcome o) {
  switch (o) {
    case ai::Outcome::Win:
      return "win";
    case ai::Outcome::Loss:
      return "lose";
    case ai::Outcome::Draw:
      return "tie";
  }
  return "tie";
}

void value(Writer& w, const ai::Value& v) {
  w.raw(R"({"kind":)");
  w.str(v.exact ? "solved" : "estimate");
  if (v.outcome) {
    w.raw(R"(,"outcome":)");
    w.str(outcome_name(*v.outcome));
    // A tie whose distance the solver could not afford within the request's limits has none.
    if (v.remoteness >= 0) {
      w.raw(R"(,"remoteness":)");
      w.num(v.remoteness);
    }
  }
  if (!v.exact) {
    w.raw(R"(,"score":)");
    // A proved end's score is the search's win bound: the outcome says it better.
    w.num(v.outcome ? (*v.outcome == ai::Outcome::Win ? 10000 : -10000) : v.score);
    w.raw(R"(,"depth":)");
    w.num(v.depth);
  }
  w.raw("}");
}

void id_field(std::string& out, const RequestId& id) {
  ojson j = ojson::object();
  put_id(j, id);
  if (auto it = j.find("id"); it != j.end()) {
    out += R"(,"id":)";
    out += dump(*it);
  }
}

}  // namespace

std::string analysis_json(const RequestId& id, const Game& game,
                          std::optional<std::int64_t> version, const ai::Analysis& a,
                          std::int64_t ms, bool cached) {
  std::string out = R"({"type":"analysis")";
  id_field(out, id);
  Writer w{out};
  const VariantId v = game.variant();
  w.raw(R"(,"variant":)");
  w.str(variant_key(v));
  w.raw(R"(,"options":)");
  w.raw(dump(options_json(v, game.options())));
  w.raw(R"(,"version":)");
  if (version) {
    w.num(*version);
  } else {
    w.raw("null");
  }
  w.raw(R"(,"turn":)");
  w.str(side_name(v, game.turn()));
  w.raw(R"(,"value":)");
  value(w, a.value);
  w.raw(R"(,"moves":)");
  w.list(a.turns, [&](const ai::TurnValue& t) {
    w.raw(R"({"actions":)");
    w.actions(t.turn.actions);
    // The position after the turn, in the analysis board's text: no client needs the rules to
    // walk a line.
    Game after = game;
    for (const Action& act : t.turn.actions) after = after.apply(act)->next;
    w.raw(R"(,"position":)");
    w.str(ai::format_position(after));
    w.raw(R"(,"value":)");
    value(w, t.value);
    w.raw("}");
  });
  w.raw(R"(,"ms":)");
  w.num(ms);
  w.raw(R"(,"cached":)");
  w.boolean(cached);
  w.raw("}");
  return out;
}

namespace {

std::string history_json(const RequestId& id, int game_number, const GamePositions& positions,
                         std::size_t n, const std::function<const ai::Value*(std::size_t)>& at,
                         std::int64_t ms, const LaggedHistory* lagged) {
  std::string out = R"({"type":"analysis_history")";
  id_field(out, id);
  Writer w{out};
  w.raw(R"(,"game":)");
  w.num(game_number);
  if (lagged != nullptr) {
    w.raw(R"(,"lag":)");
    w.num(lagged->lag);
    w.raw(R"(,"upto":)");
    if (lagged->upto) {
      w.num(*lagged->upto);
    } else {
      w.raw("null");
    }
  }
  w.raw(R"(,"values":[)");
  for (std::size_t i = 0; i < positions.size() && i < n; ++i) {
    if (i > 0) w.raw(",");
    const auto& [version, game] = positions[i];
    w.raw(R"({"version":)");
    w.num(version);
    w.raw(R"(,"turn":)");
    w.str(side_name(game.variant(), game.turn()));
    w.raw(R"(,"value":)");
    if (const ai::Value* v = at(i)) {
      value(w, *v);
    } else {
      w.raw("null");
    }
    w.raw("}");
  }
  w.raw(R"(],"ms":)");
  w.num(ms);
  w.raw("}");
  return out;
}

}  // namespace

std::string analysis_history_json(const RequestId& id, int game_number,
                                  const GamePositions& positions,
                                  const std::vector<ai::Value>& values, std::int64_t ms) {
  return history_json(
      id, game_number, positions, values.size(), [&](std::size_t i) { return &values[i]; }, ms,
      nullptr);
}

std::string analysis_history_json(const RequestId& id, int game_number,
                                  const GamePositions& positions,
                                  const std::vector<std::optional<ai::Value>>& values,
                                  std::int64_t ms, const LaggedHistory& lagged) {
  return history_json(
      id, game_number, positions, values.size(),
      [&](std::size_t i) { return values[i] ? &*values[i] : nullptr; }, ms, &lagged);
}

}  // namespace bc::server
