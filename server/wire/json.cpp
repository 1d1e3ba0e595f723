#include "server/wire/json.hpp"

#include <algorithm>
#include <limits>

namespace bc::server {

std::string dump(const ojson& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::int64_t> as_int(const json& j) {
  if (j.is_number_unsigned()) {
    auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (j.is_number_integer()) return j.get<std::int64_t>();
  return std::nullopt;
}

std::optional<int> as_small_int(const json& j) {
  auto v = as_int(j);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

std::optional<Square> as_square(const json& j) {
  if (!j.is_array() || j.size() != 2) return std::nullopt;
  auto x = as_small_int(j[0]);
  auto y = as_small_int(j[1]);
  if (!x || !y) return std::nullopt;
  return Square{*x, *y};
}

std::string clock_json(const TimeControl& tc) {
  ojson j = ojson::object();
  auto seconds = [](std::int64_t ms) {
    return ms % 1000 == 0 ? ojson(ms / 1000) : ojson(static_cast<double>(ms) / 1000.0);
  };
  if (tc.kind == TimeControl::Kind::Correspondence) {
    j["days"] = tc.base_ms / 86'400'000;
  } else {
    j["base"] = seconds(tc.base_ms);
    j["increment"] = seconds(tc.increment_ms);
  }
  return j.dump();
}

ojson options_json(VariantId v, const Options& o) {
  ojson j = ojson::object();
  for (const auto& spec : option_specs(v)) {
    auto value = get_option(o, v, spec.name).value_or(spec.def);
    if (spec.type == OptionType::Bool) {
      j[std::string(spec.name)] = value != 0;
    } else {
      j[std::string(spec.name)] = value;
    }
  }
  return j;
}

ojson result_json(VariantId v, const std::optional<Result>& r) {
  if (!r) return nullptr;
  ojson j;
  j["winner"] = r->winner ? ojson(side_name(v, *r->winner)) : ojson(nullptr);
  j["reason"] = reason_name(r->reason);
  return j;
}

ojson players_json(VariantId v, const std::array<std::optional<PlayerView>, 2>& players) {
  ojson j = ojson::object();
  for (Side s : {Side::First, Side::Second}) {
    const auto& p = players[static_cast<std::size_t>(index(s))];
    if (p) {
      auto& e = j[std::string(side_name(v, s))];
      e = ojson{{"name", p->name}, {"connected", p->connected}};
      if (p->ai) e["ai"] = *p->ai;
      if (!p->account.empty()) e["account"] = p->account;
      if (p->bot) e["bot"] = true;
      if (p->rating) {
        e["rating"] = *p->rating;
        e["provisional"] = p->provisional;
      }
      if (p->rating_diff) e["rating_diff"] = *p->rating_diff;
    } else {
      j[std::string(side_name(v, s))] = nullptr;
    }
  }
  return j;
}

ojson bombs_json(VariantId v, std::array<int, 2> bombs) {
  ojson j;
  j[std::string(side_name(v, Side::First))] = bombs[0];
  j[std::string(side_name(v, Side::Second))] = bombs[1];
  return j;
}

std::string_view piece_tail(VariantId v, const Piece& p) {
  constexpr std::size_t kVariants = 4, kSides = 2, kKinds = 3, kRanks = 3;
  static_assert(static_cast<std::size_t>(VariantId::Kaboom) + 1 == kVariants);
  static_assert(static_cast<std::size_t>(Kind::Bomb) + 1 == kKinds);
  static_assert(static_cast<std::size_t>(Rank::TripleKing) + 1 == kRanks);
  static const std::vector<std::string> tails = [] {
    std::vector<std::string> t;
    for (std::size_t vi = 0; vi < kVariants; ++vi) {
      for (std::size_t s = 0; s < kSides; ++s) {
        for (std::size_t k = 0; k < kKinds; ++k) {
          for (std::size_t r = 0; r < kRanks; ++r) {
            t.push_back(std::string(",\"side\":\"") +
                        std::string(side_name(static_cast<VariantId>(vi), static_cast<Side>(s))) +
                        "\",\"kind\":\"" + std::string(kind_name(static_cast<Kind>(k))) +
                        "\",\"rank\":\"" + std::string(rank_name(static_cast<Rank>(r))) + "\"}");
          }
        }
      }
    }
    return t;
  }();
  const std::size_t at =
      ((static_cast<std::size_t>(v) * kSides + static_cast<std::size_t>(p.side)) * kKinds +
       static_cast<std::size_t>(p.kind)) *
          kRanks +
      static_cast<std::size_t>(p.rank);
  return tails[at];
}

namespace {

// A coordinate or column short forms carry: what the writer prints in 1 to 3 digits.
bool short_number(int n) {
  return n >= 0 && n <= 999;
}
bool short_square(Square q) {
  return short_number(q.x) && short_number(q.y);
}

}  // namespace

void Writer::short_actions(const std::vector<Action>& v) {
  list(v, [this](const Action& a) {
    Line l;
    switch (a.kind) {
      case ActionKind::Step:
      case ActionKind::Jump:
        if (!short_square(a.from) || !short_square(a.to)) return action(a);
        l.put('"');
        l.pair(a.from);
        l.put(a.kind == ActionKind::Step ? '-' : 'x');
        l.pair(a.to);
        l.put('"');
        break;
      case ActionKind::EndTurn:
        l.put("\"end\"");
        break;
      case ActionKind::Drop:
        if (!short_number(a.column) || (a.piece != Kind::Normal && a.piece != Kind::Bomb)) {
          return action(a);
        }
        l.put("\"d");
        l.num(a.column);
        if (a.piece == Kind::Bomb) l.put('b');
        l.put('"');
        break;
      case ActionKind::Detonate:
        if (!short_square(a.at)) return action(a);
        l.put("\"*");
        l.pair(a.at);
        l.put('"');
        break;
    }
    out += l.text();
  });
}

void Writer::options(VariantId v, const Options& o) {
  out += '{';
  bool first = true;
  for (const auto& spec : option_specs(v)) {
    if (!first) out += ',';
    first = false;
    str(spec.name);
    out += ':';
    const int value = get_option(o, v, spec.name).value_or(spec.def);
    if (spec.type == OptionType::Bool) {
      boolean(value != 0);
    } else {
      num(value);
    }
  }
  out += '}';
}

void Writer::result(VariantId v, const std::optional<Result>& r) {
  if (!r) return raw("null");
  raw("{\"winner\":");
  if (r->winner) {
    str(side_name(v, *r->winner));
  } else {
    raw("null");
  }
  raw(",\"reason\":");
  str(reason_name(r->reason));
  out += '}';
}

void Writer::text(std::string_view t) {
  const bool plain = std::all_of(
      t.begin(), t.end(), [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; });
  if (plain) return str(t);
  raw(dump(ojson(t)));
}

void Writer::players(VariantId v, const std::array<std::optional<PlayerView>, 2>& ps) {
  out += '{';
  for (Side s : {Side::First, Side::Second}) {
    if (s == Side::Second) out += ',';
    str(side_name(v, s));
    out += ':';
    const auto& p = ps[static_cast<std::size_t>(index(s))];
    if (!p) {
      raw("null");
      continue;
    }
    raw("{\"name\":");
    text(p->name);
    raw(",\"connected\":");
    boolean(p->connected);
    if (p->ai) {
      raw(",\"ai\":");
      num(*p->ai);
    }
    if (!p->account.empty()) {
      raw(",\"account\":");
      text(p->account);
    }
    if (p->bot) raw(",\"bot\":true");
    if (p->rating) {
      raw(",\"rating\":");
      num(*p->rating);
      raw(",\"provisional\":");
      boolean(p->provisional);
    }
    if (p->rating_diff) {
      raw(",\"rating_diff\":");
      num(*p->rating_diff);
    }
    out += '}';
  }
  out += '}';
}

void Writer::bombs(VariantId v, std::array<int, 2> b) {
  out += '{';
  str(side_name(v, Side::First));
  out += ':';
  num(b[0]);
  out += ',';
  str(side_name(v, Side::Second));
  out += ':';
  num(b[1]);
  out += '}';
}

void put_id(ojson& j, const RequestId& id) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (!std::is_same_v<T, std::monostate>) j["id"] = v;
      },
      id);
}

RequestId read_id(const json& j) {
  auto it = j.find("id");
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_unsigned()) return it->get<std::uint64_t>();
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_number_float()) return it->get<double>();
  return {};
}

