// A subcommand's options from one table: every entry holds its flag, its environment twin, the
// name of its value, its help, and the setter that checks a value and stores it. Reading never
// depends on an entry's position in the table. Arguments that are not flags (operands, such as
// replay's FILE|ROOM) go to the command's operand setter, if it has one.
#pragma once

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"

namespace bc::app {

template <class Settings>
struct Flag {
  std::string_view name;   // "--port"
  std::string_view env;    // "BOMBCHECKERS_PORT"; empty: a flag only
  std::string_view value;  // "N"; empty for a switch, which takes no value ("--memory" means 1)
  std::string_view help;   // continuation lines start with 27 spaces, to stand under the first
  // Checks one value and stores it in the settings; the reason, for a person, when it is refused.
  std::optional<std::string> (*set)(Settings&, std::string_view value);
  // Repeatable: every flag's value is kept (joined by commas, the form of the environment twin),
  // and the flags together replace the variable's list.
  bool repeatable = false;
};

// Takes one argument that is not a flag (replay's FILE|ROOM) into the settings; the reason, for a
// person, when it is refused. A command without one refuses every such argument.
template <class Settings>
using OperandSetter = std::optional<std::string> (*)(Settings&, std::string_view arg);

// Where a value came from, for error messages: "--port 80" or "BOMBCHECKERS_PORT=80".
struct Given {
  std::string value;
  std::string source;
  bool from_flag = false;
};

enum class FlagsRead { Ok, Help, Bad };

// A whole number in [lo, hi], all of `s` (no sign but '-', no spaces); nullopt otherwise.
inline std::optional<long long> parse_whole(std::string_view s, long long lo, long long hi) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

// An argument that does not start with '-' is an operand, not a flag (a file or a room id).
inline bool is_operand(std::string_view arg) {
  return !arg.empty() && arg.front() != '-';
}

// Reads the environment, then the flags over it, then sets every value given, in table order,
// then hands the operands, in order, to `operand`. On Bad, `error` says what is wrong
// ("--port abc: the port must be ...").
template <class Settings>
FlagsRead read_flags(std::span<const Flag<Settings>> table, Args args, Settings& settings,
                     std::string& error, OperandSetter<Settings> operand = nullptr) {
  std::vector<std::optional<Given>> given(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].env.empty()) continue;
    const std::string env(table[i].env);
    if (const char* e = std::getenv(env.c_str()); e && *e) given[i] = Given{e, env + "=" + e};
  }
  std::vector<std::string_view> operands;
  for (std::size_t a = 0; a < args.size(); ++a) {
    const std::string_view arg = args[a];
    if (arg == "--help" || arg == "-h") return FlagsRead::Help;
    if (is_operand(arg)) {
      if (!operand) {
        error = "unexpected argument '" + std::string(arg) + "'";
        return FlagsRead::Bad;
      }
      operands.push_back(arg);
      continue;
    }
    std::string_view name = arg;
    std::optional<std::string_view> value;
    if (auto eq = arg.find('='); eq != std::string_view::npos && arg.substr(0, 2) == "--") {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    std::size_t i = 0;
    while (i < table.size() && table[i].name != name) ++i;
    if (i == table.size()) {
      error = "unknown option '" + std::string(arg) + "'";
      return FlagsRead::Bad;
    }
    const Flag<Settings>& f = table[i];
    if (f.value.empty()) {
      value = value.value_or("1");
    } else if (!value) {
      if (a + 1 >= args.size()) {
        error = std::string(name) + " needs a value";
        return FlagsRead::Bad;
      }
      value = args[++a];
    }
    auto& g = given[i];
    if (f.repeatable && g && g->from_flag) {
      g->value += "," + std::string(*value);
    } else {
      std::string source(name);
      if (!f.value.empty() && !f.repeatable) source += " " + std::string(*value);
      g = Given{std::string(*value), std::move(source), true};
    }
  }
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (!given[i]) continue;
    if (auto why = table[i].set(settings, given[i]->value)) {
      error = given[i]->source + ": " + *why;
      return FlagsRead::Bad;
    }
  }
  for (const std::string_view arg : operands) {
    if (auto why = operand(settings, arg)) {
      error = "argument '" + std::string(arg) + "': " + *why;
      return FlagsRead::Bad;
    }
  }
  return FlagsRead::Ok;
}

// "selfplay: --games: wants 1..100000\n(see `bombcheckers selfplay --help`)" on stderr; exit
// status 2.
inline int usage_error(std::string_view cmd, const std::string& message) {
  std::fprintf(stderr, "%.*s: %s\n(see `bombcheckers %.*s --help`)\n", static_cast<int>(cmd.size()),
               cmd.data(), message.c_str(), static_cast<int>(cmd.size()), cmd.data());
  return 2;
}

// A command's flags (and operands, if it takes any) read into `settings`: nullopt to go on, else
// the exit status to return (0 after printing `usage` for --help, 2 after saying what is wrong).
template <class Settings>
std::optional<int> read_command_flags(std::string_view cmd, std::span<const Flag<Settings>> table,
                                      Args args, Settings& settings, void (*usage)(std::FILE*),
                                      OperandSetter<Settings> operand = nullptr) {
  std::string error;
  switch (read_flags<Settings>(table, args, settings, error, operand)) {
    case FlagsRead::Help:
      usage(stdout);
      return 0;
    case FlagsRead::Bad:
      return usage_error(cmd, error);
    case FlagsRead::Ok:
      break;
  }
  return std::nullopt;
}

// The help lines of a table: "  --port N   help\n  env BOMBCHECKERS_PORT" (no env line for a
// flag without a twin).
template <class Settings>
void print_flags(std::FILE* out, std::span<const Flag<Settings>> table) {
  for (const auto& f : table) {
    const std::string left =
        std::string(f.name) + (f.value.empty() ? "" : " ") + std::string(f.value);
    std::fprintf(out, "  %-24s %.*s\n", left.c_str(), static_cast<int>(f.help.size()),
                 f.help.data());
    if (!f.env.empty()) {
      std::fprintf(out, "  %-24s   env %.*s%s\n", "", static_cast<int>(f.env.size()), f.env.data(),
                   f.value.empty() ? "=1" : "");
    }
  }
  std::fprintf(out, "  %-24s this help\n", "--help");
}

}  // namespace bc::app
