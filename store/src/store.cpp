// The interface's own part: which backend opens a location (or memory), the maintenance thread both
// share, and URLs shown without their passwords.
#include "bc/store.hpp"

#include "memory_store.hpp"
#include "pg_store.hpp"
#include "sqlite_store.hpp"

namespace bc::store {

bool is_postgres_url(std::string_view where) {
  return where.starts_with("postgres://") || where.starts_with("postgresql://");
}

std::string redact(std::string_view where) {
  if (!is_postgres_url(where)) return std::string(where);
  std::string out(where);
  // scheme://user:password@host...: the password goes (before the first '/', '?' or '#' after
  // the scheme, the last '@' ends the user information).
  const std::size_t from = out.find("://") + 3;
  const std::size_t end = out.find_first_of("/?#", from);
  const std::size_t at = out.rfind('@', end == std::string::npos ? out.size() : end);
  if (at != std::string::npos && at >= from) {
    const std::size_t colon = out.find(':', from);
    if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  // ...?password=secret&...: the value goes.
  for (std::size_t p = out.find("password="); p != std::string::npos;
       p = out.find("password=", p + 1)) {
    if (p == 0 || (out[p - 1] != '?' && out[p - 1] != '&')) continue;
    const std::size_t v = p + 9;
    const std::size_t amp = out.find_first_of("&#", v);
    out.replace(v, (amp == std::string::npos ? out.size() : amp) - v, "***");
  }
  return out;
}

std::unique_ptr<Store> Store::open(const std::string& path, std::string& error) {
  if (is_postgres_url(path)) return PgStore::open(path, error);
  return SqliteStore::open(path, error);
}

std::unique_ptr<Store> Store::open_memory() {
  return std::make_unique<MemoryStore>();
}

Store::~Store() {
  stop_maintenance();
}

void Store::stop_maintenance() {
  {
    std::lock_guard lock(maintain_mutex_);
    maintenance_stopping_ = true;
  }
  maintain_cv_.notify_all();
  if (maintainer_.joinable()) maintainer_.join();
}

void Store::maintain(const Retention& keep, std::chrono::milliseconds every,
                     std::function<std::int64_t()> now_ms,
                     std::function<void(const Pruned&)> pruned) {
  if (maintainer_.joinable()) return;
  maintainer_ =
      std::thread([this, keep, every, now_ms = std::move(now_ms), pruned = std::move(pruned)] {
        for (;;) {
          const Pruned p = prune(keep, now_ms());
          if (pruned && p.rooms + p.games + p.actions > 0) pruned(p);
          measure();
          std::unique_lock lock(maintain_mutex_);
          if (maintain_cv_.wait_for(lock, every, [&] { return maintenance_stopping_.load(); }))
            return;
        }
      });
}

}  // namespace bc::store
