// The edit from one sequence to another that a delta's board sends (docs/PROTOCOL.md, "Compact
// states"): the complement of their longest common subsequence, so that what stayed keeps its
// order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bc::server {

// Calls removed(i) for each item of `a` not kept (i: its index in a) and inserted(j) for each
// item of `b` not kept (j: its index in b), each in increasing order, the two interleaved. The
// common head and tail are skipped first: a turn changes a few pieces, so the table is tiny.
template <class T, class Removed, class Inserted>
void sequence_edit(const std::vector<T>& a, const std::vector<T>& b, Removed removed,
                   Inserted inserted) {
  std::size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  std::size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    ++tail;
  }
  const std::size_t n = a.size() - head - tail, m = b.size() - head - tail;
  // A turn's few changed pieces fit the table on the stack; a new game's board may not.
  constexpr std::size_t kOnStack = 256;
  std::uint16_t stack[kOnStack];
  std::vector<std::uint16_t> heap;
  const std::size_t cells = (n + 1) * (m + 1);
  std::uint16_t* lcs = stack;
  if (cells > kOnStack) {
    heap.resize(cells);
    lcs = heap.data();
  }
  std::fill(lcs, lcs + cells, std::uint16_t{0});
  auto at = [&](std::size_t i, std::size_t j) -> std::uint16_t& { return lcs[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = a[head + i] == b[head + j] ? static_cast<std::uint16_t>(at(i + 1, j + 1) + 1)
                                            : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i] == b[head + j]) {
      ++i, ++j;
    } else if (j >= m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      removed(head + i++);
    } else {
      inserted(head + j++);
    }
  }
}

}  // namespace bc::server
