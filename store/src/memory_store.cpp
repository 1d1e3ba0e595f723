// The in-memory store: the SQL backends' write and read semantics (the statements of sql_core.cpp,
// the retention of sql_prune.cpp) over maps, for `serve --memory`.
#include "memory_store.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "retention_cutoff.hpp"

namespace bc::store {
namespace {

using detail::cutoff;

// Games deleted per hold of the lock: a prune of many rooms lets submissions through in between.
constexpr std::size_t kPerHold = 32;

bool before(const ActionRow& a, std::int64_t version) {
  return a.version < version;
}

std::uint64_t text_bytes(const std::string& s) {
  return s.capacity() > 15 ? s.capacity() + 1 : 0;  // beyond the small-string buffer
}

}  // namespace

bool MemoryStore::acceptable(const std::vector<Write>& writes) const {
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const auto* a = std::get_if<AppendAction>(&writes[i]);
    if (a == nullptr) continue;
    const ActionRow& row = a->row;
    // The same version twice in one submission: a scan, as a submission holds one room's few
    // writes (no allocation on the path of every move).
    for (std::size_t j = 0; j < i; ++j) {
      const auto* b = std::get_if<AppendAction>(&writes[j]);
      if (b != nullptr && b->row.version == row.version && b->row.game_no == row.game_no &&
          b->row.room == row.room) {
        return false;
      }
    }
    const auto room = actions_.find(row.room);
    if (room == actions_.end()) continue;
    const auto game = room->second.find(row.game_no);
    if (game == room->second.end()) continue;
    const auto& list = game->second;
    const auto at = std::lower_bound(list.begin(), list.end(), row.version, before);
    if (at != list.end() && at->version == row.version) return false;
  }
  return true;
}

void MemoryStore::apply(Write& w) {
  if (auto* r = std::get_if<PutRoom>(&w)) {
    auto [it, added] = rooms_.try_emplace(r->row.id, r->row);
    if (!added) {  // as SQLite's upsert: the creation time stays
      it->second.setup = std::move(r->row.setup);
      it->second.game_no = r->row.game_no;
      it->second.retired = r->row.retired;
    }
  } else if (auto* s = std::get_if<PutSeat>(&w)) {
    seats_[s->row.room].insert_or_assign(s->row.side, std::move(s->row));
  } else if (auto* f = std::get_if<FreeSeat>(&w)) {
    if (auto it = seats_.find(f->room); it != seats_.end()) {
      it->second.erase(f->side);
      if (it->second.empty()) seats_.erase(it);
    }
  } else if (auto* g = std::get_if<PutGame>(&w)) {
    if (auto it = rooms_.find(g->row.room); it != rooms_.end())
      it->second.game_no = std::max(it->second.game_no, g->row.game_no);
    games_[g->row.room].insert_or_assign(g->row.game_no, std::move(g->row));
  } else if (auto* a = std::get_if<AppendAction>(&w)) {
    append(a->row);  // acceptable() found no action of its version
  } else if (auto* d = std::get_if<DropGame>(&w)) {
    if (auto it = games_.find(d->room); it != games_.end()) it->second.erase(d->game_no);
    if (auto it = actions_.find(d->room); it != actions_.end()) it->second.erase(d->game_no);
  } else {
    const auto& retire = std::get<RetireRoom>(w);
    if (auto it = rooms_.find(retire.room); it != rooms_.end()) it->second.retired = true;
  }
}

bool MemoryStore::append(ActionRow& row) {
  auto& list = actions_[row.room][row.game_no];
  // Actions come in version order: the search is for the rare one that does not.
  if (list.empty() || list.back().version < row.version) {
    list.push_back(std::move(row));
    return true;
  }
  const auto at = std::lower_bound(list.begin(), list.end(), row.version, before);
  if (at != list.end() && at->version == row.version) return false;  // so the room and game exist
  list.insert(at, std::move(row));
  return true;
}

void MemoryStore::submit(std::vector<Write> writes, Done done) {
  bool ok = false;
  {
    std::lock_guard lock(mutex_);
    if (auto* a = writes.size() == 1 ? std::get_if<AppendAction>(&writes[0]) : nullptr) {
      ok = append(a->row);
    } else if ((ok = acceptable(writes))) {
      for (Write& w : writes) apply(w);
    }
    if (ok) {
      stats_.writes += writes.size();
    } else {
      ++stats_.failures;
    }
    ++stats_.commits;
  }
  // Outside the lock: the callback may read the store.
  if (done) done(ok);
}

std::vector<ActionRow> MemoryStore::actions_of(const std::string& room, int game_no) const {
  const auto it = actions_.find(room);
  if (it == actions_.end()) return {};
  const auto game = it->second.find(game_no);
  return game == it->second.end() ? std::vector<ActionRow>{} : game->second;
}

LoadedRoom MemoryStore::load(const RoomRow& room, int game_no) const {
  LoadedRoom out;
  out.room = room;
  if (auto it = seats_.find(room.id); it != seats_.end()) {
    for (const auto& [side, seat] : it->second) out.seats.push_back(seat);
  }
  if (auto it = games_.find(room.id); it != games_.end()) {
    for (const auto& [no, game] : it->second) out.games.push_back(game);
  }
  out.actions = actions_of(room.id, game_no == 0 ? room.game_no : game_no);
  return out;
}

std::vector<LoadedRoom> MemoryStore::load_active_rooms() {
  std::lock_guard lock(mutex_);
  std::vector<const RoomRow*> active;
  for (const auto& [id, room] : rooms_) {
    if (!room.retired) active.push_back(&room);
  }
  std::sort(active.begin(), active.end(), [](const RoomRow* a, const RoomRow* b) {
    return std::tie(a->created_ms, a->id) < std::tie(b->created_ms, b->id);
  });
  std::vector<LoadedRoom> out;
  out.reserve(active.size());
  for (const RoomRow* r : active) out.push_back(load(*r, 0));
  return out;
}

