#include "server/host/process_metrics.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace bc::server {

namespace {

void series(std::string& out, const char* name, const char* type, const char* help, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
  out += name;
  out += ' ';
  out += buf;
  out += '\n';
}

}  // namespace

void append_process_metrics(std::string& out) {
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));

  // /proc/self/stat: fields after the parenthesised command name (which may hold spaces).
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  if (auto close = text.rfind(')'); close != std::string::npos && ticks > 0) {
    std::istringstream in(text.substr(close + 2));
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    // f[0] is field 3 (state): utime is field 14, stime 15, num_threads 20, starttime 22, vsize 23,
    // rss 24.
    if (f.size() > 21) try {
        const double utime = std::stod(f[11]), stime = std::stod(f[12]);
        series(out, "process_cpu_seconds_total", "counter",
               "User and system CPU time spent in seconds.", (utime + stime) / ticks);
        std::ifstream up("/proc/stat");
        for (std::string line; std::getline(up, line);) {
          if (line.rfind("btime ", 0) == 0) {
            const double boot = std::stod(line.substr(6));
            series(out, "process_start_time_seconds", "gauge",
                   "Start time of the process since unix epoch in seconds.",
                   boot + std::stod(f[19]) / ticks);
            break;
          }
        }
        series(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
               std::stod(f[20]));
        series(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
               std::stod(f[21]) * page);
        series(out, "process_threads", "gauge", "Number of OS threads in the process.",
               std::stod(f[17]));
      } catch (const std::exception&) {
        // a /proc format this code does not know: leave those series out
      }
  }
  std::error_code ec;
  std::size_t fds = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end;
       it.increment(ec)) {
    ++fds;
  }
  if (fds > 0) {
    series(out, "process_open_fds", "gauge", "Number of open file descriptors.",
           static_cast<double>(fds - 1));  // less the one the listing itself holds
  }
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    series(out, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
           static_cast<double>(rl.rlim_cur));
  }
}

}  // namespace bc::server
