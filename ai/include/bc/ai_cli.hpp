// Subcommands of the `bombcheckers` binary that drive the computer opponent. Each takes the
// arguments after the subcommand name and returns the process exit code (0 ok, 2 bad usage).
//
//   bombcheckers selfplay --variant V --a LEVEL --b LEVEL --games N [--seed S]
//                         [--time-ms T | --nodes N] [--random-turns K] [--opt name=value]...
//   bombcheckers analyse  --variant V [--fen TEXT] [--moves "TURN TURN ..."] [--time-ms T]
//                         [--depth D] [--nodes N] [--level L] [--opt name=value]...
#pragma once

#include <span>
#include <string_view>

namespace bc::ai {

int cli_selfplay(std::span<const std::string_view> args);
int cli_analyse(std::span<const std::string_view> args);

}  // namespace bc::ai
