// bombcheckers: one binary, subcommands. main only dispatches.
#include <cstdio>
#include <string_view>
#include <vector>

#include "commands.hpp"

namespace {

struct Command {
  std::string_view name;
  int (*run)(bc::app::Args);
  std::string_view help;
};

constexpr Command kCommands[] = {
    {"serve", bc::app::cmd_serve, "run the game server (web client, JSON API, game WebSocket)"},
    {"replay", bc::app::cmd_replay,
     "check a game record (a JSON file or a stored room) by replaying it"},
    {"perft", bc::app::cmd_perft, "count the complete-turn tree of a variant (rules benchmark)"},
    {"selfplay", bc::app::cmd_selfplay, "play the computer against itself and print the score"},
    {"analyse", bc::app::cmd_analyse, "search a position and print the best line and score"},
    {"solve", bc::app::cmd_solve,
     "solve a small Kaboom board exactly: the start's and each first turn's value"},
    {"puzzles", bc::app::cmd_puzzles,
     "build or extend the puzzle collection: positions whose only winning turns are proven"},
    {"bot", bc::app::cmd_bot, "make bot accounts and their API tokens (docs/BOTS.md)"},
    {"compact", bc::app::cmd_compact,
     "prune a stopped server's database by the retention policy and shrink its file"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "usage: bombcheckers <command> [options]\n\ncommands:\n");
  for (const auto& c : kCommands) {
    std::fprintf(out, "  %-10.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.help.size()), c.help.data());
  }
  std::fprintf(out, "\n`bombcheckers <command> --help` describes a command's options.\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  for (const auto& c : kCommands) {
    if (args[0] == c.name) return c.run(bc::app::Args(args).subspan(1));
  }
  std::fprintf(stderr, "bombcheckers: unknown command '%.*s'\n\n", static_cast<int>(args[0].size()),
               args[0].data());
  usage(stderr);
  return 2;
}
