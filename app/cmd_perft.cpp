// `bombcheckers perft`: counts the complete-turn tree of a variant and times it.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "bc/core.hpp"
#include "commands.hpp"
#include "engine_flags.hpp"
#include "flags.hpp"

namespace bc::app {
namespace {

using Setting = std::optional<std::string>;

struct Settings {
  VariantId variant = VariantId::Classic;
  int depth = 8;
  bool json = false;
};

Setting set_depth(Settings& s, std::string_view v) {
  const auto d = parse_whole(v, 1, 30);
  if (!d) return "wants a whole number from 1 to 30";
  s.depth = static_cast<int>(*d);
  return std::nullopt;
}

Setting set_json(Settings& s, std::string_view) {
  s.json = true;
  return std::nullopt;
}

const Flag<Settings> kPerftFlags[] = {
    {"--variant", "", "V", "bomb, classic, triple_king or kaboom (default classic)",
     [](Settings& s, std::string_view v) { return set_variant_id(s.variant, v); }},
    {"--depth", "", "N", "deepest ply, 1..30 (default 8)", set_depth},
    {"--json", "", "", "print one JSON object instead of a table", set_json},
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: bombcheckers perft [options]\n\n"
               "Counts the leaves of the complete-turn tree from the start, for every depth up to\n"
               "the deepest, and how long each took.\n\n");
  print_flags<Settings>(out, kPerftFlags);
}

}  // namespace

int cmd_perft(Args args) {
  Settings s;
  if (auto done = read_command_flags<Settings>("perft", kPerftFlags, args, s, usage)) return *done;
  const auto [variant, depth, json] = s;

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
