// PostgreSQL store: opening (schema, checks) and the writer. Group commit as in SQLite: the writer
// thread takes every queued submission and commits them in one transaction, sent as one pipeline
// (one round trip for the whole batch, not one per row), and runs the callbacks only once COMMIT
// has answered, with synchronous_commit on: the commit is flushed to disk before that.
#include "pg_store.hpp"

#include <algorithm>

namespace bc::store {
namespace {

// The same schema number as the SQLite store's: the same tables and columns.
constexpr int kSchemaVersion = 2;

// Servers starting on one empty database together take turns to create it (the key is arbitrary,
// the store's own).
constexpr const char* kSchemaLock = "SELECT pg_advisory_xact_lock(7382515361)";

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(
  id TEXT PRIMARY KEY,
  setup TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  game_no INTEGER NOT NULL DEFAULT 1,
  retired SMALLINT NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats(
  room TEXT NOT NULL,
  side INTEGER NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  PRIMARY KEY(room, side));
CREATE TABLE IF NOT EXISTS games(
  room TEXT NOT NULL,
  game_no INTEGER NOT NULL,
  result TEXT NOT NULL DEFAULT '',
  started_ms BIGINT NOT NULL,
  ended_ms BIGINT NOT NULL DEFAULT 0,
  players TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(room, game_no));
CREATE TABLE IF NOT EXISTS actions(
  room TEXT NOT NULL,
  game_no INTEGER NOT NULL,
  version BIGINT NOT NULL,
  side INTEGER NOT NULL,
  action TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  left0_ms BIGINT,
  left1_ms BIGINT,
  PRIMARY KEY(room, game_no, version));
CREATE INDEX IF NOT EXISTS rooms_active ON rooms(retired, created_ms);
)sql";

// The writer's statements, prepared once per connection. Upserts where SQLite has INSERT OR
// REPLACE (the rows have no other columns, so replacing and updating are the same).
struct Prepared {
  const char* name;
  const char* sql;
};
constexpr Prepared kPutRoom{
    "bc_put_room",
    "INSERT INTO rooms(id, setup, created_ms, game_no, retired) VALUES($1,$2,$3,$4,$5) "
    "ON CONFLICT(id) DO UPDATE SET setup=excluded.setup, game_no=excluded.game_no, "
    "retired=excluded.retired"};
constexpr Prepared kPutSeat{
    "bc_put_seat",
    "INSERT INTO seats(room, side, name, token_hash) VALUES($1,$2,$3,$4) "
    "ON CONFLICT(room, side) DO UPDATE SET name=excluded.name, token_hash=excluded.token_hash"};
constexpr Prepared kFreeSeat{"bc_free_seat", "DELETE FROM seats WHERE room=$1 AND side=$2"};
constexpr Prepared kPutGame{
    "bc_put_game",
    "INSERT INTO games(room, game_no, result, started_ms, ended_ms, players) "
    "VALUES($1,$2,$3,$4,$5,$6) ON CONFLICT(room, game_no) DO UPDATE SET result=excluded.result, "
    "started_ms=excluded.started_ms, ended_ms=excluded.ended_ms, players=excluded.players"};
constexpr Prepared kRaiseGameNo{"bc_raise_game_no",
                                "UPDATE rooms SET game_no=GREATEST(game_no, $1) WHERE id=$2"};
constexpr Prepared kAppendAction{
    "bc_append_action",
    "INSERT INTO actions(room, game_no, version, side, action, at_ms, left0_ms, left1_ms) "
    "VALUES($1,$2,$3,$4,$5,$6,$7,$8)"};
constexpr Prepared kRetire{"bc_retire", "UPDATE rooms SET retired=1 WHERE id=$1"};
constexpr Prepared kAll[] = {kPutRoom,     kPutSeat,      kFreeSeat, kPutGame,
                             kRaiseGameNo, kAppendAction, kRetire};

// Statements a pipeline holds before the writer reads their answers: the answers the server
// buffers stay small, so neither side can block on a full socket.
constexpr std::size_t kWindow = 512;

struct Statement {
  const Prepared* stmt;
  pg::Params params;
};

// The statements of one write, in order.
void statements_of(const Write& w, std::vector<Statement>& out) {
  if (const auto* r = std::get_if<PutRoom>(&w)) {
    pg::Params p;
    p.add(r->row.id).add(r->row.setup).add(r->row.created_ms).add(r->row.game_no);
    p.add(r->row.retired ? 1 : 0);
    out.push_back({&kPutRoom, std::move(p)});
  } else if (const auto* s = std::get_if<PutSeat>(&w)) {
    pg::Params p;
    p.add(s->row.room).add(s->row.side).add(s->row.name).add(s->row.token_hash);
    out.push_back({&kPutSeat, std::move(p)});
  } else if (const auto* f = std::get_if<FreeSeat>(&w)) {
    pg::Params p;
    p.add(f->room).add(f->side);
    out.push_back({&kFreeSeat, std::move(p)});
  } else if (const auto* g = std::get_if<PutGame>(&w)) {
    pg::Params p;
    p.add(g->row.room).add(g->row.game_no).add(g->row.result).add(g->row.started_ms);
    p.add(g->row.ended_ms).add(g->row.players);
    out.push_back({&kPutGame, std::move(p)});
    pg::Params raise;
    raise.add(g->row.game_no).add(g->row.room);
    out.push_back({&kRaiseGameNo, std::move(raise)});
  } else if (const auto* a = std::get_if<AppendAction>(&w)) {
    pg::Params p;
    p.add(a->row.room).add(a->row.game_no).add(a->row.version).add(a->row.side);
    p.add(a->row.action).add(a->row.at_ms);
    if (a->row.left_ms) {
      p.add((*a->row.left_ms)[0]).add((*a->row.left_ms)[1]);
    } else {
      p.null().null();
    }
    out.push_back({&kAppendAction, std::move(p)});
  } else {
    pg::Params p;
    p.add(std::get<RetireRoom>(w).room);
    out.push_back({&kRetire, std::move(p)});
  }
}

// Every connection: commits wait for the disk. A server configured with synchronous_commit=off
// would answer COMMIT before its WAL is flushed, and an announced action could be lost.
bool session_setup(pg::Conn& c, std::string& why) {
  pg::Result r = c.exec("SHOW synchronous_commit");
  if (!r.ok() || r.rows() != 1) {
    why = c.message(r);
    return false;
  }
  return r.text(0, 0) != "off" || c.run("SET synchronous_commit = on", &why);
}

bool writer_setup(pg::Conn& c, std::string& why) {
  if (!session_setup(c, why)) return false;
  for (const Prepared& p : kAll) {
    pg::Result r(PQprepare(c.get(), p.name, p.sql, 0, nullptr));
    if (!r.ok()) {
      why = c.message(r);
      return false;
    }
  }
  return true;
}

}  // namespace

PgStore::PgStore(std::string url)
    : url_(std::move(url)),
      shown_(redact(url_)),
      db_(url_, writer_setup),
      writer_([this](const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
                     std::size_t& writes) { return commit(batch, entry_ok, writes); }) {}

PgStore::~PgStore() {
  stop_maintenance();  // the thread uses this store: stopped before its members go
  writer_.stop();
}

std::unique_ptr<Store> PgStore::open(const std::string& url, std::string& error) {
  auto store = std::make_unique<PgStore>(url);
  const std::string& shown = store->shown_;
  std::string why;
  {
    // The schema first, on a connection of its own: the writer's prepares its statements on
    // the tables.
    pg::Conn c(url, session_setup);
    if (!c.ensure(&why)) {
      error = "cannot connect to PostgreSQL at " + shown + ": " + why;
      return nullptr;
    }
    pg::Result enc = c.exec("SHOW server_encoding");
    const std::string encoding = enc.ok() && enc.rows() == 1 ? enc.text(0, 0) : "";
    if (encoding != "UTF8" && encoding != "SQL_ASCII") {
      error = "PostgreSQL database " + shown + " has encoding " + encoding +
              ", the store needs UTF8 (CREATE DATABASE ... ENCODING 'UTF8')";
      return nullptr;
    }
    std::string found;
    const bool made =
        c.run("BEGIN", &why) && c.run(kSchemaLock, &why) && c.run(kSchema, &why) && [&] {
          pg::Result v = c.exec("SELECT value FROM meta WHERE key='schema'");
          if (!v.ok()) {
            why = c.message(v);
            return false;
          }
          if (v.rows() == 1) found = v.text(0, 0);
          return true;
        }();
    if (made && !found.empty() && found != std::to_string(kSchemaVersion)) {
      c.run("ROLLBACK");
      error = "PostgreSQL database " + shown + " has schema version " + found +
              ", this server reads " + std::to_string(kSchemaVersion);
      return nullptr;
    }
    // A write proves the user may write (and the mark tells a later server what it reads).
    pg::Params mark;
    mark.add(std::to_string(kSchemaVersion));
    const bool marked =
        made &&
        c.exec("INSERT INTO meta(key, value) VALUES('schema', $1) ON CONFLICT(key) DO NOTHING",
               mark)
            .ok() &&
        c.run("COMMIT", &why);
    if (!marked) {
      if (why.empty()) why = c.message(pg::Result());
      c.run("ROLLBACK");
      error = "cannot use PostgreSQL database " + shown + ": " + why;
      return nullptr;
    }
  }
  if (!store->db_.ensure(&why)) {
    error = "cannot use PostgreSQL database " + shown + ": " + why;
    return nullptr;
  }
  store->writer_.start();
  return store;
}

void PgStore::submit(std::vector<Write> writes, Done done) {
  writer_.submit(std::move(writes), std::move(done));
}

bool PgStore::commit(const detail::GroupCommit::Batch& batch, std::vector<char>& entry_ok,
                     std::size_t& writes) {
  std::lock_guard lock(db_mutex_);
  // A connection found broken (the server restarted since the last batch) is made anew first;
  // if no connection can be had, the batch fails whole and the next one tries again.
  if (!db_.ensure()) return false;
  // Writes almost never fail: the whole batch goes in one transaction first. Only if one of them
  // fails (not the connection) is it written again with a savepoint per submission, so that a
  // bad write fails its own submission and no other.
  if (write_pipelined(batch, writes)) return true;
  if (db_.broken()) {
    // Lost midway: perhaps committed, perhaps not. Reported failed; the server rebuilds the
    // rooms from the store, which then says which.
    db_.close();
    return false;
  }
  std::fill(entry_ok.begin(), entry_ok.end(), 1);
  writes = 0;
  return write_with_savepoints(batch, entry_ok, writes);
}

bool PgStore::write_pipelined(const detail::GroupCommit::Batch& batch, std::size_t& writes) {
  PGconn* c = db_.get();
  if (PQenterPipelineMode(c) != 1) return false;
  std::size_t sent = 0;
  std::size_t answered = 0;
  bool failed = false;
  bool committed = false;
  // Reads the answers to everything sent so far; any that is not a success fails the batch.
  auto answers = [&] {
    while (answered < sent) {
      pg::Result r(PQgetResult(c));
      if (r.get() == nullptr) return false;  // the connection went
      const auto status = r.status();
      if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) failed = true;
      const char* tag = PQcmdStatus(r.get());
      committed = status == PGRES_COMMAND_OK && tag != nullptr && std::string_view(tag) == "COMMIT";
      pg::Result end(PQgetResult(c));  // the null that closes this statement's answers
      ++answered;
    }
    return true;
  };
  auto send = [&](const char* name, pg::Params* p) {
    const int rc = p == nullptr
                       ? PQsendQueryParams(c, name, 0, nullptr, nullptr, nullptr, nullptr, 0)
                       : PQsendQueryPrepared(c, name, p->size(), p->values(), nullptr, nullptr, 0);
    if (rc != 1) return false;
    ++sent;
    if (sent - answered < kWindow) return true;
    return PQsendFlushRequest(c) == 1 && PQflush(c) == 0 && answers() && !failed;
  };
  bool ok = send("BEGIN", nullptr);
  std::vector<Statement> statements;
  for (std::size_t i = 0; ok && i < batch.size(); ++i) {
    for (const Write& w : batch[i].first) {
      statements.clear();
      statements_of(w, statements);
      for (Statement& s : statements) ok = ok && send(s.stmt->name, &s.params);
      ++writes;
    }
  }
  ok = ok && send("COMMIT", nullptr);
  // The sync ends the pipeline; after a failure, the server skips everything up to it.
  ok = PQpipelineSync(c) == 1 && ok;
  ok = answers() && ok;
  pg::Result sync(PQgetResult(c));
  ok = ok && sync.status() == PGRES_PIPELINE_SYNC;
  if (PQexitPipelineMode(c) != 1) {
    PQclear(PQgetResult(c));                      // a last null, if one is left
    if (PQexitPipelineMode(c) != 1) db_.close();  // out of step: start afresh
  }
  if (db_.broken()) return false;
  if (PQtransactionStatus(c) != PQTRANS_IDLE) db_.run("ROLLBACK");
  return ok && !failed && committed;
}

