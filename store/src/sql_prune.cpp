#include "sql_prune.hpp"

#include <algorithm>
#include <limits>

#include "retention_cutoff.hpp"

namespace bc::store::detail {
namespace {

// Rows looked up per query, and games or rooms deleted per transaction.
constexpr int kLookup = 512;
constexpr std::size_t kPerTransaction = 32;

// Runs `each` for every item in transactions of kPerTransaction, adding what each transaction
// deleted to `out` once it is committed. False if one fails (counted) or the store is stopping.
template <class T, class Each>
bool in_transactions(PruneRows& rows, const std::vector<T>& items, Pruned& out, Each each) {
  for (std::size_t at = 0; at < items.size(); at += kPerTransaction) {
    if (rows.stopping()) return false;
    Pruned batch;
    const bool ok = rows.transaction([&] {
      for (std::size_t i = at; i < std::min(items.size(), at + kPerTransaction); ++i) {
        if (!each(items[i], batch)) return false;
      }
      return true;
    });
    if (!ok) {
      rows.count_failure();
      return false;
    }
    out.rooms += batch.rooms;
    out.games += batch.games;
    out.actions += batch.actions;
  }
  return true;
}

}  // namespace

void PruneRows::count_failure() {
  writer_.update_stats([](Stats& st) { ++st.prune_failures; });
}

void PruneRows::count_pruned(const Pruned& p) {
  writer_.update_stats([&](Stats& st) {
    st.pruned.rooms += p.rooms;
    st.pruned.games += p.games;
    st.pruned.actions += p.actions;
  });
}

Pruned prune_rows(PruneRows& rows, const Retention& keep, std::int64_t now_ms,
                  const std::function<void(const Pruned&)>& deleted) {
  Pruned out;
  const std::int64_t cutoffs[3] = {cutoff(now_ms, keep.unstarted_ms),
                                   cutoff(now_ms, keep.abandoned_ms),
                                   cutoff(now_ms, keep.finished_ms)};
  DueGame after{std::numeric_limits<std::int64_t>::min(), "", 0};
  for (bool more = true; more && !rows.stopping();) {
    std::vector<DueGame> games;
    if (!rows.due_games(cutoffs, kLookup, after, games)) break;
    more = games.size() == static_cast<std::size_t>(kLookup);
    if (!games.empty()) after = games.back();
    const bool ok = in_transactions(rows, games, out, [&](const DueGame& g, Pruned& batch) {
      return rows.delete_game(g, batch);
    });
    if (!ok) break;
  }
  EmptyRoom room_after{std::numeric_limits<std::int64_t>::min(), ""};
  for (bool more = true; more && !rows.stopping();) {
    std::vector<EmptyRoom> rooms;
    if (!rows.empty_rooms(kLookup, room_after, rooms)) break;
    more = rooms.size() == static_cast<std::size_t>(kLookup);
    if (!rooms.empty()) room_after = rooms.back();
    const bool ok = in_transactions(rows, rooms, out, [&](const EmptyRoom& r, Pruned& batch) {
      return rows.delete_room(r.id, batch);
    });
    if (!ok) break;
  }
  rows.count_pruned(out);
  if (out.rooms + out.games + out.actions > 0 && deleted) deleted(out);
  return out;
}

}  // namespace bc::store::detail
