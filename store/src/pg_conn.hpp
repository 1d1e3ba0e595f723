// libpq, wrapped for the PostgreSQL store: a connection that reconnects, results that free
// themselves, and text parameters (data only ever goes to the server as parameters, never into the
// SQL). Not installed: only store/src includes it.
#pragma once

#include <libpq-fe.h>
#include <poll.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bc::store::pg {

// A PGresult that frees itself.
class Result {
 public:
  Result() = default;
  explicit Result(PGresult* r) : r_(r) {}
  ~Result() { PQclear(r_); }
  Result(Result&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
  Result& operator=(Result&& o) noexcept {
    std::swap(r_, o.r_);
    return *this;
  }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;

  PGresult* get() const { return r_; }
  ExecStatusType status() const { return r_ == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(r_); }
  // A command, or a query with its rows.
  bool ok() const {
    const auto s = status();
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
  }
  int rows() const { return r_ == nullptr ? 0 : PQntuples(r_); }
  bool null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  std::string text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col),
                       static_cast<std::size_t>(PQgetlength(r_, row, col)));
  }
  std::int64_t int64(int row, int col) const {
    const char* v = PQgetvalue(r_, row, col);
    std::int64_t out = 0;
    std::from_chars(v, v + PQgetlength(r_, row, col), out);
    return out;
  }
  int int32(int row, int col) const { return static_cast<int>(int64(row, col)); }
  // A DOUBLE PRECISION as PostgreSQL 12 and later write it: the shortest text that reads back
  // exactly (extra_float_digits 1, the default).
  double real(int row, int col) const {
    const char* v = PQgetvalue(r_, row, col);
    double out = 0;
    std::from_chars(v, v + PQgetlength(r_, row, col), out);
    return out;
  }
  // Rows a DELETE or UPDATE touched.
  std::uint64_t changed() const {
    return r_ == nullptr ? 0 : std::strtoull(PQcmdTuples(r_), nullptr, 10);
  }
  std::string error() const {
    return r_ == nullptr ? "no result" : std::string(PQresultErrorMessage(r_));
  }

 private:
  PGresult* r_ = nullptr;
};

// Text parameters for one statement ($1, $2, ...); a null is a parameter without a value.
class Params {
 public:
  Params& add(std::string_view s) {
    values_.emplace_back(s);
    nulls_.push_back(false);
    return *this;
  }
  Params& add(std::int64_t v) { return add(std::string_view(std::to_string(v))); }
  Params& add(int v) { return add(static_cast<std::int64_t>(v)); }
  // The shortest text that reads back as exactly `v`.
  Params& add(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return add(std::string_view(text, static_cast<std::size_t>(end - text)));
  }
  Params& null() {
    values_.emplace_back();
    nulls_.push_back(true);
    return *this;
  }
  int size() const { return static_cast<int>(values_.size()); }
  // The pointers libpq takes; valid while this object is not changed.
  const char* const* values() {
    pointers_.clear();
    for (std::size_t i = 0; i < values_.size(); ++i)
      pointers_.push_back(nulls_[i] ? nullptr : values_[i].c_str());
    return pointers_.data();
  }

 private:
  std::vector<std::string> values_;
  std::vector<bool> nulls_;
  std::vector<const char*> pointers_;
};

// One connection to the URL's database. It reconnects when it finds itself broken (the server
// restarted, the network dropped it); whatever was under way on the broken one has failed.
class Conn {
 public:
  // `setup` runs after each connect (session settings, prepared statements): false fails it.
  explicit Conn(std::string url, std::function<bool(Conn&, std::string&)> setup = {})
      : url_(std::move(url)), setup_(std::move(setup)) {}
  ~Conn() { close(); }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  // A usable connection: the current one if it is still good, else a new one. False and why if
  // none can be had. Cheap when the connection is good: a poll of its socket, no round trip.
  bool ensure(std::string* why = nullptr) {
    if (conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK) {
      // Nothing is ever sent to an idle connection of ours (no LISTEN) but the server's goodbye
      // when it shuts down or drops us ("terminating connection ..." and the end of the
      // stream): anything to read finds it broken before a batch is sent on it, and a new one
      // is made.
      pollfd p{PQsocket(conn_), POLLIN, 0};
      if (::poll(&p, 1, 0) != 0) return connect(why);
      if (PQstatus(conn_) == CONNECTION_OK) {
        if (PQtransactionStatus(conn_) == PQTRANS_IDLE) return true;
        // Left inside a transaction (an error midway): end it before anything else.
        PQclear(PQexec(conn_, "ROLLBACK"));
        if (PQstatus(conn_) == CONNECTION_OK && PQtransactionStatus(conn_) == PQTRANS_IDLE)
          return true;
      }
    }
    return connect(why);
  }

  // Drops the connection (the next ensure() makes a new one).
  void close() {
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = nullptr;
  }

  PGconn* get() const { return conn_; }
  bool broken() const { return conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK; }
  std::uint64_t connects() const { return connects_; }

  Result exec(const char* sql) const { return Result(PQexec(conn_, sql)); }
  Result exec(const char* sql, Params& p) const {
    return Result(PQexecParams(conn_, sql, p.size(), nullptr, p.values(), nullptr, nullptr, 0));
  }
  Result exec_prepared(const char* name, Params& p) const {
    return Result(PQexecPrepared(conn_, name, p.size(), p.values(), nullptr, nullptr, 0));
  }
  // A command or query without rows wanted: true if it succeeded; `why` otherwise.
  bool run(const char* sql, std::string* why = nullptr) const {
    Result r = exec(sql);
    if (!r.ok() && why != nullptr) *why = message(r);
    return r.ok();
  }
  std::string message(const Result& r) const {
    std::string m = r.get() != nullptr ? r.error() : std::string(PQerrorMessage(conn_));
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
  }

 private:
  bool connect(std::string* why) {
    close();
    // connect_timeout bounds a connect to a host that does not answer; TCP keepalives find a peer
    // that vanished while the connection idled, and tcp_user_timeout one that stops acknowledging
    // what is sent (a paused or cut-off server), so a query fails in seconds instead of hanging
    // the writer (TCP only: a Unix socket ignores them). The URL's own settings come after these,
    // so they win. UTF-8 both ways: the rows are UTF-8 text.
    const char* keys[] = {"connect_timeout",  "keepalives",
                          "keepalives_idle",  "keepalives_interval",
                          "keepalives_count", "tcp_user_timeout",
                          "application_name", "client_encoding",
                          "dbname",           nullptr};
    const char* values[] = {"5",    "1",          "30",   "10", "3", "20000", "bombcheckers",
                            "UTF8", url_.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    ++connects_;
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
      if (why != nullptr)
        *why = conn_ == nullptr ? "out of memory" : trimmed(PQerrorMessage(conn_));
      close();
      return false;
    }
    // libpq prints the server's notices on stderr by default ("relation exists, skipping").
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
    std::string setup_why;
    if (setup_ && !setup_(*this, setup_why)) {
      if (why != nullptr) *why = setup_why;
      close();
      return false;
    }
    return true;
  }

  static std::string trimmed(std::string m) {
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
  }

  std::string url_;
  std::function<bool(Conn&, std::string&)> setup_;
  PGconn* conn_ = nullptr;
  std::uint64_t connects_ = 0;
};

}  // namespace bc::store::pg
