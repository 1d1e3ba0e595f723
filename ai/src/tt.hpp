// The transposition table: buckets of two entries (one kept for depth, one always replaced).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "bc/ai.hpp"

namespace bc::ai {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

// All-zero bytes are an empty entry (bound None): the table comes from calloc's zeroed pages, which
// the kernel maps on first touch, so a short request does not pay for clearing 32 MB up front.
struct TTEntry {
  std::uint64_t key = 0;
  std::int32_t score = 0;
  std::uint32_t move = 0;  // Move::sig of the best move, 0 if none
  std::int8_t depth = 0;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;
};

struct FreeDeleter {
  void operator()(TTEntry* p) const { std::free(p); }
};

struct TranspositionTable::Impl {
  std::unique_ptr<TTEntry[], FreeDeleter> entries;  // `size` entries, buckets of two
  std::size_t size = 0;                             // a power of two
  std::uint64_t mask = 0;                           // bucket index mask (size / 2 - 1)
  std::uint8_t generation = 0;

  explicit Impl(std::size_t megabytes);
  const TTEntry* probe(std::uint64_t key) const;
  void store(std::uint64_t key, int score, std::uint32_t move, int depth, Bound bound);
  void new_search() { ++generation; }
};

}  // namespace bc::ai
