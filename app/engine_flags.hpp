// The flags `selfplay`, `analyse` and `solve` share: the variant and its options, and the budget.
// Their setters are templates over a command's settings, which hold an EngineFlags as `engine`.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bc/core.hpp"
#include "flags.hpp"

namespace bc::app {

struct EngineFlags {
  VariantId variant = VariantId::Bomb;
  Options options = default_options(VariantId::Bomb);
  std::vector<std::pair<std::string, int>>
      option_settings;  // --opt, applied once the variant is known
  std::optional<std::chrono::milliseconds> time;
  std::optional<std::uint64_t> nodes;

  // The options for the variant: its defaults with every --opt over them; the reason if refused.
  std::optional<std::string> finish() {
    options = default_options(variant);
    for (const auto& [name, value] : option_settings) {
      if (auto err = set_option(options, variant, name, value)) return *err;
    }
    return validate_options(options, variant);
  }
};

// For perft too, whose settings hold a variant but not the rest of EngineFlags.
inline std::optional<std::string> set_variant_id(VariantId& variant, std::string_view v) {
  const auto id = variant_from_key(v);
  if (!id) return "unknown variant (bomb, classic, triple_king, kaboom)";
  variant = *id;
  return std::nullopt;
}

template <class S>
std::optional<std::string> set_variant(S& s, std::string_view v) {
  return set_variant_id(s.engine.variant, v);
}

// Every --opt given, joined by commas: "width=5,connect=4".
template <class S>
std::optional<std::string> set_options(S& s, std::string_view list) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view kv = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    const std::size_t eq = kv.find('=');
    std::optional<long long> value;
    if (eq != std::string_view::npos) {
      const std::string_view val = kv.substr(eq + 1);
      value = val == "true" ? 1 : val == "false" ? 0 : parse_whole(val, -1000000, 1000000);
    }
    if (!value) return "wants name=value, for example --opt width=4";
    s.engine.option_settings.emplace_back(std::string(kv.substr(0, eq)), static_cast<int>(*value));
  }
  return std::nullopt;
}

template <class S>
std::optional<std::string> set_time(S& s, std::string_view v) {
  const auto t = parse_whole(v, 1, 86'400'000);
  if (!t) return "wants a whole number of milliseconds";
  s.engine.time = std::chrono::milliseconds(*t);
  return std::nullopt;
}

template <class S>
std::optional<std::string> set_nodes(S& s, std::string_view v) {
  const auto n = parse_whole(v, 1, 1'000'000'000'000LL);
  if (!n) return "wants a positive whole number";
  s.engine.nodes = static_cast<std::uint64_t>(*n);
  return std::nullopt;
}

// The table entries of the shared flags, for a command's table.
template <class S>
constexpr Flag<S> kVariantFlag{
    "--variant", "", "V", "bomb, classic, triple_king or kaboom (default bomb)", set_variant<S>};
template <class S>
constexpr Flag<S> kOptFlag{
    "--opt",        "",
    "NAME=VALUE",   "a variant option, e.g. --opt width=5 --opt connect=4 (repeatable)",
    set_options<S>, true};
template <class S>
constexpr Flag<S> kTimeFlag{"--time-ms", "", "T", "time per search", set_time<S>};
template <class S>
constexpr Flag<S> kNodesFlag{"--nodes", "", "N", "node budget per search (deterministic)",
                             set_nodes<S>};

}  // namespace bc::app
