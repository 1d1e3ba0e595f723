// `bombcheckers analyse`: the search's view of one position: every finished depth with its score,
// nodes, time and principal variation; small Kaboom boards are solved exactly first.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "bc/ai.hpp"
#include "bc/ai_notation.hpp"
#include "commands.hpp"
#include "engine_flags.hpp"

namespace bc::app {
namespace {

using Setting = std::optional<std::string>;

struct Settings {
  EngineFlags engine;
  std::string fen = "start";
  std::string moves;
  std::optional<int> depth;
  int level = ai::kMaxLevel;
};

Setting set_fen(Settings& s, std::string_view v) {
  s.fen = std::string(v);
  return std::nullopt;
}

Setting set_moves(Settings& s, std::string_view v) {
  s.moves = std::string(v);
  return std::nullopt;
}

Setting set_depth(Settings& s, std::string_view v) {
  const auto d = parse_whole(v, 1, 64);
  if (!d) return "wants 1..64";
  s.depth = static_cast<int>(*d);
  return std::nullopt;
}

Setting set_level(Settings& s, std::string_view v) {
  const auto l = parse_whole(v, ai::kMinLevel, ai::kMaxLevel);
  if (!l) return "wants 1..8";
  s.level = static_cast<int>(*l);
  return std::nullopt;
}

const Flag<Settings> kAnalyseFlags[] = {
    kVariantFlag<Settings>,
    {"--fen", "", "TEXT",
     "the position: <to-move>:<first pieces>:<second pieces>[:<bombs a>,<bombs b>]\n"
     "                             pieces: comma-separated squares (c3 = [2,2]) with prefixes K "
     "king,\n"
     "                             T triple king, S shield, B bomb, e.g. "
     "\"fire:c3,Bd4,KSe5:Bf6,g7\"\n"
     "                             (default: the start position, \"start\")",
     set_fen},
    {"--position", "", "TEXT", "the same as --fen", set_fen},
    {"--moves", "", "\"TURN ...\"",
     "turns to play first: c3-d4 (step), c3xe5xg7 (jumps), end (stop a capture);\n"
     "                             kaboom: d (drop), Bd (drop a bomb), *c2 (detonate)",
     set_moves},
    kTimeFlag<Settings>,
    {"--depth", "", "D", "search to this depth, 1..64", set_depth},
    kNodesFlag<Settings>,
    {"--level", "", "L", "1..8 (default 8); small Kaboom boards also get the exact solver",
     set_level},
    kOptFlag<Settings>,
};

void usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers analyse [options]\n\n"
      "Searches one position and prints, for every finished depth, the score (side to move,\n"
      "in men: +1.00 is one normal man), nodes, time and principal variation. Without\n"
      "--time-ms, --depth or --nodes the search has 5 seconds.\n\n");
  print_flags<Settings>(out, kAnalyseFlags);
}

// Small Kaboom boards: the exact solver's verdict, before the search.
void solve(const Game& g, const EngineFlags& e) {
  ai::SolveBudget budget;
  budget.time = e.time.value_or(std::chrono::milliseconds(5000));
  const auto start = std::chrono::steady_clock::now();
  const auto solved = ai::solve_kaboom(g, budget);
  if (!solved) {
    std::printf("solver: over budget, searching instead\n");
    return;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const char* what = solved->outcome == ai::Outcome::Win    ? "win"
                     : solved->outcome == ai::Outcome::Loss ? "loss"
                                                            : "draw";
  std::printf("solved: %s", what);
  if (solved->outcome != ai::Outcome::Draw) std::printf(" in %d turns", solved->turns);
  std::printf(" (%llu positions, %.2f s); best %s\n",
              static_cast<unsigned long long>(solved->positions), secs,
              solved->best ? ai::format_turn(Turn{{*solved->best}}).c_str() : "-");
}

// One line per finished depth: score, nodes, time, speed and the principal variation.
void print_iteration(const Game& g, const ai::IterationInfo& info) {
  std::string pv;
  Game line = g;
  for (const Turn& t : info.pv) {
    pv += ' ' + ai::format_turn(t);
    for (const Action& a : t.actions) {
      auto next = line.apply(a);
      if (!next) break;
      line = next->next;
    }
  }
  const long long ms = info.elapsed.count();
  std::printf("depth %2d  score %9s  nodes %11llu  time %7lld ms  nps %9.0f  pv%s\n", info.depth,
              ai::format_score(info.score).c_str(), static_cast<unsigned long long>(info.nodes), ms,
              ms > 0 ? 1000.0 * static_cast<double>(info.nodes) / static_cast<double>(ms) : 0.0,
              pv.c_str());
  std::fflush(stdout);
}

void search(const Game& g, const Settings& s) {
  ai::SearchLimits limits;
  limits.level = s.level;
  limits.depth = s.depth;
  limits.nodes = s.engine.nodes;
  limits.time = s.engine.time;
  if (!limits.time && !limits.nodes && !limits.depth) limits.time = std::chrono::milliseconds(5000);
  if (!limits.time && !limits.nodes) limits.nodes = 1'000'000'000'000ULL;  // depth only
  limits.on_iteration = [&g](const ai::IterationInfo& info) { print_iteration(g, info); };
  const ai::SearchResult r = ai::choose_turn(g, limits);
  std::printf("best %s  score %s  depth %d  nodes %llu%s\n", ai::format_turn(r.best).c_str(),
              ai::format_score(r.score).c_str(), r.depth, static_cast<unsigned long long>(r.nodes),
              r.solved ? "  (solved)" : "");
}

}  // namespace

int cmd_analyse(Args args) {
  const char* cmd = "analyse";
  Settings s;
  if (auto done = read_command_flags<Settings>(cmd, kAnalyseFlags, args, s, usage)) return *done;
  if (auto err = s.engine.finish()) return usage_error(cmd, *err);
  auto parsed = ai::parse_position(s.engine.variant, s.engine.options, s.fen);
  if (const auto* err = std::get_if<std::string>(&parsed)) return usage_error(cmd, *err);
  auto played = ai::play_turns(std::get<Game>(parsed), s.moves);
  if (const auto* err = std::get_if<std::string>(&played)) return usage_error(cmd, *err);
  const Game& g = std::get<Game>(played);

  std::printf("%s  %s to move\n%s", ai::format_position(g).c_str(),
              std::string(side_name(g.variant(), g.turn())).c_str(), ai::board_picture(g).c_str());
  if (g.over()) {
    const Result& r = *g.result();
    std::printf(
        "game over: %s (%s)\n",
        r.winner ? (std::string(side_name(g.variant(), *r.winner)) + " wins").c_str() : "draw",
        std::string(reason_name(r.reason)).c_str());
    return 0;
  }
  if (g.variant() == VariantId::Kaboom && g.width() * g.height() <= ai::kSolverMaxCells)
    solve(g, s.engine);
  search(g, s);
  return 0;
}

}  // namespace bc::app
