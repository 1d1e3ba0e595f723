// The subcommands of the `bombcheckers` binary. Each takes the arguments after its name.
#pragma once

#include <span>
#include <string_view>

namespace bc::app {

using Args = std::span<const std::string_view>;

int cmd_perft(Args args);
int cmd_serve(Args args);
int cmd_replay(Args args);
int cmd_selfplay(Args args);
int cmd_analyse(Args args);
int cmd_solve(Args args);
int cmd_compact(Args args);
int cmd_puzzles(Args args);
int cmd_bot(Args args);

}  // namespace bc::app
