// The real `bombcheckers` binary as a child process with its stdout and stderr captured; every wait
// is bounded. Shared by the tests of the binary (tests/server, tests/persist).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "build_paths.hpp"

extern char** environ;

namespace bc::test {

using Clock = std::chrono::steady_clock;

class Process {
 public:
  // `launcher`: a program that runs the binary (its path then the arguments follow), such as a
  // shell that lowers a limit first.
  Process(std::vector<std::string> args, std::vector<std::string> env_extra = {},
          std::vector<std::string> launcher = {}) {
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, err[0]);
    std::vector<char*> argv;
    args.insert(args.begin(), kBinary);
    args.insert(args.begin(), launcher.begin(), launcher.end());
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
    const char* program = launcher.empty() ? kBinary : launcher[0].c_str();
    if (posix_spawn(&pid_, program, &fa, nullptr, argv.data(), envp.data()) != 0) {
      throw std::runtime_error("cannot start " + std::string(kBinary));
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
  pid_t pid() const { return pid_; }
  std::string all_stdout() {
    drain(out_, out_buf_);
    return out_buf_;
  }
  const std::string& stderr_text() const { return err_buf_; }
  // Reads what stderr holds now (a long-running process must not fill its pipe and block).
  void drain_stderr() { drain(err_, err_buf_); }

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

}  // namespace bc::test
