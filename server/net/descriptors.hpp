// Open-file limits (issue 13): a server that runs out of descriptors cannot accept, log or store.
// At start the soft RLIMIT_NOFILE goes up to the hard one, and the connection limit is cut to what
// fits under it with room left for the store, the logs and the server's own descriptors.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bc::server {

// Raises the soft limit on open files to the hard limit; the soft limit afterwards, or 0 when
// there is none (unlimited) or it cannot be read.
std::uint64_t raise_descriptor_limit();

// The connections that fit in `descriptors` open files (0: no limit) with a reserve kept for
// everything else: at most `configured`, at least 1.
std::size_t connections_for_descriptors(std::uint64_t descriptors, std::size_t configured);

}  // namespace bc::server
