// What a person on the local network opens: the server's LAN URLs (for the log, the terminal QR
// code and GET /api/server), and the small helpers of GET /api/qr. Free of Boost.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bc::server {

// "http://ADDR:PORT/" (https:// with `tls`) for every address a listener on `host` is reachable at
// from other machines: every non-loopback address of the machine (IPv4 only for 0.0.0.0, IPv4 and
// IPv6 for ::), or just `host` itself when it is one specific address (none for a loopback
// address).
std::vector<std::string> lan_urls(std::string_view host, std::uint16_t port, bool tls = false);

// GET /api/server: {"server":"bombcheckers","version":...,"protocol":1,"lan_urls":[...]}
std::string server_info_json(const std::vector<std::string>& lan_urls);

// `raw` with its %XX escapes (and with `plus_is_space`, '+') decoded; nullopt when one is broken.
std::optional<std::string> percent_decode(std::string_view raw, bool plus_is_space);
// The value of `name` in the query string of a request target, percent-decoded ('+' is a space);
// nullopt when it is absent or its encoding is broken.
std::optional<std::string> query_param(std::string_view target, std::string_view name);

// The longest text GET /api/qr encodes.
constexpr std::size_t kQrTextMax = 256;

// GET /api/qr?text=...: an SVG of the text's QR code (level M, else L for long texts), or nullopt
// when the text is too long for a version 10 code.
std::optional<std::string> qr_svg(std::string_view text);

// The QR code of `url` for a terminal (Unicode half blocks, ANSI colours when `ansi`).
std::string qr_terminal(std::string_view url, bool ansi);

}  // namespace bc::server
