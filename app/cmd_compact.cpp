// `bombcheckers compact`: prunes a data directory's database by the retention policy and rewrites
// it into the smallest file. A running server gives freed pages back by itself (incremental
// vacuum); this is for files made before that, and for taking back every last page. With --store,
// the same for a PostgreSQL store (VACUUM FULL of its tables).
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "bc/store.hpp"
#include "commands.hpp"
#include "flags.hpp"
#include "retention_flags.hpp"
#include "server/net/data_dir.hpp"
#include "server/net/server.hpp"
#include "server/room/match.hpp"

namespace bc::app {
namespace {

namespace fs = std::filesystem;

struct Settings {
  server::ServerConfig cfg;  // data_dir or store, and retention
  bool prune = true;
};

const Flag<Settings> kCompactFlags[] = {
    {"--data-dir", "BOMBCHECKERS_DATA_DIR", "DIR", "the server's data directory (default ./data)",
     [](Settings& s, std::string_view v) -> std::optional<std::string> {
       if (v.empty()) return "empty path";
       s.cfg.data_dir = fs::path(v);
       return std::nullopt;
     }},
    {"--store", "BOMBCHECKERS_STORE", "URL",
     "a PostgreSQL store (postgres://...) instead of the data directory's file",
     [](Settings& s, std::string_view v) -> std::optional<std::string> {
       if (!store::is_postgres_url(v)) return "a postgres:// or postgresql:// URL";
       s.cfg.store = std::string(v);
       return std::nullopt;
     }},
    keep_unstarted_flag<Settings>(),
    keep_abandoned_flag<Settings>(),
    keep_finished_flag<Settings>(),
    {"--no-prune", "", "", "only rewrite the file; delete nothing",
     [](Settings& s, std::string_view v) -> std::optional<std::string> {
       s.prune = v == "0";  // a switch: "--no-prune" gives "1"
       return std::nullopt;
     }},
};

void compact_usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers compact [options]\n\n"
      "Deletes what the retention policy no longer keeps (the same flags and defaults as\n"
      "serve's) from the data directory's database, then rewrites it into the smallest\n"
      "file. The server must be stopped: compact refuses a directory in use.\n"
      "With --store, a PostgreSQL store: pruned the same way, then its tables rewritten\n"
      "(VACUUM FULL), which holds up a running server's writes meanwhile: stop it first.\n\n");
  print_flags<Settings>(out, kCompactFlags);
}

std::string mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

void show(const char* what, const store::Size& size,
          std::pair<std::uint64_t, std::uint64_t> files) {
  std::printf("%-9s %s file (%s log), %s free; %llu rooms, %llu games, %llu actions\n", what,
              mib(files.first).c_str(), mib(files.second).c_str(), mib(size.free_bytes).c_str(),
              static_cast<unsigned long long>(size.rooms),
              static_cast<unsigned long long>(size.games),
              static_cast<unsigned long long>(size.actions));
}

// PostgreSQL: the tables with their indexes (its free space is not counted).
void show_tables(const char* what, const store::Size& size) {
  std::printf("%-9s %s of tables; %llu rooms, %llu games, %llu actions\n", what,
              mib(size.page_bytes).c_str(), static_cast<unsigned long long>(size.rooms),
              static_cast<unsigned long long>(size.games),
              static_cast<unsigned long long>(size.actions));
}

}  // namespace

int cmd_compact(Args args) {
  Settings s;
  s.cfg.data_dir = fs::path("data");
  if (auto done = read_command_flags<Settings>("compact", kCompactFlags, args, s, compact_usage))
    return *done;
  const bool postgres = !s.cfg.store.empty();
  const fs::path db = s.cfg.data_dir / "bombcheckers.db";
  std::error_code ec;
  if (!postgres && !fs::is_regular_file(db, ec)) {
    std::fprintf(stderr, "bombcheckers compact: no database at %s\n", db.c_str());
    return 1;
  }
  std::string why;
  // The data directory's lock keeps a server off the SQLite file meanwhile; PostgreSQL has none
  // (a running server's writes wait for the VACUUM FULL).
  std::optional<server::DataDirLock> lock;
  if (!postgres) {
    lock = server::lock_data_dir(s.cfg.data_dir, why);
    if (!lock) {
      std::fprintf(stderr, "bombcheckers compact: %s\n", why.c_str());
      return 1;
    }
  }
  auto store = store::Store::open(postgres ? s.cfg.store : db.string(), why);
  if (!store) {
    std::fprintf(stderr, "bombcheckers compact: %s\n", why.c_str());
    return 1;
  }
  auto report = [&](const char* what) {
    if (postgres) {
      show_tables(what, store->measure());
    } else {
      show(what, store->measure(), store->file_bytes());
    }
  };
  report("before:");
  if (s.prune) {
    std::printf("retention: %s\n", server::retention_text(s.cfg.retention).c_str());
    const store::Pruned p = store->prune(s.cfg.retention, server::unix_ms());
    std::printf("pruned:   %llu rooms, %llu games, %llu actions\n",
                static_cast<unsigned long long>(p.rooms), static_cast<unsigned long long>(p.games),
                static_cast<unsigned long long>(p.actions));
  }
  if (!store->compact(why)) {
    std::fprintf(stderr, "bombcheckers compact: %s\n", why.c_str());
    return 1;
  }
  report("after:");
  return 0;
}

}  // namespace bc::app
