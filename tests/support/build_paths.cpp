#include "build_paths.hpp"

namespace bc::test {

const char* const kBinary = BC_BINARY;
const char* const kHaproxyCfg = BC_HAPROXY_CFG;
const char* const kPersistFixtures = BC_PERSIST_FIXTURES;

}  // namespace bc::test
