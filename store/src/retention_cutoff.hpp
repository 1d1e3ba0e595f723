// The retention rule every backend's prune shares: what is older than `now - keep` goes, and a
// kind kept for ever (keep 0) has a cutoff nothing is older than. Not installed: store/src only.
#pragma once

#include <cstdint>
#include <limits>

namespace bc::store::detail {

inline std::int64_t cutoff(std::int64_t now_ms, std::int64_t keep_ms) {
  return keep_ms > 0 ? now_ms - keep_ms : std::numeric_limits<std::int64_t>::min();
}

}  // namespace bc::store::detail
