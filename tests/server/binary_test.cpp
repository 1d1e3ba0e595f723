// The real `bombcheckers serve` binary: flags, environment variables, the "listening on" line, and a
// clean exit on SIGTERM / SIGINT. Every wait is bounded.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "test_client.hpp"
#include "tls_client.hpp"

extern char** environ;

namespace bc::test {
namespace {

using Clock = std::chrono::steady_clock;

class Process {
 public:
  Process(std::vector<std::string> args, std::vector<std::string> env_extra = {}) {
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, err[0]);
    std::vector<char*> argv;
    args.insert(args.begin(), BC_BINARY);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
      if (std::strncmp(*e, "BOMBCHECKERS_", 13) != 0) env.emplace_back(*e);
    }
    for (auto& e : env_extra) env.push_back(e);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    if (posix_spawn(&pid_, BC_BINARY, &fa, nullptr, argv.data(), envp.data()) != 0) {
      throw std::runtime_error("cannot start " + std::string(BC_BINARY));
    }
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(err[1]);
    out_ = out[0];
    err_ = err[0];
  }
  ~Process() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(out_);
    close(err_);
  }

  // Reads stdout until a line starts with `prefix`; "" on timeout or end of output.
  std::string read_line_starting(const std::string& prefix, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      auto nl = out_buf_.find('\n');
      while (nl != std::string::npos) {
        std::string line = out_buf_.substr(0, nl);
        out_buf_.erase(0, nl + 1);
        if (line.rfind(prefix, 0) == 0) return line;
        nl = out_buf_.find('\n');
      }
      pollfd p{out_, POLLIN, 0};
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (poll(&p, 1, static_cast<int>(std::max<long long>(1, left.count()))) <= 0) continue;
      char buf[4096];
      auto n = read(out_, buf, sizeof buf);
      if (n <= 0) return "";
      out_buf_.append(buf, static_cast<std::size_t>(n));
    }
    return "";
  }

  // The exit code, or -1 (after SIGKILL) if it does not exit in time.
  int wait(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    int status = 0;
    while (Clock::now() < deadline) {
      drain(err_, err_buf_);
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        drain(err_, err_buf_);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    exited_ = true;
    return -1;
  }

  void signal(int sig) { kill(pid_, sig); }
  std::string all_stdout() {
    drain(out_, out_buf_);
    return out_buf_;
  }
  const std::string& stderr_text() const { return err_buf_; }

 private:
  static void drain(int fd, std::string& into) {
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
      char buf[4096];
      auto n = read(fd, buf, sizeof buf);
      if (n <= 0) break;
      into.append(buf, static_cast<std::size_t>(n));
    }
  }

  pid_t pid_ = -1;
  int out_ = -1, err_ = -1;
  bool exited_ = false;
  std::string out_buf_, err_buf_;
};

struct TempDir {
  std::filesystem::path path;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::string web_root() {
  static TempDir dir{std::filesystem::temp_directory_path() / ("bc-binary-test-" + std::to_string(getpid()))};
  static std::string root = [] {
    const auto& r = dir.path;
    std::filesystem::create_directories(r);
    std::ofstream(r / "index.html") << "<!doctype html><title>binary</title>";
    return r.string();
  }();
  return root;
}

const std::string kListening = "listening on http://127.0.0.1:";

std::uint16_t port_of(const std::string& line) {
  const std::string digits = line.substr(kListening.size());
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return static_cast<std::uint16_t>(std::stoi(digits));
}

void serves_and_stops_on(int sig) {
  Process p({"serve", "--host", "127.0.0.1", "--port", "0", "--web-root", web_root(), "--log-level", "warn",
             "--threads", "2", "--memory"});
  const std::string line = p.read_line_starting(kListening, std::chrono::seconds(20));
  ASSERT_FALSE(line.empty()) << "no 'listening on' line; stderr: " << p.stderr_text();
  const auto port = port_of(line);
  ASSERT_NE(port, 0);
  auto r = http_get(port, "/healthz");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(http_get(port, "/").body, "<!doctype html><title>binary</title>");
  {
    WsClient c(port);
    c.expect("welcome");
    c.send({{"type", "create"}, {"variant", "kaboom"}});
    c.expect("joined");
    p.signal(sig);
    EXPECT_EQ(c.wait_closed(), 1001) << "clients are told the server is going away";
  }
  EXPECT_EQ(p.wait(std::chrono::seconds(10)), 0) << p.stderr_text();
}

TEST(Binary, ServesAndStopsCleanlyOnSigterm) { serves_and_stops_on(SIGTERM); }
TEST(Binary, ServesAndStopsCleanlyOnSigint) { serves_and_stops_on(SIGINT); }

TEST(Binary, EnvironmentVariablesConfigureIt) {
  Process p({"serve"}, {"BOMBCHECKERS_HOST=127.0.0.1", "BOMBCHECKERS_PORT=0", "BOMBCHECKERS_WEB_ROOT=" + web_root(),
                        "BOMBCHECKERS_LOG_LEVEL=info", "BOMBCHECKERS_THREADS=1", "BOMBCHECKERS_MEMORY=1"});
  const std::string line = p.read_line_starting(kListening, std::chrono::seconds(20));
  ASSERT_FALSE(line.empty()) << p.stderr_text();
  EXPECT_EQ(http_get(port_of(line), "/healthz").status, 200);
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait(std::chrono::seconds(10)), 0);
  EXPECT_NE(p.stderr_text().find("open http://127.0.0.1:"), std::string::npos) << p.stderr_text();
}

