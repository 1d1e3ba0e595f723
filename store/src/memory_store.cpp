// The in-memory store: the SQL backends' write and read semantics (the statements of sql_core.cpp,
// the retention of sql_prune.cpp) over maps, for `serve --memory`.
#include "memory_store.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "retention_cutoff.hpp"
#include "sql_core.hpp"

namespace bc::store {
namespace {

using detail::cutoff;
using sql::kLeaderboardMax;

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
  } else if (auto* p = std::get_if<PutPlayer>(&w)) {
    put_player(p->row);
  } else if (auto* se = std::get_if<PutSession>(&w)) {
    put_session(se->row);
  } else if (const auto* ds = std::get_if<DropSession>(&w)) {
    drop_session(ds->hash);
  } else if (const auto* dss = std::get_if<DropSessions>(&w)) {
    drop_sessions(dss->player, dss->keep);
  } else if (auto* ra = std::get_if<PutRating>(&w)) {
    ratings_[ra->row.perf].insert_or_assign(ra->row.player, std::move(ra->row));
  } else if (auto* rg = std::get_if<PutRatedGame>(&w)) {
    put_rated_game(rg->row);
  } else if (auto* t = std::get_if<PutToken>(&w)) {
    put_token(t->row);
  } else if (const auto* dt = std::get_if<DropToken>(&w)) {
    drop_token(dt->player, dt->id);
  } else {
    const auto& retire = std::get<RetireRoom>(w);
    if (auto it = rooms_.find(retire.room); it != rooms_.end()) it->second.retired = true;
  }
}

void MemoryStore::put_player(PlayerRow& row) {
  // A name another player holds: the row is left out, and nothing fails (PutPlayerUpdate and
  // PutPlayerInsert).
  const bool named = !row.name_key.empty();
  if (named) {
    if (auto holder = named_.find(row.name_key); holder != named_.end() && holder->second != row.id)
      return;
  }
  auto it = players_.find(row.id);
  if (it == players_.end()) {
    if (named) named_.emplace(row.name_key, row.id);
    players_.emplace(row.id, std::move(row));
    return;
  }
  PlayerRow& old = it->second;   // as the SQL's update: the creation time stays
  old.bot = old.bot || row.bot;  // the bots table: a mark for good
  if (!old.name_key.empty() && old.name_key != row.name_key) named_.erase(old.name_key);
  if (named) named_.insert_or_assign(row.name_key, row.id);
  old.name = std::move(row.name);
  old.name_key = std::move(row.name_key);
  old.password_hash = std::move(row.password_hash);
}

void MemoryStore::put_session(SessionRow& row) {
  auto [it, added] = sessions_.try_emplace(row.hash);
  if (!added && it->second.player != row.player) {
    auto held = held_.find(it->second.player);
    held->second.erase(row.hash);
    if (held->second.empty()) held_.erase(held);
  }
  held_[row.player].insert(row.hash);
  it->second = std::move(row);
}

void MemoryStore::drop_session(const std::string& hash) {
  const auto it = sessions_.find(hash);
  if (it == sessions_.end()) return;
  auto held = held_.find(it->second.player);
  held->second.erase(hash);
  if (held->second.empty()) held_.erase(held);
  sessions_.erase(it);
}

void MemoryStore::drop_sessions(const std::string& player, const std::string& keep) {
  const auto held = held_.find(player);
  if (held == held_.end()) return;
  for (auto it = held->second.begin(); it != held->second.end();) {
    if (!keep.empty() && *it == keep) {
      ++it;
    } else {
      sessions_.erase(*it);
      it = held->second.erase(it);
    }
  }
  if (held->second.empty()) held_.erase(held);
}

void MemoryStore::put_token(TokenRow& row) {
  auto [it, added] = tokens_.try_emplace(row.hash, row);
  if (!added) {  // as PutToken's conflict: only the label and the last use change
    it->second.label = std::move(row.label);
    it->second.seen_ms = row.seen_ms;
    return;
  }
  token_hashes_[row.player].insert(row.hash);
}

void MemoryStore::drop_token(const std::string& player, const std::string& id) {
  const auto held = token_hashes_.find(player);
  if (held == token_hashes_.end()) return;
  for (auto it = held->second.begin(); it != held->second.end();) {
    if (tokens_.at(*it).id == id) {
      tokens_.erase(*it);
      it = held->second.erase(it);
    } else {
      ++it;
    }
  }
  if (held->second.empty()) token_hashes_.erase(held);
}

void MemoryStore::put_rated_game(RatedGameRow& row) {
  rated_by_game_.emplace(row.room, row.game_no, row.player);
  RatedKey key{row.player, row.room, row.game_no};
  rated_.insert_or_assign(std::move(key), std::move(row));
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

std::optional<PlayerRow> MemoryStore::player(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = players_.find(id);
  if (it == players_.end()) return std::nullopt;
  return it->second;
}

std::optional<PlayerRow> MemoryStore::player_named(const std::string& name_key) {
  std::lock_guard lock(mutex_);
  const auto it = named_.find(name_key);  // a guest's "" is never there
  if (it == named_.end()) return std::nullopt;
  return players_.at(it->second);
}

std::optional<SessionRow> MemoryStore::session(const std::string& hash) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(hash);
  if (it == sessions_.end()) return std::nullopt;
  return it->second;
}

