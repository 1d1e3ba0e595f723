#include "server/net/descriptors.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace bc::server {

std::uint64_t raise_descriptor_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 0;
  if (rl.rlim_cur < rl.rlim_max) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  return rl.rlim_cur == RLIM_INFINITY ? 0 : static_cast<std::uint64_t>(rl.rlim_cur);
}

std::size_t connections_for_descriptors(std::uint64_t descriptors, std::size_t configured) {
  if (descriptors == 0) return configured;
  // The store (database, journal, readers), log files, the listener, epoll and timers, and a
  // connection accepted over the limit only to be closed: 64, or a quarter of a small limit.
  const std::uint64_t reserve = std::min<std::uint64_t>(64, descriptors / 4);
  const std::uint64_t fit = descriptors > reserve ? descriptors - reserve : 1;
  return static_cast<std::size_t>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(fit, configured)));
}

}  // namespace bc::server
