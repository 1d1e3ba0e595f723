// Options of every variant (their specs are in the variants' records, bc/variants.hpp): RULES.md
// C6 (no-progress draw) and X1 (Kaboom board and rules).
#include <string>

#include "bc/core.hpp"

namespace bc {
namespace {

// The integer field behind an option name (bools are handled by name); works for const and not.
template <typename O>
auto* field(O& o, std::string_view name) {
  if (name == "draw_turns") return &o.draw_turns;
  if (name == "width") return &o.width;
  if (name == "height") return &o.height;
  if (name == "connect") return &o.connect;
  if (name == "bombs") return &o.bombs;
  return static_cast<decltype(&o.width)>(nullptr);
}

const OptionSpec* find_spec(VariantId v, std::string_view name) {
  for (const auto& spec : option_specs(v)) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

}  // namespace

std::span<const OptionSpec> option_specs(VariantId v) {
  return variant_record(v).options;
}

Options default_options(VariantId v) {
  Options o;
  for (const auto& spec : option_specs(v)) set_option(o, v, spec.name, spec.def);
  return o;
}

std::optional<std::string> set_option(Options& o, VariantId v, std::string_view name, int value) {
  const OptionSpec* spec = find_spec(v, name);
  if (spec == nullptr) {
    return "the " + std::string(variant_key(v)) + " variant has no option '" + std::string(name) +
           "'";
  }
  if (value < spec->min || value > spec->max) {
    if (spec->type == OptionType::Bool)
      return "option '" + std::string(name) + "' is true or false";
    return "option '" + std::string(name) + "' must be between " + std::to_string(spec->min) +
           " and " + std::to_string(spec->max);
  }
  if (name == "misere") {
    o.misere = value != 0;
  } else if (name == "superbomb") {
    o.superbomb = value != 0;
  } else {
    *field(o, name) = value;
  }
  return std::nullopt;
}

std::optional<int> get_option(const Options& o, VariantId v, std::string_view name) {
  if (find_spec(v, name) == nullptr) return std::nullopt;
  if (name == "misere") return o.misere ? 1 : 0;
  if (name == "superbomb") return o.superbomb ? 1 : 0;
  return *field(o, name);
}

std::optional<std::string> validate_options(const Options& o, VariantId v) {
  for (const auto& spec : option_specs(v)) {
    const int value = *get_option(o, v, spec.name);
    if (value < spec.min || value > spec.max) {
      return "option '" + std::string(spec.name) + "' must be between " + std::to_string(spec.min) +
             " and " + std::to_string(spec.max);
    }
  }
  if (o.rules < 1 || o.rules > kRulesRevision) {
    return "rules revision " + std::to_string(o.rules) + " is unknown (this server plays 1 to " +
           std::to_string(kRulesRevision) + ")";
  }
  if (v == VariantId::Kaboom && o.connect > std::max(o.width, o.height)) {
    return "connect (" + std::to_string(o.connect) + ") is longer than the board allows";
  }
  return std::nullopt;
}

}  // namespace bc
