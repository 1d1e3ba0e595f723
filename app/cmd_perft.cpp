// `bombcheckers perft`: counts the complete-turn tree of a variant and times it.
#include <chrono>
#include <cstdio>
#include <string>

#include "bc/core.hpp"
#include "commands.hpp"

namespace bc::app {
namespace {

void perft_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: bombcheckers perft [--variant V] [--depth N] [--json]\n"
               "  --variant V   bomb | classic | triple_king | kaboom (default classic)\n"
               "  --depth N     deepest ply, 1..30 (default 8)\n"
               "  --json        print one JSON object instead of a table\n");
}

}  // namespace

int cmd_perft(Args args) {
  VariantId variant = VariantId::Classic;
  int depth = 8;
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--help" || a == "-h") {
      perft_usage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--variant" && has_value) {
      const auto v = variant_from_key(args[++i]);
      if (!v) {
        std::fprintf(stderr, "perft: unknown variant '%.*s'\n", static_cast<int>(args[i].size()),
                     args[i].data());
        return 2;
      }
      variant = *v;
    } else if (a == "--depth" && has_value) {
      const std::string value(args[++i]);
      char* end = nullptr;
      const long d = std::strtol(value.c_str(), &end, 10);
      if (end == value.c_str() || *end != '\0' || d < 1 || d > 30) {
        std::fprintf(stderr, "perft: --depth must be a whole number from 1 to 30\n");
        return 2;
      }
      depth = static_cast<int>(d);
    } else {
      std::fprintf(stderr, "perft: unknown or incomplete option '%.*s'\n",
                   static_cast<int>(a.size()), a.data());
      perft_usage(stderr);
      return 2;
    }
  }

  const auto created = Game::create(variant, default_options(variant));
  const Game& game = std::get<Game>(created);
  std::string nodes_json;
  double total_seconds = 0;
  std::uint64_t total_nodes = 0;
  if (!json) std::printf("%5s %16s %10s %14s\n", "depth", "leaves", "seconds", "leaves/s");
  for (int d = 1; d <= depth; ++d) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t n = perft_leaves(game, d);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total_seconds += secs;
    total_nodes += n;
    if (json) {
      nodes_json += (d > 1 ? "," : "") + std::to_string(n);
    } else {
      std::printf("%5d %16llu %10.3f %14.0f\n", d, static_cast<unsigned long long>(n), secs,
                  secs > 0 ? static_cast<double>(n) / secs : 0.0);
      std::fflush(stdout);
    }
  }
  if (json) {
    std::printf(
        "{\"variant\":\"%.*s\",\"depth\":%d,\"nodes\":[%s],\"seconds\":%.6f,\"nps\":%.0f}\n",
        static_cast<int>(variant_key(variant).size()), variant_key(variant).data(), depth,
        nodes_json.c_str(), total_seconds,
        total_seconds > 0 ? static_cast<double>(total_nodes) / total_seconds : 0.0);
  }
  return 0;
}

}  // namespace bc::app
