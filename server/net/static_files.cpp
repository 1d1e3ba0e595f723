#include "server/net/static_files.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "server/net/ascii.hpp"

namespace bc::server {

namespace fs = std::filesystem;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hex_value(s[i + 1]);
    int lo = hex_value(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    const char c = static_cast<char>(hi * 16 + lo);
    // Encoded dots, slashes, backslashes and NUL are only ever used to sneak out of the root.
    if (c == '.' || c == '/' || c == '\\' || c == '\0') return std::nullopt;
    out += c;
    i += 2;
  }
  return out;
}

bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin();
  auto q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (q == p.end() || *r != *q) return false;
  }
  return true;
}

}  // namespace

StaticFile find_static_file(const fs::path& root, std::string_view target) {
  std::string_view path = target.substr(0, target.find_first_of("?#"));
  if (path.empty() || path.front() != '/') return {StaticLookup::Refused, {}};
  auto decoded = percent_decode(path);
  if (!decoded) return {StaticLookup::Refused, {}};
  if (decoded->find('\\') != std::string::npos || decoded->find('\0') != std::string::npos) {
    return {StaticLookup::Refused, {}};
  }
  fs::path rel;
  std::string_view rest = std::string_view(*decoded).substr(1);
  bool directory = rest.empty();
  while (!rest.empty()) {
    auto slash = rest.find('/');
    std::string_view seg = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    if (seg.empty()) return {StaticLookup::Refused, {}};  // `//`: an absolute path in disguise
    if (seg.front() == '.') return {StaticLookup::Refused, {}};  // `..`, `.`, hidden files
    if (seg.find(':') != std::string_view::npos) return {StaticLookup::Refused, {}};
    rel /= std::string(seg);
    directory = slash != std::string_view::npos && rest.empty();
  }
  fs::path full = root / rel;
  std::error_code ec;
  if (directory || fs::is_directory(full, ec)) full /= "index.html";
  fs::path canon = fs::weakly_canonical(full, ec);
  if (ec) return {StaticLookup::NotFound, {}};
  if (!inside(root, canon)) return {StaticLookup::Refused, {}};
  if (!fs::is_regular_file(canon, ec)) return {StaticLookup::NotFound, {}};
  return {StaticLookup::Found, std::move(canon)};
}

std::string_view content_type(const fs::path& file) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".json", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/markdown; charset=utf-8"},
      {".woff2", "font/woff2"},
      {".jpg", "image/jpeg"},
      {".webp", "image/webp"},
      {".wav", "audio/wav"},
      // The rules core (web/engine/): browsers compile it while it downloads only with this type.
      {".wasm", "application/wasm"},
  }};
  const std::string ext = ascii_lower(file.extension().string());
  for (const auto& [e, type] : kTypes) {
    if (e == ext) return type;
  }
  return "application/octet-stream";
}

}  // namespace bc::server