bool PgStore::write_with_savepoints(const detail::GroupCommit::Batch& batch,
                                    std::vector<char>& entry_ok, std::size_t& writes) {
  bool ok = db_.run("BEGIN");
  std::vector<Statement> statements;
  for (std::size_t i = 0; ok && i < batch.size(); ++i) {
    ok = db_.run("SAVEPOINT w");
    bool entry = ok;
    for (const Write& w : batch[i].first) {
      statements.clear();
      statements_of(w, statements);
      for (Statement& s : statements)
        entry = entry && db_.exec_prepared(s.stmt->name, s.params).ok();
      ++writes;
    }
    if (!entry) ok = ok && db_.run("ROLLBACK TO SAVEPOINT w");
    ok = ok && db_.run("RELEASE SAVEPOINT w");
    entry_ok[i] = entry ? 1 : 0;
  }
  if (ok) {
    pg::Result r = db_.exec("COMMIT");
    const char* tag = r.get() != nullptr ? PQcmdStatus(r.get()) : nullptr;
    ok = r.ok() && tag != nullptr && std::string_view(tag) == "COMMIT";
  }
  if (db_.broken()) {
    db_.close();
    return false;
  }
  if (!ok && PQtransactionStatus(db_.get()) != PQTRANS_IDLE) db_.run("ROLLBACK");
  return ok;
}

}  // namespace bc::store
