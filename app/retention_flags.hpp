// The retention flags (docs/PROTOCOL.md, "Retention"), shared by `serve` and `compact`: any
// settings type with a `cfg` (server::ServerConfig) takes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bc/store.hpp"
#include "flags.hpp"

namespace bc::app {

inline constexpr std::int64_t kHourMs = 60LL * 60 * 1000;
inline constexpr std::int64_t kDayMs = 24 * kHourMs;

// A whole number of `unit`s (0 = for ever) into `ms`.
inline std::optional<std::string> set_keep(std::int64_t& ms, std::string_view v, std::int64_t unit,
                                           std::string_view units) {
  auto n = parse_whole(v, 0, 100000);
  if (!n) return "a whole number of " + std::string(units) + " from 0 (kept for ever) to 100000";
  ms = *n * unit;
  return std::nullopt;
}

// The setter of one field of the retention policy, given in whole `Unit`s.
template <class Settings, std::int64_t store::Retention::*Field, std::int64_t Unit>
std::optional<std::string> set_keep_field(Settings& s, std::string_view v) {
  return set_keep(s.cfg.retention.*Field, v, Unit, Unit == kDayMs ? "days" : "hours");
}

template <class Settings>
constexpr Flag<Settings> keep_unstarted_flag() {
  return {"--keep-unstarted", "BOMBCHECKERS_KEEP_UNSTARTED", "HOURS",
          "hours a retired room's game in which nobody moved is kept, 0 = for ever (default 1)",
          set_keep_field<Settings, &store::Retention::unstarted_ms, kHourMs>};
}

template <class Settings>
constexpr Flag<Settings> keep_abandoned_flag() {
  return {"--keep-abandoned", "BOMBCHECKERS_KEEP_ABANDONED", "DAYS",
          "days an unfinished game of a retired room is kept after its last move,\n"
          "                           0 = for ever (default 7)",
          set_keep_field<Settings, &store::Retention::abandoned_ms, kDayMs>};
}

template <class Settings>
constexpr Flag<Settings> keep_finished_flag() {
  return {"--keep-finished", "BOMBCHECKERS_KEEP_FINISHED", "DAYS",
          "days a finished game is kept after its end, 0 = for ever (default 0)",
          set_keep_field<Settings, &store::Retention::finished_ms, kDayMs>};
}

}  // namespace bc::app
