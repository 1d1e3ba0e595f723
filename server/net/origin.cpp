#include "server/net/origin.hpp"

#include <algorithm>
#include <cctype>

#include "server/net/ascii.hpp"

namespace bc::server {

std::optional<std::string> normalize_origin(std::string_view origin) {
  std::string o = ascii_lower(origin);
  if (o == "null") return o;
  while (!o.empty() && o.back() == '/') o.pop_back();
  const auto sep = o.find("://");
  if (sep == std::string::npos || sep == 0) return std::nullopt;
  for (std::size_t i = 0; i < sep; ++i) {
    const char c = o[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.')
      return std::nullopt;
  }
  const std::string_view authority = std::string_view(o).substr(sep + 3);
  if (authority.empty()) return std::nullopt;
  for (char c : authority) {
    if (c == '/' || c == '?' || c == '#' || c == '@' ||
        std::isspace(static_cast<unsigned char>(c)) ||
        std::iscntrl(static_cast<unsigned char>(c))) {
      return std::nullopt;
    }
  }
  return o;
}

bool origin_allowed(std::string_view origin, std::string_view host,
                    const std::vector<std::string>& allowed) {
  if (allowed.empty() || origin.empty()) return true;
  const auto o = normalize_origin(origin);
  if (!o) return false;
  if (std::find(allowed.begin(), allowed.end(), *o) != allowed.end()) return true;
  const auto sep = o->find("://");
  return sep != std::string::npos && !host.empty() && o->substr(sep + 3) == ascii_lower(host);
}

}  // namespace bc::server
