// bc_ai_bench: figures for ai/README.md. `speed`: nodes per second and depth reached from the
// opening of each variant; `solver`: what the exact Kaboom solver manages; `analysis`:
// analyse_position from each variant's start (and two small Kaboom boards). (Matches between levels
// and one position's search: `bombcheckers selfplay` and `bombcheckers analyse`.)
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bc/ai.hpp"
#include "bc/ai_analysis.hpp"

namespace {

using bc::ai::SearchLimits;

int speed(long long ms) {
  std::printf("%-12s %6s %12s %10s %8s %8s\n", "variant", "depth", "nodes", "nps(cpu)", "ms",
              "cpu ms");
  for (bc::VariantId v : bc::kAllVariants) {
    const auto g = std::get<bc::Game>(bc::Game::create(v, bc::default_options(v)));
    SearchLimits limits;
    limits.level = 8;
    limits.time = std::chrono::milliseconds(ms);
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const auto r = bc::ai::choose_turn(g, limits);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Nodes per CPU second: the machine is shared, wall time alone would understate the speed.
    std::printf("%-12s %6d %12llu %10.0f %8.0f %8.0f\n", std::string(bc::variant_key(v)).c_str(),
                r.depth, static_cast<unsigned long long>(r.nodes),
                static_cast<double>(r.nodes) / std::max(cpu, 1e-6), secs * 1000, cpu * 1000);
    std::fflush(stdout);
  }
  return 0;
}

int solver(long long ms) {
  struct Board {
    int w, h, n, bombs;
  };
  const std::vector<Board> boards{{3, 3, 3, 0}, {3, 3, 3, 1}, {4, 3, 3, 0}, {4, 3, 3, 1},
                                  {4, 4, 3, 0}, {4, 4, 3, 1}, {4, 4, 4, 0}, {4, 4, 4, 1},
                                  {5, 4, 4, 0}, {5, 4, 4, 1}, {4, 4, 3, 2}, {5, 4, 3, 1}};
  std::printf("%-18s %-16s %12s %9s\n", "board", "value", "positions", "seconds");
  for (const Board& b : boards) {
    bc::Options o = bc::default_options(bc::VariantId::Kaboom);
    o.width = b.w;
    o.height = b.h;
    o.connect = b.n;
    o.bombs = b.bombs;
    const auto created = bc::Game::create(bc::VariantId::Kaboom, o);
    if (!std::holds_alternative<bc::Game>(created)) continue;
    bc::ai::SolveBudget budget;
    budget.max_positions = 60'000'000;
    budget.time = std::chrono::milliseconds(ms);
    const auto start = std::chrono::steady_clock::now();
    const auto s = bc::ai::solve_kaboom(std::get<bc::Game>(created), budget);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char name[64];
    std::snprintf(name, sizeof name, "%dx%d connect %d, %d bomb", b.w, b.h, b.n, b.bombs);
    char value[64] = "over budget";
    if (s) {
      const char* what = s->outcome == bc::ai::Outcome::Win    ? "x wins"
                         : s->outcome == bc::ai::Outcome::Loss ? "o wins"
                                                               : "draw";
      std::snprintf(value, sizeof value, "%s in %d", what, s->turns);
    }
    std::printf("%-18s %-16s %12llu %9.2f\n", name, value,
                s ? static_cast<unsigned long long>(s->positions) : 0ULL, secs);
    std::fflush(stdout);
  }
  return 0;
}

// analyse_position within `ms`: the depth every turn reached (or solved), work and time.
int analysis(long long ms) {
  std::printf("%-22s %6s %6s %12s %8s %8s\n", "start", "turns", "depth", "work", "ms", "cpu ms");
  std::vector<std::pair<std::string, bc::Game>> games;
  for (bc::VariantId v : bc::kAllVariants) {
    games.emplace_back(std::string(bc::variant_key(v)),
                       std::get<bc::Game>(bc::Game::create(v, bc::default_options(v))));
  }
  for (const auto& [w, h, n] : {std::array{4, 4, 4}, std::array{5, 4, 4}}) {
    bc::Options o = bc::default_options(bc::VariantId::Kaboom);
    o.width = w;
    o.height = h;
    o.connect = n;
    games.emplace_back(
        "kaboom " + std::to_string(w) + "x" + std::to_string(h) + " c" + std::to_string(n) + " b1",
        std::get<bc::Game>(bc::Game::create(bc::VariantId::Kaboom, o)));
  }
  for (const auto& [name, g] : games) {
    bc::ai::AnalysisLimits limits;
    limits.time = std::chrono::milliseconds(ms);
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const auto a = bc::ai::analyse_position(g, limits);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string depth = a.value.exact ? "exact" : std::to_string(a.value.depth);
    std::printf("%-22s %6zu %6s %12llu %8.0f %8.0f\n", name.c_str(), a.turns.size(), depth.c_str(),
                static_cast<unsigned long long>(a.work), secs * 1000, cpu * 1000);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  const std::string_view cmd = args.empty() ? "speed" : args[0];
  const std::span<const std::string_view> rest =
      args.empty() ? std::span<const std::string_view>{} : std::span(args).subspan(1);
  long long ms = 1000;
  if (rest.size() == 2 && rest[0] == "--time-ms") ms = std::stoll(std::string(rest[1]));
  if (cmd == "speed") return speed(ms);
  if (cmd == "solver") return solver(rest.empty() ? 60000 : ms);
  if (cmd == "analysis") return analysis(ms);
  std::printf("usage: bc_ai_bench [speed|solver|analysis] [--time-ms T]\n");
  return cmd == "--help" ? 0 : 2;
}
