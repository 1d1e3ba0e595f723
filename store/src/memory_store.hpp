// The store of `serve --memory`: the same rows as the SQLite schema, held in maps, with no database
// under them. A submission is applied at once on the caller's thread, all of it or (a duplicate
// action) none of it, and answered before submit returns; nothing outlives the process.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bc/store.hpp"

namespace bc::store {

class MemoryStore final : public Store {
 public:
  MemoryStore() = default;
  ~MemoryStore() override { stop_maintenance(); }  // its thread reads these maps

  void submit(std::vector<Write> writes, Done done) override;
  void flush() override {}  // every submission is applied before submit returns
  std::vector<LoadedRoom> load_active_rooms() override;
  bool has_room(const std::string& id) override;
  std::optional<LoadedRoom> load_room(const std::string& id, int game_no) override;
  std::vector<ActionRow> actions(const std::string& room, int game_no) override;
  std::vector<RoomRow> recent_rooms(int limit) override;
  std::optional<PlayerRow> player(const std::string& id) override;
  std::optional<PlayerRow> player_named(const std::string& name_key) override;
  std::optional<SessionRow> session(const std::string& hash) override;
  std::vector<SessionRow> sessions(const std::string& player) override;
  std::vector<RatingRow> ratings(const std::string& player) override;
  std::optional<TokenRow> token(const std::string& hash) override;
  std::vector<TokenRow> tokens(const std::string& player) override;
  std::vector<RankedRow> leaderboard(const std::string& perf, double max_deviation,
                                     int limit) override;
  std::vector<RatedGameRow> rated_games(const std::string& player, const std::string& perf,
                                        int limit) override;
  Pruned prune(const Retention& keep, std::int64_t now_ms,
               const std::function<void(const Pruned&)>& deleted) override;
  Size measure() override;
  bool compact(std::string& /*error*/) override { return true; }  // nothing to give back
  Stats stats() const override;
  const std::string& path() const override { return path_; }
  Backend backend() const override { return Backend::Memory; }
  std::pair<std::uint64_t, std::uint64_t> file_bytes() const override { return {0, 0}; }

 private:
  // The SQLite tables' rows, keyed as their primary keys are (store/src/sqlite_store.cpp).
  // A room's seats, games and actions live apart from its row, as their tables do: a seat, game
  // or action of a room not (yet) written is kept, and shown once the room is.
  using Seats = std::map<int, SeatRow>;                   // by side
  using Games = std::map<int, GameRow>;                   // by game_no
  using Actions = std::map<int, std::vector<ActionRow>>;  // by game_no, each in version order

  // True if `writes` can all be applied: no action's (room, game, version) is already there.
  bool acceptable(const std::vector<Write>& writes) const;
  void apply(Write& w);
  // The players' writes (apply's), as their statements in sql_core.cpp do.
  void put_player(PlayerRow& row);
  void put_session(SessionRow& row);
  void drop_session(const std::string& hash);
  void drop_sessions(const std::string& player, const std::string& keep);
  void put_rated_game(RatedGameRow& row);
  void put_token(TokenRow& row);
  void drop_token(const std::string& player, const std::string& id);
  // A submission of one action (a move's): checked and applied with one lookup of its game.
  bool append(ActionRow& row);
  LoadedRoom load(const RoomRow& room, int game_no) const;
  std::vector<ActionRow> actions_of(const std::string& room, int game_no) const;

  const std::string path_ = ":memory: (no database)";
  mutable std::mutex mutex_;
  std::unordered_map<std::string, RoomRow> rooms_;
  std::unordered_map<std::string, Seats> seats_;
  std::unordered_map<std::string, Games> games_;
  std::unordered_map<std::string, Actions> actions_;

  // The players' tables, with the indexes their reads and the prune use (sql_core.cpp's).
  std::unordered_map<std::string, PlayerRow> players_;           // by id
  std::unordered_map<std::string, std::string> named_;           // a non-empty name_key's id
  std::unordered_map<std::string, SessionRow> sessions_;         // by hash
  std::unordered_map<std::string, std::set<std::string>> held_;  // a player's session hashes
  std::map<std::string, std::unordered_map<std::string, RatingRow>> ratings_;  // perf, player
  std::unordered_map<std::string, TokenRow> tokens_;                           // by hash
  std::unordered_map<std::string, std::set<std::string>> token_hashes_;        // a player's tokens
  using RatedKey = std::tuple<std::string, std::string, int>;  // player, room, game_no
  std::map<RatedKey, RatedGameRow> rated_;
  std::set<std::tuple<std::string, int, std::string>> rated_by_game_;  // room, game_no, player
  Stats stats_;
};

}  // namespace bc::store
