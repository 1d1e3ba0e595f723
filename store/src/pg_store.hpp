// The PostgreSQL store (libpq): the same rows, guarantee and group commit as the SQLite one, for
// a database that several servers can reach. One writer connection on the writer thread; reads
// on connections of their own, from a small pool; each reconnects when it finds itself broken.
// Not installed: only store/src includes it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bc/store.hpp"
#include "group_commit.hpp"
#include "pg_conn.hpp"
#include "sql_core.hpp"

namespace bc::store {

namespace pg {

// A statement's parameters as libpq takes them: text, or null.
inline Params params_of(const sql::Bound& b) {
  Params p;
  for (int i = 0; i < b.size; ++i) {
    const sql::Value& v = b.values[static_cast<std::size_t>(i)];
    if (const auto* n = std::get_if<std::int64_t>(&v)) {
      p.add(*n);
    } else if (const auto* x = std::get_if<double>(&v)) {
      p.add(*x);
    } else if (const auto* t = std::get_if<std::string_view>(&v)) {
      p.add(*t);
    } else {
      p.null();
    }
  }
  return p;
}

// One row of a result, as the shared SQL reads rows.
class ResultRow final : public sql::Row {
 public:
  ResultRow(const Result& r, int row) : r_(r), row_(row) {}
  std::string text(int col) const override { return r_.text(row_, col); }
  std::int64_t int64(int col) const override { return r_.int64(row_, col); }
  double real(int col) const override { return r_.real(row_, col); }
  bool null(int col) const override { return r_.null(row_, col); }

 private:
  const Result& r_;
  int row_;
};

// The store's SQL (sql_core.hpp) on one connection.
class Connection final : public sql::Connection {
 public:
  explicit Connection(Conn& c) : c_(c) {}
  bool query(const sql::Bound& b, const std::function<void(const sql::Row&)>& each) override {
    Params p = params_of(b);
    Result r = c_.exec(sql::text(b.q, sql::Dialect::Postgres), p);
    if (!r.ok()) return false;
    for (int i = 0; i < r.rows(); ++i) each(ResultRow(r, i));
    return true;
  }
  bool run(const sql::Bound& b, std::uint64_t* changed = nullptr) override {
    Params p = params_of(b);
    Result r = c_.exec(sql::text(b.q, sql::Dialect::Postgres), p);
    if (changed != nullptr) *changed += r.changed();
    return r.ok();
  }

 private:
  Conn& c_;
};

}  // namespace pg

class PgStore final : public Store {
 public:
  // nullptr and why if the database cannot be reached, is not UTF-8, or has a later schema.
  static std::unique_ptr<Store> open(const std::string& url, std::string& error);
  explicit PgStore(std::string url);
  ~PgStore() override;

  void submit(std::vector<Write> writes, Done done) override;
  void flush() override { writer_.flush(); }
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
  bool compact(std::string& error) override;
  Stats stats() const override { return writer_.stats(); }
  const std::string& path() const override { return shown_; }
  Backend backend() const override { return Backend::Postgres; }
  std::pair<std::uint64_t, std::uint64_t> file_bytes() const override;

 private:
  // A connection of the pool, given back (if still good) when this goes.
  class Pooled {
   public:
    Pooled(PgStore& store, std::unique_ptr<pg::Conn> conn)
        : store_(store), conn_(std::move(conn)) {}
    ~Pooled() { store_.release(std::move(conn_)); }
    Pooled(const Pooled&) = delete;
    Pooled& operator=(const Pooled&) = delete;
    pg::Conn& operator*() const { return *conn_; }
    pg::Conn* operator->() const { return conn_.get(); }
    explicit operator bool() const { return conn_ != nullptr; }

   private:
    PgStore& store_;
    std::unique_ptr<pg::Conn> conn_;
  };

  // A usable connection other than the writer's (null if none can be had).
  Pooled acquire();
  void release(std::unique_ptr<pg::Conn> conn);
  // Runs `body` on a pooled connection, in one read-only transaction (one snapshot) when it runs
  // several queries (a single one is a transaction by itself). If the connection broke (the
  // server restarted), once more on a new one. False if it failed.
  enum class Span : std::uint8_t { Several, Single };
  bool read(const std::function<bool(pg::Conn&)>& body, Span span = Span::Several);

  bool commit(const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
              std::size_t& writes);
  bool write_pipelined(const detail::GroupCommit::Batch& batch, std::size_t& writes);
  bool write_with_savepoints(const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
                             std::size_t& writes);
  bool stopping() const { return maintenance_stopping() || writer_.stopping(); }
  friend class PgPruneRows;  // the prune's statements (pg_retention.cpp)

  std::string url_;
  std::string shown_;    // the URL without its password
  std::mutex db_mutex_;  // the writer's connection: held for a batch, and by a prune's transaction
  pg::Conn db_;
  static constexpr std::size_t kIdleReadersMax = 4;
  std::mutex pool_mutex_;
  std::vector<std::unique_ptr<pg::Conn>> idle_;
  std::atomic<std::uint64_t> last_size_bytes_{0};
  detail::GroupCommit writer_;
};

}  // namespace bc::store
