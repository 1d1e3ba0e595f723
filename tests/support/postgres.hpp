// A private PostgreSQL server for the tests, from Debian's packages (postgresql: initdb and
// postgres in /usr/lib/postgresql/N/bin): started at the first use in a test process, on a free
// port of 127.0.0.1 and a socket in its own temporary directory, with fsync on (durability is what
// the tests check), and stopped and removed when the tests end (a gtest Environment), or at once
// if the test process dies (the server gets SIGQUIT as its parent-death signal). As root it runs
// as the `postgres` system user, since initdb refuses root. initdb runs once per machine into a
// template directory that each test process copies (initdb takes seconds, a copy a fraction).
// Every wait is bounded. Tests call BC_NEED_POSTGRES(pg): without the programs they are skipped
// with what to install; with them, a server that does not start fails the test.
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ports.hpp"

namespace bc::test {

class Postgres {
 public:
  // The server of this test process, started at the first call; nullptr if it cannot be (then
  // why() says so, and absent() whether it is because PostgreSQL is not installed).
  static Postgres* get() {
    static std::mutex m;
    std::lock_guard lock(m);
    State& s = state();
    if (!s.tried) {
      s.tried = true;
      auto pg = std::unique_ptr<Postgres>(new Postgres());
      if (pg->start_first()) s.server = std::move(pg);
    }
    return s.server.get();
  }
  static const std::string& why() { return state().why; }
  static bool absent() { return state().absent; }
  // Stops the server of this process, if one runs (the Environment's TearDown).
  static void shut_down() { state().server.reset(); }

  ~Postgres() {
    stop_server(SIGINT);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // A new empty database (UTF-8); its URL.
  std::string new_database() {
    const std::string name = "t" + std::to_string(++databases_);
    // An identifier, from a counter: not data, so it is part of the SQL.
    admin("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
    return url(name);
  }
  std::string url(const std::string& db) const {
    return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + db;
  }
  std::uint16_t port() const { return port_; }
  // Runs one statement as the superuser on database `db`; the error, or "".
  std::string admin(const std::string& sql, const std::string& db = "postgres") const {
    PGconn* c = PQconnectdb(("host=127.0.0.1 port=" + std::to_string(port_) +
                             " user=postgres connect_timeout=10 dbname=" + db)
                                .c_str());
    std::string error;
    if (PQstatus(c) != CONNECTION_OK) {
      error = PQerrorMessage(c);
    } else {
      PQsetNoticeProcessor(
          c, [](void*, const char*) {}, nullptr);
      PGresult* r = PQexec(c, sql.c_str());
      const auto st = PQresultStatus(r);
      if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) error = PQresultErrorMessage(r);
      PQclear(r);
    }
    PQfinish(c);
    return error;
  }
  // Stops the server (SIGINT: fast shutdown, or SIGQUIT: immediate, a crash that the next start
  // recovers from) and starts it again on the same data and port: every connection breaks.
  bool restart(int how = SIGINT) {
    stop_server(how);
    return start_server();
  }
  // Stops it until start() (an outage).
  void stop(int how = SIGINT) { stop_server(how); }
  bool start() { return start_server(); }

 private:
  struct State {
    bool tried = false;
    bool absent = false;
    std::string why;
    std::unique_ptr<Postgres> server;
  };
  static State& state() {
    static State s;
    return s;
  }

  Postgres() = default;

  static std::optional<std::filesystem::path> bin_dir() {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("BC_PG_BIN"); env != nullptr && *env != 0) return env;
    std::optional<fs::path> best;
    int best_version = -1;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
      const fs::path bin = e.path() / "bin";
      const int version = std::atoi(e.path().filename().c_str());
      if (version > best_version && fs::exists(bin / "initdb") && fs::exists(bin / "postgres")) {
        best = bin;
        best_version = version;
      }
    }
    return best;
  }

  bool fail(std::string why, bool absent = false) {
    state().why = std::move(why);
    state().absent = absent;
    return false;
  }

