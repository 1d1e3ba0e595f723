// PostgreSQL store: opening (schema, checks) and the writer. Group commit as in SQLite: the writer
// thread takes every queued submission and commits them in one transaction, sent as one pipeline
// (one round trip for the whole batch, not one per row), and runs the callbacks only once COMMIT
// has answered, with synchronous_commit on: the commit is flushed to disk before that.
#include "pg_store.hpp"

#include <algorithm>

namespace bc::store {
namespace {

// The same schema as the SQLite store's (sql_core.hpp): the same tables and columns.
using sql::kSchema;
using sql::kSchemaVersion;

// Servers starting on one empty database together take turns to create it (the key is arbitrary,
// the store's own).
constexpr const char* kSchemaLock = "SELECT pg_advisory_xact_lock(7382515361)";

// Statements a pipeline holds before the writer reads their answers: the answers the server
// buffers stay small, so neither side can block on a full socket.
constexpr std::size_t kWindow = 512;

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
  // The writer's statements, prepared once per connection.
  for (const sql::Q q : sql::kWrites) {
    pg::Result r(
        PQprepare(c.get(), sql::name(q), sql::text(q, sql::Dialect::Postgres), 0, nullptr));
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
  std::vector<sql::Bound> statements;
  for (std::size_t i = 0; ok && i < batch.size(); ++i) {
    for (const Write& w : batch[i].first) {
      statements.clear();
      sql::statements_of(w, statements);
      for (const sql::Bound& b : statements) {
        pg::Params p = pg::params_of(b);
        ok = ok && send(sql::name(b.q), &p);
      }
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
  std::vector<sql::Bound> statements;
  for (std::size_t i = 0; ok && i < batch.size(); ++i) {
    ok = db_.run("SAVEPOINT w");
    bool entry = ok;
    for (const Write& w : batch[i].first) {
      statements.clear();
      sql::statements_of(w, statements);
      for (const sql::Bound& b : statements) {
        pg::Params p = pg::params_of(b);
        entry = entry && db_.exec_prepared(sql::name(b.q), p).ok();
      }
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
