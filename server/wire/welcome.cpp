// The first message of every connection (docs/PROTOCOL.md, `welcome`): the variants with their
// options, the time controls and the limits a client paces itself by.
#include "server/wire/json.hpp"
#include "server/wire/limits.hpp"

namespace bc::server {

std::string welcome_json(const Limits& limits, std::string_view node, std::string_view players) {
  ojson j;
  j["type"] = "welcome";
  j["server"] = ojson{{"name", kServerName}, {"version", kServerVersion}};
  j["protocol"] = kProtocolVersion;
  ojson variants = ojson::array();
  for (auto v : kAllVariants) {
    ojson opts = ojson::array();
    for (const auto& spec : option_specs(v)) {
      ojson o;
      o["name"] = spec.name;
      o["type"] = spec.type == OptionType::Bool ? "bool" : "int";
      if (spec.type == OptionType::Bool) {
        o["min"] = spec.min;
        o["max"] = spec.max;
        o["default"] = spec.def != 0;
      } else {
        o["min"] = spec.min;
        o["max"] = spec.max;
        o["default"] = spec.def;
      }
      o["help"] = spec.help;
      opts.push_back(std::move(o));
    }
    variants.push_back(ojson{{"id", variant_key(v)},
                             {"name", variant_title(v)},
                             {"sides", {side_name(v, Side::First), side_name(v, Side::Second)}},
                             // What GET /api/games/{room}.pdn serves for it (PROTOCOL.md).
                             {"notation", variant_record(v).notation},
                             // What kind of game it is, so that a client draws and plays it by
                             // its family rather than by its id (PROTOCOL.md).
                             {"family", is_checkers(v) ? "checkers" : "connect"},
                             {"options", std::move(opts)}});
  }
  j["variants"] = std::move(variants);
  j["ai"] = ojson{{"min_level", kComputerMinLevel}, {"max_level", kComputerMaxLevel}};
  // Values for watchers (PROTOCOL.md): how many turns behind a live game; 0: none.
  j["analysis"] = ojson{{"watch_lag", limits.watch_lag}};
  // docs/PLAYERS.md: accounts and the quick-pairing pools, when the server has players.
  if (!players.empty()) j["players"] = ojson::parse(players.begin(), players.end());
  // The time controls a client offers (create's `clock`): presets as [base s, increment s].
  j["clocks"] = ojson{{"presets", {{180, 2}, {300, 3}, {600, 5}, {900, 10}}},
                      {"days", {1, 2, 3, 5, 7, 14}},
                      {"max_base", 180 * 60},
                      {"max_increment", 180},
                      {"abort_after_ms", limits.abort_after.count()}};
  j["limits"] = ojson{{"max_message_bytes", limits.max_message_bytes},
                      {"rate_per_second", limits.rate_per_second},
                      {"rate_burst", limits.rate_burst},
                      {"chat_max_chars", limits.chat_max_chars},
                      {"name_max_chars", limits.name_max_chars},
                      {"send_queue_max", limits.send_queue_max},
                      {"send_queue_max_bytes", limits.send_queue_max_bytes},
                      // Per client address (0: none), so a client can pace itself (issue 13).
                      {"address_rate_per_second", limits.address_rate_per_second},
                      {"joins_per_address_per_minute", limits.joins_per_address_per_minute},
                      {"creates_per_address_per_minute", limits.creates_per_address_per_minute},
                      {"analyses_per_address_per_minute", limits.analyses_per_address_per_minute},
                      {"chat_per_second", limits.chat_per_second},
                      {"chat_burst", limits.chat_burst},
                      {"api_rate_per_second", limits.api_rate_per_second}};
  // serve --cluster: the node this connection landed on (which one a proxy chose, for people
  // reading logs and for the tests); one node says nothing, as before.
  if (!node.empty()) j["node"] = node;
  return dump(j);
}

}  // namespace bc::server