TEST(Binary, FlagsWinOverEnvironment) {
  Process p({"serve", "--port", "0", "--host", "127.0.0.1", "--web-root", web_root(), "--memory"},
            {"BOMBCHECKERS_PORT=not-a-port-but-overridden"});
  // A flag replaces its environment twin before anything is checked, so this starts.
  const std::string line = p.read_line_starting(kListening, std::chrono::seconds(20));
  EXPECT_FALSE(line.empty()) << p.stderr_text();
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait(std::chrono::seconds(10)), 0);
}

TEST(Binary, BadValuesExitWith2AndSayWhy) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"serve", "--port", "70000"}, {}},
      {{"serve", "--port", "abc"}, {}},
      {{"serve", "--port"}, {}},
      {{"serve", "--threads", "0"}, {}},
      {{"serve", "--log-level", "loud"}, {}},
      {{"serve", "--host", "not-an-address"}, {}},
      {{"serve", "--web-root", "/definitely/not/here"}, {}},
      {{"serve", "--bogus"}, {}},
      {{"serve"}, {"BOMBCHECKERS_PORT=x"}},
      {{"serve"}, {"BOMBCHECKERS_THREADS=lots"}},
  };
  for (const auto& [args, env] : cases) {
    Process p(args, env);
    std::string what = args.back() + (env.empty() ? "" : " " + env[0]);
    EXPECT_EQ(p.wait(std::chrono::seconds(10)), 2) << what;
    EXPECT_NE(p.stderr_text().find("serve:"), std::string::npos) << what << ": " << p.stderr_text();
  }
}

TEST(Binary, HelpListsEveryFlagWithItsEnvironmentTwin) {
  Process p({"serve", "--help"});
  EXPECT_EQ(p.wait(std::chrono::seconds(10)), 0);
  const std::string out = p.all_stdout();
  for (const char* s : {"--host", "--port", "--web-root", "--data-dir", "--log-level", "--threads",
                        "BOMBCHECKERS_HOST", "BOMBCHECKERS_PORT", "BOMBCHECKERS_WEB_ROOT",
                        "BOMBCHECKERS_DATA_DIR", "BOMBCHECKERS_LOG_LEVEL", "BOMBCHECKERS_THREADS", "8080",
                        "0.0.0.0"}) {
    EXPECT_NE(out.find(s), std::string::npos) << s << "\n" << out;
  }
}

}  // namespace
}  // namespace bc::test

// ---------------------------------------------------------------------------------------------
// Issue 7: --log-format, --allowed-origin, --qr.

namespace bc::test {
namespace {

TEST(Binary, Issue7BadValuesExitWith2) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"serve", "--log-format", "xml"}, {}},
      {{"serve", "--allowed-origin", "games.example.org"}, {}},
      {{"serve", "--allowed-origin", "https://a.example/path"}, {}},
      {{"serve"}, {"BOMBCHECKERS_LOG_FORMAT=yaml"}},
      {{"serve"}, {"BOMBCHECKERS_ALLOWED_ORIGINS=https://a.example,nope"}},
      {{"serve"}, {"BOMBCHECKERS_QR=maybe"}},
  };
  for (const auto& [args, env] : cases) {
    Process p(args, env);
    std::string what = args.back() + (env.empty() ? "" : " " + env[0]);
    EXPECT_EQ(p.wait(std::chrono::seconds(10)), 2) << what;
    EXPECT_NE(p.stderr_text().find("serve:"), std::string::npos) << what << ": " << p.stderr_text();
  }
  Process help({"serve", "--help"});
  EXPECT_EQ(help.wait(std::chrono::seconds(10)), 0);
  const std::string out = help.all_stdout();
  for (const char* s : {"--log-format", "BOMBCHECKERS_LOG_FORMAT", "--allowed-origin", "BOMBCHECKERS_ALLOWED_ORIGINS",
                        "--qr", "BOMBCHECKERS_QR", "--memory", "BOMBCHECKERS_MEMORY"}) {
    EXPECT_NE(out.find(s), std::string::npos) << s << "\n" << out;
  }
}