  bool start_first() {
    namespace fs = std::filesystem;
    auto bin = bin_dir();
    if (!bin) {
      return fail(
          "PostgreSQL's server programs are not installed (apt-get install postgresql; "
          "scripts/install-deps.sh installs it)",
          true);
    }
    bin_ = *bin;
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (pw == nullptr) {
        return fail("running as root needs the postgres system user (apt-get install postgresql)",
                    true);
      }
      uid_ = pw->pw_uid;
      gid_ = pw->pw_gid;
    }
    remove_stale();
    const fs::path tmp = fs::temp_directory_path();
    dir_ = make_dir(tmp / ("bc-pg-" + std::to_string(::getpid()) + "-XXXXXX"));
    if (dir_.empty()) return fail("cannot make a temporary directory in " + tmp.string());
    const fs::path tmpl = tmp / ("bc-pg-template-" + bin_.parent_path().filename().string() + "-" +
                                 std::to_string(::geteuid()));
    if (!fs::exists(tmpl / "ready") && !make_template(tmpl)) return false;
    // The copy, owned by the user the server runs as, private as initdb made it.
    std::error_code ec;
    fs::copy(tmpl / "data", dir_ / "data", fs::copy_options::recursive, ec);
    if (ec) return fail("cannot copy the PostgreSQL template: " + ec.message());
    fs::permissions(dir_ / "data", fs::perms::owner_all, ec);
    if (uid_ != 0) {
      for (const auto& e : fs::recursive_directory_iterator(dir_ / "data"))
        (void)::lchown(e.path().c_str(), uid_, gid_);
      (void)::lchown((dir_ / "data").c_str(), uid_, gid_);
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
      port_ = free_loopback_port();
      if (start_server()) return true;
    }
    return false;
  }

  // A directory from a mkdtemp pattern, owned by the server's user; empty if it cannot be made.
  std::filesystem::path make_dir(const std::filesystem::path& pattern) const {
    std::string p = pattern.string();
    if (::mkdtemp(p.data()) == nullptr) return {};
    if (uid_ != 0) (void)::chown(p.c_str(), uid_, gid_);
    return p;
  }

  // Directories of test processes that died without removing theirs.
  static void remove_stale() {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("bc-pg-", 0) != 0 || name.rfind("bc-pg-template", 0) == 0) continue;
      const int pid = std::atoi(name.c_str() + 6);
      if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
    }
  }

  bool make_template(const std::filesystem::path& tmpl) {
    namespace fs = std::filesystem;
    const fs::path work = make_dir(tmpl.string() + "-XXXXXX");
    if (work.empty()) return fail("cannot make a temporary directory for initdb");
    const std::string log = (work / "initdb.log").string();
    const int rc = run({(bin_ / "initdb").string(), "-D", (work / "data").string(), "-U",
                        "postgres", "-A", "trust", "-E", "UTF8", "--no-locale"},
                       log, std::chrono::seconds(180));
    std::error_code ec;
    if (rc != 0) {
      std::ifstream in(log);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      fs::remove_all(work, ec);
      return fail("initdb failed (" + std::to_string(rc) + "): " + text);
    }
    std::ofstream(work / "ready") << "initdb done\n";
    fs::rename(work, tmpl, ec);  // another test process may have made it meanwhile: use theirs
    if (ec) fs::remove_all(work, ec);
    return true;
  }

  // Starts `args` as the server's user with its output in `log`; its pid.
  pid_t spawn(const std::vector<std::string>& args, const std::string& log, bool server) const {
    std::vector<std::string> a = args;
    std::vector<char*> argv;
    for (auto& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0 && uid_ != 0) (void)::fchown(fd, uid_, gid_);
    const pid_t pid = ::fork();
    if (pid == 0) {
      // Only async-signal-safe calls from here on (the test process has threads).
      if (uid_ != 0 && (::setgroups(0, nullptr) != 0 || ::setgid(gid_) != 0 || ::setuid(uid_) != 0))
        ::_exit(126);
      if (server) ::prctl(PR_SET_PDEATHSIG, SIGQUIT);  // after setuid, which clears it
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
      }
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    if (fd >= 0) ::close(fd);
    return pid;
  }

  // Runs `args` to its end, at most `limit`; its exit status, -1 if it was killed at the limit.
  int run(const std::vector<std::string>& args, const std::string& log,
          std::chrono::seconds limit) const {
    const pid_t pid = spawn(args, log, false);
    if (pid < 0) return -1;
    return wait_for(pid, limit);
  }

  static int wait_for(pid_t pid, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (::waitpid(pid, &status, WNOHANG) == pid)
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
  }

  bool start_server() {
    const std::string log = (dir_ / "postgres.log").string();
    server_ = spawn(
        {(bin_ / "postgres").string(), "-D", (dir_ / "data").string(), "-p", std::to_string(port_),
         "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=" + dir_.string(), "-c",
         "fsync=on", "-c", "synchronous_commit=on", "-c", "max_connections=200"},
        log, true);
    const std::string conninfo =
        "host=127.0.0.1 port=" + std::to_string(port_) + " user=postgres dbname=postgres";
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < until) {
      if (PQping(conninfo.c_str()) == PQPING_OK) return true;
      int status = 0;
      if (::waitpid(server_, &status, WNOHANG) == server_) break;  // it gave up (the port?)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop_server(SIGQUIT);
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return fail("PostgreSQL did not start on 127.0.0.1:" + std::to_string(port_) + ": " + text);
  }

  void stop_server(int how) {
    if (server_ <= 0) return;
    ::kill(server_, how);
    // Killed at the limit if it does not stop: its backends notice their postmaster is gone.
    wait_for(server_, std::chrono::seconds(30));
    server_ = -1;
  }

  std::filesystem::path bin_;
  std::filesystem::path dir_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  std::uint16_t port_ = 0;
  pid_t server_ = -1;
  int databases_ = 0;
};

// Stops this process's server when the tests end.
class PostgresEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { Postgres::shut_down(); }
};
inline ::testing::Environment* const kPostgresEnvironment =
    ::testing::AddGlobalTestEnvironment(new PostgresEnvironment);

}  // namespace bc::test

// In a test (or SetUp): `pg` is this process's server, or the test is skipped (not installed)
// or failed (installed, but it did not start).
#define BC_NEED_POSTGRES(pg)                                                         \
  ::bc::test::Postgres* pg = ::bc::test::Postgres::get();                            \
  if (pg == nullptr) {                                                               \
    if (::bc::test::Postgres::absent()) GTEST_SKIP() << ::bc::test::Postgres::why(); \
    FAIL() << ::bc::test::Postgres::why();                                           \
  }