bool MemoryStore::has_room(const std::string& id) {
  std::lock_guard lock(mutex_);
  return rooms_.contains(id);
}

std::optional<LoadedRoom> MemoryStore::load_room(const std::string& id, int game_no) {
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(id);
  if (it == rooms_.end()) return std::nullopt;
  return load(it->second, game_no);
}

std::vector<ActionRow> MemoryStore::actions(const std::string& room, int game_no) {
  std::lock_guard lock(mutex_);
  return actions_of(room, game_no);
}

std::vector<RoomRow> MemoryStore::recent_rooms(int limit) {
  std::lock_guard lock(mutex_);
  std::vector<const RoomRow*> all;
  all.reserve(rooms_.size());
  for (const auto& [id, room] : rooms_) all.push_back(&room);
  const auto newest_first = [](const RoomRow* a, const RoomRow* b) {
    return std::tie(a->created_ms, a->id) > std::tie(b->created_ms, b->id);
  };
  const std::size_t n = std::min(all.size(), static_cast<std::size_t>(std::max(limit, 0)));
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    newest_first);
  std::vector<RoomRow> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(*all[i]);
  return out;
}

Pruned MemoryStore::prune(const Retention& keep, std::int64_t now_ms,
                          const std::function<void(const Pruned&)>& deleted) {
  const std::int64_t unstarted = cutoff(now_ms, keep.unstarted_ms);
  const std::int64_t abandoned = cutoff(now_ms, keep.abandoned_ms);
  const std::int64_t finished = cutoff(now_ms, keep.finished_ms);
  // The games the policy no longer keeps (sql_core.cpp's DueGames): a game nobody
  // moved in counts from its room's last sign of life, an unfinished one from its last move, a
  // finished one from its end.
  std::vector<std::pair<std::string, int>> doomed;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, games] : games_) {
      const auto room = rooms_.find(id);
      if (room == rooms_.end() || !room->second.retired) continue;
      const auto acts = actions_.find(id);
      for (const auto& [no, g] : games) {
        const std::vector<ActionRow>* moves = nullptr;
        if (acts != actions_.end()) {
          if (auto it = acts->second.find(no); it != acts->second.end() && !it->second.empty())
            moves = &it->second;
        }
        bool due = false;
        if (moves == nullptr) {
          due = std::max({room->second.created_ms, g.started_ms, g.ended_ms}) < unstarted;
        } else if (g.result.empty()) {
          std::int64_t last = std::numeric_limits<std::int64_t>::min();
          for (const ActionRow& a : *moves) last = std::max(last, a.at_ms);
          due = last < abandoned;
        } else {
          due = g.ended_ms < finished;
        }
        if (due) doomed.emplace_back(id, no);
      }
    }
  }

  Pruned out;
  for (std::size_t at = 0; at < doomed.size() && !maintenance_stopping(); at += kPerHold) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = at; i < std::min(doomed.size(), at + kPerHold); ++i) {
      const auto& [id, no] = doomed[i];
      const auto room = rooms_.find(id);
      if (room == rooms_.end() || !room->second.retired) continue;  // never a room in play
      if (auto acts = actions_.find(id); acts != actions_.end()) {
        if (auto it = acts->second.find(no); it != acts->second.end()) {
          out.actions += it->second.size();
          acts->second.erase(it);
        }
        if (acts->second.empty()) actions_.erase(acts);
      }
      auto games = games_.find(id);
      if (games == games_.end()) continue;
      out.games += games->second.erase(no);
      if (games->second.empty()) {
        games_.erase(games);
      } else {
        room->second.game_no = games->second.rbegin()->first;  // the newest game kept
      }
    }
  }

  // Retired rooms with no game left go, with their seats.
  {
    std::lock_guard lock(mutex_);
    for (auto it = rooms_.begin(); it != rooms_.end();) {
      if (it->second.retired && !games_.contains(it->first)) {
        seats_.erase(it->first);
        it = rooms_.erase(it);
        ++out.rooms;
      } else {
        ++it;
      }
    }
    stats_.pruned.rooms += out.rooms;
    stats_.pruned.games += out.games;
    stats_.pruned.actions += out.actions;
    ++stats_.prunes;
  }
  if (out.rooms + out.games + out.actions > 0 && deleted) deleted(out);
  return out;
}

Size MemoryStore::measure() {
  std::lock_guard lock(mutex_);
  Size size;
  size.rooms = rooms_.size();
  // page_bytes: what the rows hold, an estimate (their structs and longer texts).
  for (const auto& [id, r] : rooms_) {
    size.page_bytes += sizeof(RoomRow) + text_bytes(r.id) + text_bytes(r.setup);
  }
  for (const auto& [id, seats] : seats_) {
    for (const auto& [side, s] : seats) {
      size.page_bytes +=
          sizeof(SeatRow) + text_bytes(s.room) + text_bytes(s.name) + text_bytes(s.token_hash);
    }
  }
  for (const auto& [id, games] : games_) {
    size.games += games.size();
    for (const auto& [no, g] : games) {
      size.page_bytes +=
          sizeof(GameRow) + text_bytes(g.room) + text_bytes(g.result) + text_bytes(g.players);
    }
  }
  for (const auto& [id, games] : actions_) {
    for (const auto& [no, list] : games) {
      size.actions += list.size();
      size.page_bytes += list.capacity() * sizeof(ActionRow);
      for (const ActionRow& a : list) size.page_bytes += text_bytes(a.room) + text_bytes(a.action);
    }
  }
  stats_.size = size;
  return size;
}

Stats MemoryStore::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace bc::store
