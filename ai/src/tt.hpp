// The transposition table: buckets of two entries (one kept for depth, one always replaced).
#pragma once

#include <cstdint>
#include <vector>

#include "bc/ai.hpp"

namespace bc::ai {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTEntry {
  std::uint64_t key = 0;
  std::int32_t score = 0;
  std::uint32_t move = 0;  // Move::sig of the best move, 0 if none
  std::int8_t depth = -1;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;
};

struct TranspositionTable::Impl {
  std::vector<TTEntry> entries;  // size a power of two, buckets of two
  std::uint64_t mask = 0;        // bucket index mask (entries.size() / 2 - 1)
  std::uint8_t generation = 0;

  explicit Impl(std::size_t megabytes);
  const TTEntry* probe(std::uint64_t key) const;
  void store(std::uint64_t key, int score, std::uint32_t move, int depth, Bound bound);
  void new_search() { ++generation; }
};

}  // namespace bc::ai
