// serve --trusted-proxy without sockets: the list's syntax, CIDR matching, and the client that
// X-Forwarded-For names (rightmost untrusted entry).
#include "server/host/trusted_proxies.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace bc::server {
namespace {

TrustedProxies trusted(std::string_view list) {
  std::string error;
  auto t = TrustedProxies::parse(list, error);
  if (!t) throw std::runtime_error(error);
  return *t;
}

// forwarded_client over the header values given, "" for nullopt.
std::string client(const TrustedProxies& t, std::vector<std::string_view> headers) {
  return forwarded_client(t, headers).value_or("");
}

TEST(TrustedProxies, ParsesAddressesAndRangesOfBothFamilies) {
  const auto t = trusted(" 127.0.0.1, 10.0.0.0/8,,fd00::/8 ,2001:DB8::1,192.168.7.9/16");
  EXPECT_EQ(t.to_string(), "127.0.0.1, 10.0.0.0/8, fd00::/8, 2001:db8::1, 192.168.0.0/16")
      << "an address stands for itself; a range's host bits are dropped";
  EXPECT_TRUE(trusted("").empty());
  EXPECT_TRUE(trusted(" , ,").empty());
  EXPECT_EQ(trusted("::ffff:10.0.0.0/104,::ffff:127.0.0.1").to_string(), "10.0.0.0/8, 127.0.0.1")
      << "IPv4-mapped entries are IPv4";
}

TEST(TrustedProxies, RefusesBadEntriesAndNamesThem) {
  for (const std::string bad :
       {"localhost", "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "/8", "10.0.0.0/8/8", "10.0.0.0/x",
        "10.0.0.0/-1", "10.0.0.0/+8", "1.2.3", "1.2.3.4.5", "256.0.0.1", "::ffff::", "[::1]",
        "1.2.3.4:80", "fe80::1%eth0", "10.0.0.0 /8", "::ffff:10.0.0.0/8", "01.2.3.4"}) {
    std::string error;
    EXPECT_FALSE(TrustedProxies::parse("127.0.0.1," + bad, error)) << bad;
    EXPECT_EQ(error.rfind(bad + ": ", 0), 0u) << bad << " -> " << error;
  }
}

TEST(TrustedProxies, MatchesCidrRangesOfItsOwnFamilyOnly) {
  const auto t = trusted("10.0.0.0/8,192.168.1.7,fd00::/8,2001:db8::/127");
  for (const char* in : {"10.0.0.0", "10.255.255.255", "192.168.1.7", "fd12:3456::1",
                         "2001:db8::", "2001:db8::1", "::ffff:10.1.2.3"}) {
    EXPECT_TRUE(t.contains(std::string_view(in))) << in;
  }
  for (const char* out : {"11.0.0.0", "9.255.255.255", "192.168.1.8", "fe00::1", "2001:db8::2",
                          "::a00:1", "?", "", "10.0.0.1:80", "example.org"}) {
    EXPECT_FALSE(t.contains(std::string_view(out))) << out;
  }
  EXPECT_TRUE(trusted("0.0.0.0/0").contains(std::string_view("203.0.113.9")));
  EXPECT_FALSE(trusted("0.0.0.0/0").contains(std::string_view("2001:db8::9")));
  EXPECT_TRUE(trusted("::/0").contains(std::string_view("2001:db8::9")));
  EXPECT_FALSE(TrustedProxies{}.contains(std::string_view("127.0.0.1")));
}

TEST(LimitKey, IPv6ClientsAreCountedByTheirSlash64AndIPv4ByTheirAddress) {
  EXPECT_EQ(limit_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(limit_key("2001:db8:1:2::1"), limit_key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
  EXPECT_NE(limit_key("2001:db8:1:2::1"), limit_key("2001:db8:1:3::1"));
  EXPECT_EQ(limit_key("::1"), "::/64");
  EXPECT_EQ(limit_key("203.0.113.7"), "203.0.113.7");
  // IPv4 clients of a dual-stack socket are IPv4 clients, not one /64 (::ffff:0:0/64) for all.
  EXPECT_EQ(limit_key("::ffff:203.0.113.7"), "203.0.113.7");
  EXPECT_NE(limit_key("::ffff:203.0.113.7"), limit_key("::ffff:203.0.113.8"));
  EXPECT_EQ(limit_key("?"), "?");
  EXPECT_EQ(limit_key(""), "");
}

TEST(ForwardedFor, TheRightmostUntrustedEntryIsTheClient) {
  const auto t = trusted("10.0.0.0/8");
  EXPECT_EQ(client(t, {"203.0.113.7"}), "203.0.113.7");
  // Entries left of the client are the client's to write: not believed.
  EXPECT_EQ(client(t, {"1.1.1.1, 203.0.113.7"}), "203.0.113.7");
  // Trusted hops on the right (a proxy chain) are skipped.
  EXPECT_EQ(client(t, {"1.1.1.1, 203.0.113.7, 10.0.0.2,10.9.9.9"}), "203.0.113.7");
  EXPECT_EQ(client(t, {" \t203.0.113.7 \t, 10.0.0.2 "}), "203.0.113.7");
}

TEST(ForwardedFor, IPv6EntriesBracketsAndPortsAreRead) {
  const auto t = trusted("fd00::/8");
  EXPECT_EQ(client(t, {"2001:DB8:0:0::7"}), "2001:db8::7");
  EXPECT_EQ(client(t, {"[2001:db8::7]"}), "2001:db8::7");
  EXPECT_EQ(client(t, {"[2001:db8::7]:4711, fd00::1"}), "2001:db8::7");
  EXPECT_EQ(client(t, {"203.0.113.7:4711"}), "203.0.113.7");
  EXPECT_EQ(client(t, {"[203.0.113.7]"}), "") << "brackets hold IPv6 only";
  EXPECT_EQ(client(t, {"[2001:db8::7]x"}), "");
  EXPECT_EQ(client(t, {"[2001:db8::7]:123456"}), "");
  EXPECT_EQ(client(t, {"203.0.113.7:http"}), "");
}

TEST(ForwardedFor, IPv4MappedAddressesAreGivenAsIPv4) {
  const auto t = trusted("127.0.0.1");
  EXPECT_EQ(client(t, {"::ffff:203.0.113.7"}), "203.0.113.7");
  EXPECT_EQ(client(t, {"203.0.113.7, ::ffff:127.0.0.1"}), "203.0.113.7")
      << "a mapped trusted proxy is the trusted proxy";
}

TEST(ForwardedFor, SeveralHeadersAreOneListInTheirOrder) {
  const auto t = trusted("10.0.0.0/8");
  EXPECT_EQ(client(t, {"1.1.1.1", "203.0.113.7", "10.0.0.2"}), "203.0.113.7");
  EXPECT_EQ(client(t, {"203.0.113.7", "10.0.0.2, 10.0.0.3", ""}), "203.0.113.7");
  EXPECT_EQ(client(t, {"10.0.0.3", "198.51.100.1"}), "198.51.100.1");
}

TEST(ForwardedFor, NoEntryOrGarbageBeforeTheClientGivesNone) {
  const auto t = trusted("10.0.0.0/8");
  EXPECT_EQ(client(t, {}), "");
  EXPECT_EQ(client(t, {""}), "");
  EXPECT_EQ(client(t, {" , ,"}), "");
  EXPECT_EQ(client(t, {"unknown"}), "");
  EXPECT_EQ(client(t, {"203.0.113.7, nonsense, 10.0.0.2"}), "")
      << "a hop that is not an address: the chain cannot be followed past it";
  EXPECT_EQ(client(t, {"nonsense, 203.0.113.7"}), "203.0.113.7")
      << "garbage left of the client is the client's own and does not matter";
  EXPECT_EQ(client(t, {"203.0.113.7;x"}), "");
  EXPECT_EQ(client(t, {std::string_view("203.0.113.7\0", 12)}), "") << "a NUL is not ignored";
}

TEST(ForwardedFor, EveryEntryTrustedGivesTheLeftmost) {
  const auto t = trusted("10.0.0.0/8,127.0.0.1");
  EXPECT_EQ(client(t, {"10.0.0.9, 10.0.0.2"}), "10.0.0.9");
  EXPECT_EQ(client(t, {"127.0.0.1"}), "127.0.0.1");
}

TEST(ForwardedFor, HugeAndRandomHeadersNeverCrash) {
  const auto t = trusted("10.0.0.0/8,fd00::/8");
  EXPECT_EQ(client(t, {std::string(100000, ',')}), "");
  EXPECT_EQ(client(t, {std::string(100000, ' ')}), "");
  EXPECT_EQ(client(t, {std::string(100000, '1')}), "");
  EXPECT_EQ(client(t, {std::string(100000, ':')}), "");
  EXPECT_EQ(client(t, {std::string(100000, '[')}), "");
  std::string many;
  for (int i = 0; i < 10000; ++i) many += "10.0.0." + std::to_string(i % 256) + ",";
  EXPECT_EQ(client(t, {"203.0.113.7," + many}), "203.0.113.7");
  std::mt19937 rng(7);
  const std::string alphabet = "0123456789abcdefABCDEF.:,[] \t%/x\xff";
  for (int i = 0; i < 20000; ++i) {
    std::string h(rng() % 64, ' ');
    for (auto& c : h) c = alphabet[rng() % alphabet.size()];
    const auto got = forwarded_client(t, std::vector<std::string_view>{h});
    if (got) {
      EXPECT_TRUE(IpAddress::parse(*got)) << h << " -> " << *got;
    }
  }
}

}  // namespace
}  // namespace bc::server
