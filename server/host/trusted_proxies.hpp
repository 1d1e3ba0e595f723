// `serve --trusted-proxy`: the reverse proxies whose X-Forwarded-For header names the client, so
// that the per-address limits count each client behind them and not the proxy (README.md,
// docs/PROTOCOL.md "Limits"). Free of Boost, like server.hpp, whose ServerConfig holds the list.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bc::server {

// An IPv4 or IPv6 address; an IPv4-mapped IPv6 address (::ffff:192.0.2.1) is its IPv4 address.
struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};  // IPv4: the first 4
  bool v4 = false;

  // A bare address as inet_pton reads it ("192.0.2.1", "2001:db8::1"); nullopt for anything else
  // (names, ports, brackets, zone ids, more than 45 characters).
  static std::optional<IpAddress> parse(std::string_view text);
  // The usual form: "192.0.2.1", "2001:db8::1".
  std::string to_string() const;
  bool operator==(const IpAddress&) const = default;
};

// What the per-address limits count a client as: an IPv4 address as itself, an IPv6 one by its
// /64 ("2001:db8:1:2::/64"), the block one home or one machine in a cloud is given (counted by the
// address, one /64 would be 2^64 clients: issue 31); anything that is not an address as it is.
std::string limit_key(std::string_view address);

class TrustedProxies {
 public:
  // Addresses and CIDR ranges, IPv4 or IPv6, separated by commas: "127.0.0.1,10.0.0.0/8,fd00::/8"
  // (spaces around an entry and empty entries are allowed; an address stands for itself alone; a
  // range's bits past its prefix are ignored). nullopt when an entry is neither, and `error` says
  // which and why.
  static std::optional<TrustedProxies> parse(std::string_view list, std::string& error);

  bool empty() const { return ranges_.empty(); }
  bool contains(const IpAddress& address) const;
  // False for anything that is not an address ("?", a name).
  bool contains(std::string_view address) const;
  // The list as parsed, for the log: "127.0.0.1, 10.0.0.0/8, fd00::/8".
  std::string to_string() const;

 private:
  struct Range {
    IpAddress base;  // its bits past `bits` are zero
    unsigned bits = 0;
  };
  std::vector<Range> ranges_;
};

// The client of a request that a trusted proxy passed on, from its X-Forwarded-For header values
// (all of them, in the order received: one comma-separated list): read from the right, entries
// that are trusted proxies are skipped and the first other one is the client (the entries left of
// it are the client's to write, so they are not believed). Each entry is an address, optionally
// "[v6]", "[v6]:port" or "v4:port"; empty entries are skipped. nullopt when there is none to
// believe: no entry, or one that is not an address before the client was found (the caller then
// takes the peer's address). When every entry is a trusted proxy, the leftmost. The address is
// given in IpAddress's form (an IPv4-mapped one as IPv4).
std::optional<std::string> forwarded_client(const TrustedProxies& trusted,
                                            std::span<const std::string_view> headers);

}  // namespace bc::server