TEST(Binary, JsonLogsAreOneObjectPerLine) {
  Process p({"serve", "--host", "127.0.0.1", "--port", "0", "--web-root", web_root(), "--memory", "--qr",
             "--allowed-origin", "https://a.example"},
            {"BOMBCHECKERS_LOG_FORMAT=json"});
  const std::string line = p.read_line_starting(kListening, std::chrono::seconds(20));
  ASSERT_FALSE(line.empty()) << p.stderr_text();
  {
    WsClient c(port_of(line));
    c.expect("welcome");
  }
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait(std::chrono::seconds(10)), 0);
  const std::string& err = p.stderr_text();
  std::size_t lines = 0;
  for (std::size_t at = 0; at < err.size();) {
    const auto nl = err.find('\n', at);
    ASSERT_NE(nl, std::string::npos) << "a line without its end: " << err.substr(at);
    const std::string l = err.substr(at, nl - at);
    at = nl + 1;
    ++lines;
    json j;
    ASSERT_NO_THROW(j = json::parse(l)) << l;
    EXPECT_TRUE(j["ts"].is_string() && j["level"].is_string() && j["msg"].is_string()) << l;
  }
  EXPECT_GE(lines, 4u) << err;
  EXPECT_NE(err.find("no LAN address to show a QR code for"), std::string::npos) << err;
  EXPECT_NE(err.find("WebSocket upgrades only from the server's own address and https://a.example"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("ws #1: connected from 127.0.0.1"), std::string::npos) << err;
}

}  // namespace
}  // namespace bc::test

// ---------------------------------------------------------------------------------------------
// TLS: --tls-cert / --tls-key (BOMBCHECKERS_TLS_CERT / BOMBCHECKERS_TLS_KEY).

namespace bc::test {
namespace {

const std::string kListeningTls = "listening on https://127.0.0.1:";

TEST(Binary, TlsServesHttpsAndWssAndLogsTheirUrls) {
  TestCertificate c;
  // The files from the environment twins, the rest from flags.
  Process p({"serve", "--host", "127.0.0.1", "--port", "0", "--web-root", web_root(), "--memory",
             "--log-level", "info"},
            {"BOMBCHECKERS_TLS_CERT=" + c.cert.string(), "BOMBCHECKERS_TLS_KEY=" + c.key.string()});
  const std::string line = p.read_line_starting(kListeningTls, std::chrono::seconds(20));
  ASSERT_FALSE(line.empty()) << p.stderr_text();
  const auto port = static_cast<std::uint16_t>(std::stoi(line.substr(kListeningTls.size())));
  EXPECT_EQ(https_get(port, "/healthz").status, 200);
  EXPECT_EQ(https_get(port, "/").body, "<!doctype html><title>binary</title>");
  EXPECT_EQ(http_get(port, "/").status, 308);
  {
    WssClient w(port);
    w.expect("welcome");
    w.send({{"type", "create"}, {"variant", "kaboom"}});
    w.expect("joined");
    p.signal(SIGTERM);
    EXPECT_EQ(w.wait_closed(), 1001);
  }
  EXPECT_EQ(p.wait(std::chrono::seconds(10)), 0) << p.stderr_text();
  const std::string& err = p.stderr_text();
  const std::string hostport = "127.0.0.1:" + std::to_string(port);
  EXPECT_NE(err.find("open https://" + hostport + "/"), std::string::npos) << err;
  EXPECT_NE(err.find("wss://" + hostport + "/ws"), std::string::npos) << err;
  EXPECT_NE(err.find("TLS certificate " + c.cert.string() + ": /CN=127.0.0.1, valid until"),
            std::string::npos)
      << err;
}

// Every refusal: a non-zero exit before listening, and one line that names the problem.
TEST(Binary, TlsRefusesWhatItCannotUse) {
  TestCertificate c;
  const std::string missing = (c.dir / "missing-key.pem").string();
  struct Case {
    std::vector<std::string> args, env;
    int exit;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--tls-cert", c.cert.string(), "--tls-key", missing},
       {},
       1,
       "cannot read the TLS private key " + missing + ": No such file or directory"},
      {{"--tls-cert", c.cert.string(), "--tls-key", c.other_key.string()},
       {},
       1,
       "the TLS private key " + c.other_key.string() + " does not match the certificate " +
           c.cert.string()},
      {{"--tls-cert", c.key.string(), "--tls-key", c.key.string()},
       {},
       1,
       "is not a PEM certificate"},
      {{"--tls-cert", c.cert.string()}, {}, 2, "TLS also needs the private key (--tls-key)"},
      {{},
       {"BOMBCHECKERS_TLS_KEY=" + c.key.string()},
       2,
       "TLS also needs the certificate (--tls-cert)"},
  };
  for (const auto& k : cases) {
    std::vector<std::string> args = {"serve", "--host", "127.0.0.1", "--port", "0", "--memory"};
    args.insert(args.end(), k.args.begin(), k.args.end());
    Process p(args, k.env);
    EXPECT_EQ(p.wait(std::chrono::seconds(10)), k.exit) << k.says;
    EXPECT_NE(p.stderr_text().find(k.says), std::string::npos) << k.says << "\n" << p.stderr_text();
    EXPECT_EQ(p.all_stdout().find("listening on"), std::string::npos)
        << "no plain fallback: " << k.says;
  }
  Process help({"serve", "--help"});
  EXPECT_EQ(help.wait(std::chrono::seconds(10)), 0);
  const std::string out = help.all_stdout();
  for (const char* s :
       {"--tls-cert", "BOMBCHECKERS_TLS_CERT", "--tls-key", "BOMBCHECKERS_TLS_KEY"}) {
    EXPECT_NE(out.find(s), std::string::npos) << s << "\n" << out;
  }
}

}  // namespace
}  // namespace bc::test
