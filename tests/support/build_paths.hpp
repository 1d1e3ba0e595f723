// Where the tests find what the build made and what the checkout holds. The paths are compiled into
// build_paths.cpp alone: in a test's own object they would make ccache miss it in every fresh clone
// (the clone's folder is part of the string), a rebuild of the heaviest test sources each time.
#pragma once

namespace bc::test {

extern const char* const kBinary;      // the bombcheckers binary of this build tree
extern const char* const kHaproxyCfg;  // docker/haproxy.cfg, the configuration the project ships
extern const char* const kPersistFixtures;  // tests/persist/fixtures
extern const char* const kPuzzles;          // web/data/puzzles.json, the collection shipped

}  // namespace bc::test
