// The SQLite store's insides, shared by its files: the statements, the store itself (SqliteStore)
// and one read (Read). Not installed: only store/src includes it.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bc/store.hpp"
#include "group_commit.hpp"
#include "sql_core.hpp"

namespace bc::store::detail {

// Statements the writer runs for every batch, prepared once for the connection's life: parsing
// their SQL each time cost as much as running them (perf, closed-loop load). Used under db_mutex.
class StmtCache {
 public:
  ~StmtCache() { clear(); }
  // The statement for `sql` (a string literal: keyed by its address); null if it does not prepare.
  sqlite3_stmt* get(sqlite3* db, const char* sql) {
    sqlite3_stmt*& s = stmts_[sql];
    if (s == nullptr) sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr);
    return s;
  }
  // Before the connection closes: it cannot close with statements still open.
  void clear() {
    for (auto& [sql, s] : stmts_) sqlite3_finalize(s);
    stmts_.clear();
  }

 private:
  std::unordered_map<const char*, sqlite3_stmt*> stmts_;
};

// A prepared statement that finalizes itself, or a cached one that it resets when done; its
// current row as the shared SQL reads rows (sql::Row).
class Stmt final : public sql::Row {
 public:
  Stmt(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); }
  Stmt(StmtCache& cache, sqlite3* db, const char* sql) : stmt_(cache.get(db, sql)), cached_(true) {}
  ~Stmt() override {
    if (!cached_) {
      sqlite3_finalize(stmt_);
    } else if (stmt_ != nullptr) {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  bool ok() const { return stmt_ != nullptr; }
  Stmt& bind(int i, std::string_view s) {
    // Static: every bound string outlives the statement's step (reset follows in the destructor).
    sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
    return *this;
  }
  Stmt& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Stmt& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  Stmt& bind(int i, const sql::Value& v) {
    if (const auto* n = std::get_if<std::int64_t>(&v)) return bind(i, *n);
    if (const auto* x = std::get_if<double>(&v)) return bind(i, *x);
    if (const auto* t = std::get_if<std::string_view>(&v)) return bind(i, *t);
    sqlite3_bind_null(stmt_, i);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return stmt_ == nullptr ? SQLITE_ERROR : sqlite3_step(stmt_); }
  bool run() { return step() == SQLITE_DONE; }
  std::string text(int col) const override {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
  }
  std::int64_t int64(int col) const override { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const override { return sqlite3_column_double(stmt_, col); }
  bool null(int col) const override { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  bool cached_ = false;
};

inline bool exec(sqlite3* db, const char* sql, std::string* error = nullptr) {
  char* msg = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
  if (rc != SQLITE_OK && error != nullptr) *error = msg != nullptr ? msg : sqlite3_errstr(rc);
  sqlite3_free(msg);
  return rc == SQLITE_OK;
}

// The store's SQL (sql_core.hpp) on one SQLite connection: the writer's statements from its
// cache, a reader's prepared for the one run.
class SqliteConnection final : public sql::Connection {
 public:
  explicit SqliteConnection(sqlite3* db, StmtCache* cache = nullptr) : db_(db), cache_(cache) {}
  bool query(const sql::Bound& b, const std::function<void(const sql::Row&)>& each) override {
    return step(b, &each, nullptr);
  }
  bool run(const sql::Bound& b, std::uint64_t* changed = nullptr) override {
    return step(b, nullptr, changed);
  }

 private:
  bool step(const sql::Bound& b, const std::function<void(const sql::Row&)>* each,
            std::uint64_t* changed) {
    const char* sql = sql::text(b.q, sql::Dialect::Sqlite);
    Stmt s = cache_ != nullptr ? Stmt(*cache_, db_, sql) : Stmt(db_, sql);
    for (int i = 0; i < b.size; ++i) s.bind(i + 1, b.values[static_cast<std::size_t>(i)]);
    int rc = SQLITE_ROW;
    while ((rc = s.step()) == SQLITE_ROW) {
      if (each != nullptr) (*each)(s);
    }
    if (rc != SQLITE_DONE) return false;
    if (changed != nullptr) *changed += static_cast<std::uint64_t>(sqlite3_changes(db_));
    return true;
  }

  sqlite3* db_;
  StmtCache* cache_;
};

}  // namespace bc::store::detail

namespace bc::store {

using detail::exec;
using detail::SqliteConnection;
using detail::Stmt;
using detail::StmtCache;

class SqliteStore final : public Store {
 public:
  // nullptr and why if `path` cannot be opened, is damaged or has a later schema.
  static std::unique_ptr<Store> open(const std::string& path, std::string& error);
  SqliteStore()
      : writer([this](const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
                      std::size_t& writes) { return commit(batch, entry_ok, writes); }) {}
  ~SqliteStore() override {
    stop_maintenance();  // the thread uses this store: stopped before its members go
    writer.stop();
    cache.clear();
    for (sqlite3* r : idle_readers) sqlite3_close(r);
    if (db != nullptr) sqlite3_close(db);
  }

  void submit(std::vector<Write> writes, Done done) override;
  void flush() override { writer.flush(); }
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
  Stats stats() const override { return writer.stats(); }
  const std::string& path() const override { return path_; }
  Backend backend() const override { return Backend::Sqlite; }
  std::pair<std::uint64_t, std::uint64_t> file_bytes() const override;

  // The maintenance is stopping, or the store is closing: a prune stops between transactions.
  bool stopping() const { return maintenance_stopping() || writer.stopping(); }

  std::string path_;
  sqlite3* db = nullptr;
  std::mutex db_mutex;  // the writer's connection: held for a batch (and by readers in memory)
  StmtCache cache;      // the writer's statements

  // Readers have connections of their own: in WAL mode a read never waits for a commit, and a
  // commit never waits for a read. Idle ones are kept for the next read; an in-memory database
  // is one connection only, so there readers share the writer's, under db_mutex.
  static constexpr std::size_t kIdleReadersMax = 4;
  std::mutex readers_mutex;
  std::vector<sqlite3*> idle_readers;
  std::atomic<std::uint64_t> reader_connections{0};

  bool inline_writes = false;  // an in-memory database: submit() writes on the caller's thread
  detail::GroupCommit writer;  // the queue, the writer thread and the counters

  // A connection to read on; give it back with release_reader. Null for an in-memory database
  // (or if a reader cannot be opened): then read on `db` under db_mutex.
  sqlite3* acquire_reader() {
    if (inline_writes) return nullptr;
    {
      std::lock_guard lock(readers_mutex);
      if (!idle_readers.empty()) {
        sqlite3* r = idle_readers.back();
        idle_readers.pop_back();
        return r;
      }
    }
    sqlite3* r = nullptr;
    if (sqlite3_open_v2(path_.c_str(), &r, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      sqlite3_close(r);
      return nullptr;
    }
    sqlite3_busy_timeout(r, 5000);
    reader_connections.fetch_add(1, std::memory_order_relaxed);
    return r;
  }
  void release_reader(sqlite3* r) {
    if (r == nullptr) return;
    {
      std::lock_guard lock(readers_mutex);
      if (idle_readers.size() < kIdleReadersMax) {
        idle_readers.push_back(r);
        return;
      }
    }
    sqlite3_close(r);
  }

  // One write's statements (sql::statements_of) on the writer's connection.
  bool apply(const Write& w) {
    bounds.clear();
    sql::statements_of(w, bounds);
    SqliteConnection c(db, &cache);
    for (const sql::Bound& b : bounds) {
      if (!c.run(b)) return false;
    }
    return true;
  }
  std::vector<sql::Bound> bounds;  // apply's, kept for their capacity

  // One transaction for `batch`; with `savepoints`, each submission in its own savepoint (its
  // failure recorded in entry_ok), else any failed write fails the whole transaction.
  bool write_batch(const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
                   bool savepoints, std::size_t& writes) {
    bool ok = Stmt(cache, db, "BEGIN IMMEDIATE").run();
    for (std::size_t i = 0; ok && i < batch.size(); ++i) {
      bool entry = !savepoints || Stmt(cache, db, "SAVEPOINT w").run();
      for (const Write& w : batch[i].first) {
        entry = entry && apply(w);
        ++writes;
      }
      if (savepoints) {
        if (!entry) exec(db, "ROLLBACK TO w");
        Stmt(cache, db, "RELEASE w").run();
        entry_ok[i] = entry ? 1 : 0;
      } else {
        ok = entry;
      }
    }
    ok = ok && Stmt(cache, db, "COMMIT").run();
    if (!ok) exec(db, "ROLLBACK");
    return ok;
  }

  // Writes `batch` in one transaction (GroupCommit::Commit).
  bool commit(const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
              std::size_t& writes) {
    std::lock_guard db_lock(db_mutex);
    // Writes almost never fail: the whole batch goes in one transaction first. Only if one
    // fails is it written again with a savepoint per submission, so that a bad write fails
    // its own submission and no other (three statements per action instead of one otherwise).
    if (write_batch(batch, entry_ok, false, writes)) return true;
    std::fill(entry_ok.begin(), entry_ok.end(), 1);
    writes = 0;
    return write_batch(batch, entry_ok, true, writes);
  }
};

// One read: a reader connection of its own, or the writer's under its mutex (in memory). Each read
// runs in one transaction, so its queries see one committed state.
class Read {
 public:
  // One statement is a transaction by itself: `Single` skips BEGIN and COMMIT.
  enum Span : std::uint8_t { Several, Single };
  explicit Read(SqliteStore& impl, Span span = Several)
      : impl_(impl), own_(impl.acquire_reader()), transaction_(span == Several) {
    if (own_ == nullptr) shared_ = std::unique_lock(impl.db_mutex);
    if (transaction_) exec(db(), "BEGIN");
  }
  ~Read() {
    if (transaction_) exec(db(), "COMMIT");
    impl_.release_reader(own_);
  }
  Read(const Read&) = delete;
  Read& operator=(const Read&) = delete;
  sqlite3* db() const { return own_ != nullptr ? own_ : impl_.db; }

 private:
  SqliteStore& impl_;
  sqlite3* own_;
  bool transaction_;
  std::unique_lock<std::mutex> shared_;
};

}  // namespace bc::store
