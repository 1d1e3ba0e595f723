#include "server/host/trusted_proxies.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <charconv>

namespace bc::server {

namespace {

namespace ip = boost::asio::ip;

// The longest address text: an IPv6 address with an IPv4 tail (INET6_ADDRSTRLEN - 1).
constexpr std::size_t kMaxAddressChars = 45;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Zeroes the bits of `a` past the first `bits`.
IpAddress masked(IpAddress a, unsigned bits) {
  const unsigned total = a.v4 ? 32 : 128;
  for (unsigned i = bits; i < total; ++i) {
    a.bytes[i / 8] = static_cast<std::uint8_t>(a.bytes[i / 8] & ~(0x80u >> (i % 8)));
  }
  return a;
}

// One X-Forwarded-For entry: an address, "[v6]", "[v6]:port" or "v4:port".
std::optional<IpAddress> entry_address(std::string_view e) {
  if (!e.empty() && e.front() == '[') {
    const auto close = e.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view rest = e.substr(close + 1);
    if (!rest.empty() && !(rest.front() == ':' && rest.size() <= 6 && all_digits(rest.substr(1))))
      return std::nullopt;
    auto a = IpAddress::parse(e.substr(1, close - 1));
    if (!a || a->v4) return std::nullopt;  // brackets hold IPv6 only
    return a;
  }
  const auto colon = e.find(':');
  if (colon != std::string_view::npos && e.find(':', colon + 1) == std::string_view::npos) {
    // One colon: an IPv4 address and a port (IPv6 has at least two).
    const std::string_view port = e.substr(colon + 1);
    if (port.size() > 5 || !all_digits(port)) return std::nullopt;
    auto a = IpAddress::parse(e.substr(0, colon));
    if (!a || !a->v4) return std::nullopt;
    return a;
  }
  return IpAddress::parse(e);
}

}  // namespace

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  if (text.empty() || text.size() > kMaxAddressChars) return std::nullopt;
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.' ||
           c == ':';
  });
  if (!plain) return std::nullopt;
  boost::system::error_code ec;
  const ip::address a = ip::make_address(std::string(text), ec);
  if (ec) return std::nullopt;
  IpAddress out;
  if (a.is_v4()) {
    const auto b = a.to_v4().to_bytes();
    std::copy(b.begin(), b.end(), out.bytes.begin());
    out.v4 = true;
    return out;
  }
  const ip::address_v6 v6 = a.to_v6();
  if (v6.is_v4_mapped()) {
    const auto b = ip::make_address_v4(ip::v4_mapped, v6).to_bytes();
    std::copy(b.begin(), b.end(), out.bytes.begin());
    out.v4 = true;
    return out;
  }
  const auto b = v6.to_bytes();
  std::copy(b.begin(), b.end(), out.bytes.begin());
  return out;
}

std::string IpAddress::to_string() const {
  if (v4) {
    ip::address_v4::bytes_type b;
    std::copy_n(bytes.begin(), b.size(), b.begin());
    return ip::address_v4(b).to_string();
  }
  ip::address_v6::bytes_type b;
  std::copy(bytes.begin(), bytes.end(), b.begin());
  return ip::address_v6(b).to_string();
}

std::optional<TrustedProxies> TrustedProxies::parse(std::string_view list, std::string& error) {
  TrustedProxies out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const std::string_view item = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.empty()) continue;
    const auto slash = item.find('/');
    auto base = IpAddress::parse(item.substr(0, slash));
    if (!base) {
      error =
          std::string(item) + ": not an IP address or a CIDR range (like 10.0.0.0/8 or fd00::/8)";
      return std::nullopt;
    }
    // An IPv4-mapped IPv6 address is taken as IPv4: so is its prefix (::ffff:10.0.0.0/104 is
    // 10.0.0.0/8).
    const bool mapped = base->v4 && item.substr(0, slash).find(':') != std::string_view::npos;
    const unsigned total = base->v4 ? 32 : 128;
    unsigned bits = total;
    if (slash != std::string_view::npos) {
      const std::string_view digits = item.substr(slash + 1);
      unsigned n = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      const unsigned given_total = mapped ? 128 : total;
      if (!all_digits(digits) || digits.size() > 3 || ec != std::errc() ||
          end != digits.data() + digits.size() || n > given_total || (mapped && n < 96)) {
        error = std::string(item) + ": the prefix length after '/' must be a whole number from " +
                (mapped ? "96" : "0") + " to " + std::to_string(given_total);
        return std::nullopt;
      }
      bits = mapped ? n - 96 : n;
    }
    out.ranges_.push_back(Range{masked(*base, bits), bits});
  }
  return out;
}

bool TrustedProxies::contains(const IpAddress& address) const {
  return std::any_of(ranges_.begin(), ranges_.end(), [&](const Range& r) {
    return r.base.v4 == address.v4 && masked(address, r.bits) == r.base;
  });
}

bool TrustedProxies::contains(std::string_view address) const {
  if (ranges_.empty()) return false;
  const auto a = IpAddress::parse(address);
  return a && contains(*a);
}

std::string TrustedProxies::to_string() const {
  std::string out;
  for (const auto& r : ranges_) {
    if (!out.empty()) out += ", ";
    out += r.base.to_string();
    if (r.bits != (r.base.v4 ? 32u : 128u)) out += "/" + std::to_string(r.bits);
  }
  return out;
}

std::string limit_key(std::string_view address) {
  auto a = IpAddress::parse(address);
  if (!a) return std::string(address);
  if (a->v4) return a->to_string();
  std::fill(a->bytes.begin() + 8, a->bytes.end(), std::uint8_t{0});
  return a->to_string() + "/64";
}

std::optional<std::string> forwarded_client(const TrustedProxies& trusted,
                                            std::span<const std::string_view> headers) {
  std::optional<IpAddress> leftmost;  // the last trusted proxy seen, walking leftwards
  for (auto h = headers.rbegin(); h != headers.rend(); ++h) {
    std::string_view list = *h;
    while (!list.empty()) {
      const auto comma = list.rfind(',');
      const std::string_view item =
          trim(comma == std::string_view::npos ? list : list.substr(comma + 1));
      list = comma == std::string_view::npos ? std::string_view() : list.substr(0, comma);
      if (item.empty()) continue;
      const auto a = entry_address(item);
      if (!a) return std::nullopt;
      if (!trusted.contains(*a)) return a->to_string();
      leftmost = a;
    }
  }
  if (leftmost) return leftmost->to_string();
  return std::nullopt;
}

}  // namespace bc::server
