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

bool from_own_page(std::string_view origin, std::string_view fetch_site, std::string_view host,
                   const std::vector<std::string>& allowed) {
  if (origin.empty())
    return fetch_site.empty() || fetch_site == "same-origin" || fetch_site == "none";
  auto normal = normalize_origin(origin);
  if (!normal) return false;
  if (std::find(allowed.begin(), allowed.end(), *normal) != allowed.end()) return true;
  const auto scheme_end = normal->find("://");
  return scheme_end != std::string::npos && !host.empty() &&
         std::string_view(*normal).substr(scheme_end + 3) == ascii_lower(host);
}

}  // namespace bc::server
