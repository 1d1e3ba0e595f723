#include "tt.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <type_traits>

namespace bc::ai {

TranspositionTable::Impl::Impl(std::size_t megabytes) {
  const std::size_t bytes = std::max<std::size_t>(megabytes, 1) << 20;
  const std::size_t buckets =
      std::bit_floor(std::max<std::size_t>(bytes / (2 * sizeof(TTEntry)), 1));
  static_assert(std::is_trivially_copyable_v<TTEntry>);
  size = buckets * 2;
  entries.reset(static_cast<TTEntry*>(std::calloc(size, sizeof(TTEntry))));
  if (!entries) throw std::bad_alloc();
  mask = buckets - 1;
}

const TTEntry* TranspositionTable::Impl::probe(std::uint64_t key) const {
  const std::size_t b = static_cast<std::size_t>(key & mask) * 2;
  if (entries[b].key == key && entries[b].bound != Bound::None) return &entries[b];
  if (entries[b + 1].key == key && entries[b + 1].bound != Bound::None) return &entries[b + 1];
  return nullptr;
}

void TranspositionTable::Impl::store(std::uint64_t key, int score, std::uint32_t move, int depth,
                                     Bound bound) {
  const std::size_t b = static_cast<std::size_t>(key & mask) * 2;
  TTEntry& deep = entries[b];
  TTEntry& recent = entries[b + 1];
  TTEntry* slot = &recent;
  if (deep.key == key || deep.bound == Bound::None || deep.generation != generation ||
      depth >= deep.depth) {
    slot = &deep;
  }
  if (slot->key == key && move == 0) move = slot->move;  // keep a known best move
  *slot = {key,   score,     move, static_cast<std::int8_t>(std::clamp(depth, -1, 127)),
           bound, generation};
}

TranspositionTable::TranspositionTable(std::size_t megabytes)
    : impl_(std::make_unique<Impl>(megabytes)) {}
TranspositionTable::~TranspositionTable() = default;
TranspositionTable::TranspositionTable(TranspositionTable&&) noexcept = default;
TranspositionTable& TranspositionTable::operator=(TranspositionTable&&) noexcept = default;

void TranspositionTable::clear() {
  std::memset(static_cast<void*>(impl_->entries.get()), 0, impl_->size * sizeof(TTEntry));
  impl_->generation = 0;
}

std::size_t TranspositionTable::entries() const {
  return impl_->size;
}

}  // namespace bc::ai
