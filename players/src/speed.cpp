#include "bc/players/speed.hpp"

namespace bc::players {

std::int64_t estimated_seconds(std::int64_t initial_ms, std::int64_t increment_ms) {
  return (initial_ms + 40 * increment_ms) / 1000;
}

Speed speed_of_clock(std::int64_t initial_ms, std::int64_t increment_ms) {
  const std::int64_t s = estimated_seconds(initial_ms, increment_ms);
  if (s < 180) return Speed::bullet;
  if (s < 480) return Speed::blitz;
  if (s < 1500) return Speed::rapid;
  if (s < 21600) return Speed::classical;
  return Speed::correspondence;
}

std::string_view speed_name(Speed s) {
  switch (s) {
    case Speed::bullet:
      return "bullet";
    case Speed::blitz:
      return "blitz";
    case Speed::rapid:
      return "rapid";
    case Speed::classical:
      return "classical";
    case Speed::correspondence:
      return "correspondence";
  }
  return "classical";
}

std::optional<Speed> speed_from_name(std::string_view name) {
  for (Speed s : kSpeeds) {
    if (speed_name(s) == name) return s;
  }
  return std::nullopt;
}

}  // namespace bc::players
