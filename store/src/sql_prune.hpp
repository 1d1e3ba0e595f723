// The prune both SQL backends run (docs/PERSISTENCE.md, "Retention"), written once over the few
// statements each runs in its own dialect. Due games are found on a reader, a page at a time in
// (created_ms, room, game) order after a cursor, so kept games are passed once a prune; they are
// deleted on the writer's connection in transactions of a few, so commits go on in between; then
// the retired rooms left with no game. Not installed: store/src only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bc/store.hpp"
#include "group_commit.hpp"

namespace bc::store::detail {

struct DueGame {
  std::int64_t created_ms;  // its room's
  std::string room;
  int game_no;
};
struct EmptyRoom {
  std::int64_t created_ms;
  std::string id;
};

// A backend's side of the prune. Every delete checks again that its room is retired: a room is
// never deleted while in play.
class PruneRows {
 public:
  // `writer`: whose stats count the prune's deletions and failed transactions.
  explicit PruneRows(GroupCommit& writer) : writer_(writer) {}
  virtual ~PruneRows() = default;
  // The maintenance is stopping, or the store is closing: a prune stops between transactions.
  virtual bool stopping() const = 0;
  // Up to `limit` games after `after` that the policy no longer keeps, as of the cutoffs (Unix
  // ms: unstarted, abandoned, finished; see retention_cutoff.hpp). False if the query failed.
  virtual bool due_games(const std::int64_t (&cutoffs)[3], int limit, const DueGame& after,
                         std::vector<DueGame>& out) = 0;
  // Up to `limit` retired rooms with no game left, after `after`.
  virtual bool empty_rooms(int limit, const EmptyRoom& after, std::vector<EmptyRoom>& out) = 0;
  // `body` in one transaction on the writer's connection, holding it: false (rolled back) if
  // `body` or the commit failed.
  virtual bool transaction(const std::function<bool()>& body) = 0;
  // A game's actions and row; its room's record then shows the newest game kept.
  virtual bool delete_game(const DueGame& g, Pruned& deleted) = 0;
  // A room's seats and row.
  virtual bool delete_room(const std::string& id, Pruned& deleted) = 0;
  // Counted in the store's stats: a transaction that failed (its rows stay for the next prune),
  // and what a prune deleted.
  void count_failure();
  void count_pruned(const Pruned& p);

 private:
  GroupCommit& writer_;
};

// Deletes what `keep` no longer keeps as of `now_ms`; calls `deleted` with the counts if any.
Pruned prune_rows(PruneRows& rows, const Retention& keep, std::int64_t now_ms,
                  const std::function<void(const Pruned&)>& deleted);

}  // namespace bc::store::detail