std::vector<SessionRow> MemoryStore::sessions(const std::string& player) {
  std::lock_guard lock(mutex_);
  std::vector<SessionRow> out;
  const auto held = held_.find(player);
  if (held == held_.end()) return out;
  for (const std::string& hash : held->second) out.push_back(sessions_.at(hash));
  // The latest seen first, then by hash (sql_core.cpp's Sessions).
  std::sort(out.begin(), out.end(), [](const SessionRow& a, const SessionRow& b) {
    return std::tie(b.seen_ms, a.hash) < std::tie(a.seen_ms, b.hash);
  });
  return out;
}

std::vector<RatingRow> MemoryStore::ratings(const std::string& player) {
  std::lock_guard lock(mutex_);
  std::vector<RatingRow> out;
  for (const auto& [perf, by_player] : ratings_) {  // perf order (a std::map)
    if (auto it = by_player.find(player); it != by_player.end()) out.push_back(it->second);
  }
  return out;
}

std::optional<TokenRow> MemoryStore::token(const std::string& hash) {
  std::lock_guard lock(mutex_);
  const auto it = tokens_.find(hash);
  if (it == tokens_.end()) return std::nullopt;
  return it->second;
}

std::vector<TokenRow> MemoryStore::tokens(const std::string& player) {
  std::lock_guard lock(mutex_);
  std::vector<TokenRow> out;
  const auto held = token_hashes_.find(player);
  if (held == token_hashes_.end()) return out;
  for (const std::string& hash : held->second) out.push_back(tokens_.at(hash));
  // The newest first, then by hash (sql_core.cpp's Tokens).
  std::sort(out.begin(), out.end(), [](const TokenRow& a, const TokenRow& b) {
    return std::tie(b.created_ms, a.hash) < std::tie(a.created_ms, b.hash);
  });
  return out;
}

std::vector<RankedRow> MemoryStore::leaderboard(const std::string& perf, double max_deviation,
                                                int limit) {
  std::lock_guard lock(mutex_);
  std::vector<RankedRow> out;
  const auto board = ratings_.find(perf);
  if (board == ratings_.end()) return out;
  std::vector<std::pair<const RatingRow*, const PlayerRow*>> ranked;
  for (const auto& [id, rating] : board->second) {
    if (!(rating.deviation < max_deviation)) continue;
    const auto p = players_.find(id);
    if (p != players_.end() && !p->second.name.empty()) ranked.emplace_back(&rating, &p->second);
  }
  // Highest first, then by name_key and id (sql_core.cpp's Leaderboard).
  const auto better = [](const auto& a, const auto& b) {
    return std::tie(b.first->rating, a.second->name_key, a.second->id) <
           std::tie(a.first->rating, b.second->name_key, b.second->id);
  };
  const std::size_t n =
      std::min(ranked.size(), static_cast<std::size_t>(std::clamp(limit, 1, kLeaderboardMax)));
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end(),
                    better);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({*ranked[i].first, ranked[i].second->name, ranked[i].second->bot});
  }
  return out;
}

std::vector<RatedGameRow> MemoryStore::rated_games(const std::string& player,
                                                   const std::string& perf, int limit) {
  std::lock_guard lock(mutex_);
  std::vector<const RatedGameRow*> all;
  for (auto it = rated_.lower_bound(RatedKey{player, "", std::numeric_limits<int>::min()});
       it != rated_.end() && std::get<0>(it->first) == player; ++it) {
    if (perf.empty() || it->second.perf == perf) all.push_back(&it->second);
  }
  // The latest first, then by room and game, both descending (sql_core.cpp's RatedGames).
  const auto latest_first = [](const RatedGameRow* a, const RatedGameRow* b) {
    return std::tie(b->ended_ms, b->room, b->game_no) < std::tie(a->ended_ms, a->room, a->game_no);
  };
  const std::size_t n = std::min(all.size(), static_cast<std::size_t>(std::max(limit, 0)));
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    latest_first);
  std::vector<RatedGameRow> out;
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
      // Its players' rated_games rows (sql_core.cpp's DeleteRatedGames).
      for (auto it = rated_by_game_.lower_bound({id, no, ""});
           it != rated_by_game_.end() && std::get<0>(*it) == id && std::get<1>(*it) == no;) {
        rated_.erase(RatedKey{std::get<2>(*it), id, no});
        it = rated_by_game_.erase(it);
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
  // The players' rows, counted in the estimate only.
  for (const auto& [id, p] : players_) {
    size.page_bytes += sizeof(PlayerRow) + text_bytes(p.id) + text_bytes(p.name) +
                       text_bytes(p.name_key) + text_bytes(p.password_hash);
  }
  for (const auto& [hash, s] : sessions_) {
    size.page_bytes +=
        sizeof(SessionRow) + text_bytes(s.hash) + text_bytes(s.player) + text_bytes(s.label);
  }
  for (const auto& [perf, by_player] : ratings_) {
    for (const auto& [id, r] : by_player) {
      size.page_bytes += sizeof(RatingRow) + text_bytes(r.player) + text_bytes(r.perf);
    }
  }
  for (const auto& [key, g] : rated_) {
    size.page_bytes += sizeof(RatedGameRow) + text_bytes(g.player) + text_bytes(g.room) +
                       text_bytes(g.perf) + text_bytes(g.opponent);
  }
  stats_.size = size;
  return size;
}

Stats MemoryStore::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace bc::store
