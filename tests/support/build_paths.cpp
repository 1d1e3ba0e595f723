#include "build_paths.hpp"

namespace bc::test {

const char* const kBinary = BC_BINARY;
const char* const kHaproxyCfg = BC_HAPROXY_CFG;
const char* const kPersistFixtures = BC_PERSIST_FIXTURES;
const char* const kPuzzles = BC_PUZZLES;

}  // namespace bc::test
