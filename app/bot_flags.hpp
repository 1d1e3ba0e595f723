// serve's flags of the bot API (docs/BOTS.md), apart from cmd_serve.cpp's own: any settings type
// with a `cfg` (server::ServerConfig) takes them.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "flags.hpp"

namespace bc::app {

template <class Settings>
constexpr Flag<Settings> bots_challenge_bots_flag() {
  return {"--bots-challenge-bots", "BOMBCHECKERS_BOTS_CHALLENGE_BOTS", "",
          "let bots challenge bots (docs/BOTS.md; default: only people challenge bots)",
          [](Settings& s, std::string_view v) -> std::optional<std::string> {
            s.cfg.bots_challenge_bots = v != "0";
            return std::nullopt;
          }};
}

template <class Settings>
constexpr Flag<Settings> stream_keepalive_flag() {
  return {"--stream-keepalive-ms", "BOMBCHECKERS_STREAM_KEEPALIVE_MS", "MS",
          "a bot's quiet stream sends an empty line after this long (default 7000)",
          [](Settings& s, std::string_view v) -> std::optional<std::string> {
            auto n = parse_whole(v, 100, 600000);
            if (!n) return "a whole number of ms from 100 to 600000";
            s.cfg.stream_keepalive = std::chrono::milliseconds(*n);
            return std::nullopt;
          }};
}

}  // namespace bc::app