std::variant<std::optional<Action>, std::string> read_action(const json& a) {
  if (!a.is_object()) return std::string("`action` must be an object");
  auto k = a.find("kind");
  if (k == a.end() || !k->is_string()) return std::string("`action.kind` must be a string");
  auto kind = action_kind_from_name(k->get<std::string>());
  auto square = [&](const char* key) -> std::optional<Square> {
    auto it = a.find(key);
    if (it == a.end()) return std::nullopt;
    return as_square(*it);
  };
  if (!kind) return std::optional<Action>{};
  switch (*kind) {
    case ActionKind::Step:
    case ActionKind::Jump: {
      auto from = square("from");
      auto to = square("to");
      if (!from || !to) return std::string("`action.from` and `action.to` must be [x, y]");
      return std::optional<Action>(*kind == ActionKind::Step ? Action::step(*from, *to)
                                                             : Action::jump(*from, *to));
    }
    case ActionKind::EndTurn:
      return std::optional<Action>(Action::end_turn());
    case ActionKind::Drop: {
      auto c = a.find("column");
      std::optional<int> column = c == a.end() ? std::nullopt : as_small_int(*c);
      if (!column) return std::string("`action.column` must be an integer");
      Kind piece = Kind::Normal;
      if (auto p = a.find("piece"); p != a.end() && !p->is_null()) {
        if (!p->is_string()) return std::string("`action.piece` must be a string");
        auto pk = kind_from_name(p->get<std::string>());
        if (!pk) return std::optional<Action>{};
        piece = *pk;
      }
      return std::optional<Action>(Action::drop(*column, piece));
    }
    case ActionKind::Detonate: {
      auto at = square("at");
      if (!at) return std::string("`action.at` must be [x, y]");
      return std::optional<Action>(Action::detonate(*at));
    }
  }
  return std::optional<Action>{};
}

std::string join_names(const std::vector<std::string_view>& names, std::string_view last_sep) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? last_sep : std::string_view(", ");
    out += names[i];
  }
  return out;
}

}  // namespace bc::server
