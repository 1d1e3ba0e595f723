// --allowed-origin: which web pages may open the game WebSocket (a check against cross-site use of
// the server by pages on other hosts). Free of Boost.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bc::server {

// An origin as a flag gives it, in the form browsers send: "scheme://host[:port]", lower case, no
// path and no trailing slash ("null" stays "null"); nullopt if it is not of that form.
std::optional<std::string> normalize_origin(std::string_view origin);

// Whether an upgrade with this Origin header (empty: none sent) and Host header may proceed:
// always when `allowed` is empty (the default) or the request has no Origin (not a browser);
// otherwise when the origin is in `allowed` (normalized entries) or names the server's own Host.
bool origin_allowed(std::string_view origin, std::string_view host,
                    const std::vector<std::string>& allowed);

// Whether a request that acts for the player of its cookie comes from a page of this server (its
// Host, or an origin in `allowed`), by its Origin header, or without one by Sec-Fetch-Site (a
// browser sends one of them; a request with neither is not a browser's and holds nobody's cookie).
bool from_own_page(std::string_view origin, std::string_view fetch_site, std::string_view host,
                   const std::vector<std::string>& allowed);

}  // namespace bc::server
