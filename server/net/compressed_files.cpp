#include "server/net/compressed_files.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <list>
#include <mutex>
#include <unordered_map>

#include "server/net/ascii.hpp"

namespace bc::server {
namespace {

constexpr std::uintmax_t kMaxFileBytes = 8u << 20;
constexpr std::size_t kMaxCachedBytes = 64u << 20;

struct Entry {
  std::uintmax_t size = 0;
  std::filesystem::file_time_type time;
  std::shared_ptr<const std::string> gz;  // null: not worth it (kept so as not to try again)
};

struct Cache {
  std::mutex mu;
  std::unordered_map<std::string, Entry> entries;
  std::list<std::string> order;  // made first, first out
  std::size_t bytes = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

bool compressible(std::string_view type) {
  return type.rfind("text/", 0) == 0 || type.rfind("application/json", 0) == 0 ||
         type.rfind("application/manifest+json", 0) == 0 || type == "image/svg+xml" ||
         type == "application/wasm";
}

bool accepts_gzip(std::string_view header) {
  const std::string h = ascii_lower(header);
  std::size_t at = 0;
  while (at < h.size()) {
    std::size_t end = h.find(',', at);
    if (end == std::string::npos) end = h.size();
    std::string_view item(h.data() + at, end - at);
    at = end + 1;
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const auto semi = item.find(';');
    std::string_view coding = item.substr(0, semi);
    while (!coding.empty() && coding.back() == ' ') coding.remove_suffix(1);
    if (coding != "gzip" && coding != "*") continue;
    if (semi == std::string_view::npos) return true;
    // "gzip;q=0" (or 0.0, 0.00...) refuses it.
    std::string_view q = item.substr(semi + 1);
    while (!q.empty() && q.front() == ' ') q.remove_prefix(1);
    if (q.rfind("q=", 0) != 0) return true;
    q.remove_prefix(2);
    return q.find_first_not_of("0.") != std::string_view::npos;
  }
  return false;
}

std::string gzip(std::string_view data) {
  z_stream z{};
  // 15 + 16: a window of 32 KiB, written with gzip's header and trailer.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    return {};
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  const std::size_t written = out.size() - z.avail_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return {};
  out.resize(written);
  return out;
}

std::shared_ptr<const std::string> gzipped_file(const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec || size > kMaxFileBytes) return nullptr;
  const auto time = std::filesystem::last_write_time(file, ec);
  if (ec) return nullptr;
  const std::string key = file.string();
  Cache& c = cache();
  {
    std::lock_guard lock(c.mu);
    if (auto it = c.entries.find(key);
        it != c.entries.end() && it->second.size == size && it->second.time == time)
      return it->second.gz;
  }
  // Compressed outside the lock: two first requests at once may both do it, which is harmless.
  std::ifstream in(file, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return nullptr;
  std::string gz = gzip(data);
  std::shared_ptr<const std::string> kept;
  if (!gz.empty() && gz.size() < data.size())
    kept = std::make_shared<const std::string>(std::move(gz));
  std::lock_guard lock(c.mu);
  if (auto it = c.entries.find(key); it != c.entries.end()) {
    if (it->second.gz) c.bytes -= it->second.gz->size();
    c.order.remove(key);
    c.entries.erase(it);
  }
  const std::size_t bytes = kept ? kept->size() : 0;
  while (!c.order.empty() && c.bytes + bytes > kMaxCachedBytes) {
    auto old = c.entries.find(c.order.front());
    if (old != c.entries.end() && old->second.gz) c.bytes -= old->second.gz->size();
    if (old != c.entries.end()) c.entries.erase(old);
    c.order.pop_front();
  }
  c.entries[key] = Entry{size, time, kept};
  c.order.push_back(key);
  c.bytes += bytes;
  return kept;
}

}  // namespace bc::server
