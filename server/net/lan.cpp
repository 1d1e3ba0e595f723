#include "server/net/lan.hpp"

#include <arpa/inet.h>

#include <nlohmann/json.hpp>

#include "server/net/qr.hpp"
#include "server/net/server.hpp"
#include "server/wire/errors.hpp"

namespace bc::server {

std::vector<std::string> lan_urls(std::string_view host, std::uint16_t port, bool tls) {
  const std::string p = std::to_string(port);
  const std::string scheme = tls ? "https://" : "http://";
  std::vector<std::string> out;
  const std::string h(host);
  in6_addr a6{};
  in_addr a4{};
  if (h == "0.0.0.0" || h == "::") {
    for (const auto& a : lan_addresses()) {
      if (h == "0.0.0.0" && a.front() == '[')
        continue;  // an IPv4 listener is not reachable on IPv6
      out.push_back(scheme + a + ":" + p + "/");
    }
  } else if (inet_pton(AF_INET, h.c_str(), &a4) == 1) {
    if ((ntohl(a4.s_addr) >> 24) != 127) out.push_back(scheme + h + ":" + p + "/");
  } else if (inet_pton(AF_INET6, h.c_str(), &a6) == 1) {
    if (!IN6_IS_ADDR_LOOPBACK(&a6) && !IN6_IS_ADDR_LINKLOCAL(&a6)) {
      out.push_back(scheme + "[" + h + "]:" + p + "/");
    }
  }
  return out;
}

std::string server_info_json(const std::vector<std::string>& urls) {
  nlohmann::json j = {{"server", "bombcheckers"},
                      {"version", std::string(kServerVersion)},
                      {"protocol", 1},
                      {"lan_urls", urls}};
  return j.dump();
}

std::optional<std::string> percent_decode(std::string_view raw, bool plus_is_space) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '+' && plus_is_space) {
      out += ' ';
    } else if (raw[i] == '%') {
      if (i + 2 >= raw.size()) return std::nullopt;
      const int hi = hex(raw[i + 1]), lo = hex(raw[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::optional<std::string> query_param(std::string_view target, std::string_view name) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(q + 1);
  if (auto h = query.find('#'); h != std::string_view::npos) query = query.substr(0, h);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const auto eq = param.find('=');
    if (param.substr(0, eq) != name) continue;
    return percent_decode(eq == std::string_view::npos ? std::string_view() : param.substr(eq + 1),
                          true);
  }
  return std::nullopt;
}

std::optional<std::string> qr_svg(std::string_view text) {
  if (text.size() > kQrTextMax) return std::nullopt;
  auto code = qr::encode(text, qr::Ecc::M);
  if (!code) code = qr::encode(text, qr::Ecc::L);
  if (!code) return std::nullopt;
  return qr::to_svg(*code);
}

std::string qr_terminal(std::string_view url, bool ansi) {
  auto code = qr::encode(url, qr::Ecc::M);
  if (!code) code = qr::encode(url, qr::Ecc::L);
  if (!code) return {};
  return qr::to_terminal(*code, 2, ansi);
}

}  // namespace bc::server
