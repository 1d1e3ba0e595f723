// `bombcheckers solve`: the exact value of a small Kaboom board's start and of every first turn,
// by the solver over one memo (bc/ai_analysis.hpp).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>

#include "bc/ai.hpp"
#include "bc/ai_analysis.hpp"
#include "bc/ai_notation.hpp"
#include "commands.hpp"
#include "engine_flags.hpp"

namespace bc::app {
namespace {

using Setting = std::optional<std::string>;

struct Settings {
  Settings() { engine.variant = VariantId::Kaboom; }
  EngineFlags engine;
  std::uint64_t max_positions = 2'000'000;
};

// A Kaboom option by its core name; the core checks its range once the variant is known.
Setting set_option_value(Settings& s, std::string_view name, std::string_view v) {
  const auto n = parse_whole(v, 0, 1000);
  if (!n) return "wants a whole number";
  s.engine.option_settings.emplace_back(std::string(name), static_cast<int>(*n));
  return std::nullopt;
}

Setting set_max_positions(Settings& s, std::string_view v) {
  const auto n = parse_whole(v, 1, 4'000'000'000LL);
  if (!n) return "wants 1..4000000000";
  s.max_positions = static_cast<std::uint64_t>(*n);
  return std::nullopt;
}

const Flag<Settings> kSolveFlags[] = {
    {"--variant", "", "V", "kaboom (the only variant the solver knows; the default)",
     set_variant<Settings>},
    {"--width", "", "W", "columns (default 7)",
     [](Settings& s, std::string_view v) { return set_option_value(s, "width", v); }},
    {"--height", "", "H", "rows (default 6)",
     [](Settings& s, std::string_view v) { return set_option_value(s, "height", v); }},
    {"--connect", "", "N", "pieces in a row that win (default 4)",
     [](Settings& s, std::string_view v) { return set_option_value(s, "connect", v); }},
    {"--bombs", "", "B", "bombs each player may drop (default 1)",
     [](Settings& s, std::string_view v) { return set_option_value(s, "bombs", v); }},
    {"--misere", "", "", "connecting N loses instead of winning",
     [](Settings& s, std::string_view v) { return set_option_value(s, "misere", v); }},
    {"--superbomb", "", "", "a detonation removes its whole row and column",
     [](Settings& s, std::string_view v) { return set_option_value(s, "superbomb", v); }},
    kOptFlag<Settings>,
    {"--max-positions", "", "P", "the solver's memo limit (16 bytes each, default 2000000)",
     set_max_positions},
    {"--time-ms", "", "T", "time limit (default none)", set_time<Settings>},
};

void usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers solve [options]\n\n"
      "Solves a Kaboom board from the start with the exact solver (boards of at most %d\n"
      "cells): the start's value with best play on both sides, the best first turns, every\n"
      "first turn's value, the positions the solver stored and the time. Exit 1 when the\n"
      "solver runs out of positions or time.\n\n",
      ai::kSolverMaxCells);
  print_flags<Settings>(out, kSolveFlags);
}

// "x wins in 7", "o wins in 12", "tie in 9" (Gamesman's remoteness of a tie: the nearest drawn
// end with best play) or "tie", for a value seen by `side`.
std::string words(const Game& g, Side side, const ai::Value& v) {
  if (!v.outcome) return "tie";
  if (*v.outcome == ai::Outcome::Draw) {
    if (!v.exact) return "tie";
    return v.remoteness > 0 ? "tie in " + std::to_string(v.remoteness)
                            : "tie (its distance not found within the limits)";
  }
  const Side winner = *v.outcome == ai::Outcome::Win ? side : other(side);
  return std::string(side_name(g.variant(), winner)) + " wins in " + std::to_string(v.remoteness);
}

}  // namespace

int cmd_solve(Args args) {
  const char* cmd = "solve";
  Settings s;
  if (auto done = read_command_flags<Settings>(cmd, kSolveFlags, args, s, usage)) return *done;
  if (s.engine.variant != VariantId::Kaboom)
    return usage_error(cmd, "--variant: only kaboom can be solved");
  if (auto err = s.engine.finish()) return usage_error(cmd, *err);
  const auto created = Game::create(s.engine.variant, s.engine.options);
  if (const auto* err = std::get_if<std::string>(&created)) return usage_error(cmd, *err);
  const Game& g = std::get<Game>(created);
  const Options& o = g.options();
  if (o.width * o.height > ai::kSolverMaxCells) {
    return usage_error(cmd, std::to_string(o.width) + "x" + std::to_string(o.height) +
                                " is over the solver's " + std::to_string(ai::kSolverMaxCells) +
                                " cells");
  }

  ai::AnalysisLimits limits;
  limits.time = s.engine.time.value_or(std::chrono::hours(24 * 365));
  limits.max_positions = s.max_positions;
  limits.exact_only = true;
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const ai::Analysis a = ai::analyse_position(g, limits);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // CPU time too: on a shared machine the wall time overstates the work.
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("kaboom %dx%d, connect %d, %d bomb%s each%s%s\n", o.width, o.height, o.connect,
              o.bombs, o.bombs == 1 ? "" : "s", o.misere ? ", misere" : "",
              o.superbomb ? ", superbomb" : "");
  if (!a.value.exact) {
    std::fprintf(stderr,
                 "solve: over budget after %llu positions and %.2f s (raise --max-positions or "
                 "--time-ms)\n",
                 static_cast<unsigned long long>(a.work), secs);
    return 1;
  }
  const Side mover = g.turn();
  std::printf("value: %s\n", words(g, mover, a.value).c_str());
  std::string best;
  for (const ai::TurnValue& t : a.turns) {
    if (t.value == a.value) best += (best.empty() ? "" : " ") + ai::format_turn(t.turn);
  }
  std::printf("best: %s\nturns:\n", best.c_str());
  for (const ai::TurnValue& t : a.turns) {
    std::printf("  %-4s %s\n", ai::format_turn(t.turn).c_str(), words(g, mover, t.value).c_str());
  }
  std::printf("positions: %llu\ntime: %.2f s (cpu %.2f s)\n",
              static_cast<unsigned long long>(a.work), secs, cpu);
  return 0;
}

}  // namespace bc::app
