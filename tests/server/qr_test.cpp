// QR codes (server/net/qr.cpp): the symbol from libqrencode as this server asks for it (byte mode,
// level M or L, versions 1..10), and the two renderers read back module by module.
#include "server/net/qr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "server/net/lan.hpp"

namespace bc::qr {
namespace {

// The three finder patterns: 7x7 squares (dark ring, light ring, dark 3x3 centre) in the corners.
void expect_finders(const Code& c) {
  const int s = c.size;
  for (auto [ox, oy] : {std::pair{0, 0}, std::pair{s - 7, 0}, std::pair{0, s - 7}}) {
    for (int y = 0; y < 7; ++y) {
      for (int x = 0; x < 7; ++x) {
        const int d = std::max(std::abs(x - 3), std::abs(y - 3));
        EXPECT_EQ(c.dark(ox + x, oy + y), d != 2) << ox + x << "," << oy + y;
      }
    }
  }
  // The timing patterns between them alternate, dark first.
  for (int i = 8; i < s - 8; ++i) {
    EXPECT_EQ(c.dark(6, i), i % 2 == 0);
    EXPECT_EQ(c.dark(i, 6), i % 2 == 0);
  }
}

TEST(Qr, SymbolsHaveTheirSizeFindersAndTiming) {
  for (const std::string& t : std::vector<std::string>{
           "A", "http://192.168.1.20:8080/", "https://[fd00::1234:5678]:8443/r/K7QF2M",
           std::string(150, 'z'), "\x01\xff\x80 bytes"}) {
    for (Ecc e : {Ecc::L, Ecc::M}) {
      auto c = encode(t, e);
      ASSERT_TRUE(c) << t;
      EXPECT_GE(c->version, 1);
      EXPECT_LE(c->version, kMaxVersion);
      EXPECT_EQ(c->size, 17 + 4 * c->version);
      ASSERT_EQ(c->modules.size(), static_cast<std::size_t>(c->size * c->size));
      EXPECT_TRUE(std::all_of(c->modules.begin(), c->modules.end(), [](auto m) { return m <= 1; }));
      expect_finders(*c);
    }
  }
}

TEST(Qr, TheSmallestVersionThatHoldsTheText) {
  EXPECT_EQ(encode("A", Ecc::M)->version, 1);
  // Byte mode, level M: version 1 holds 14 bytes, version 2 holds 26.
  EXPECT_EQ(encode(std::string(14, 'a'), Ecc::M)->version, 1);
  EXPECT_EQ(encode(std::string(15, 'a'), Ecc::M)->version, 2);
  EXPECT_EQ(encode(std::string(26, 'a'), Ecc::M)->version, 2);
}

// Version 10 holds 213 bytes at level M and 271 at L: lan.cpp falls back to L, then gives up.
TEST(Qr, LongTextsFallBackToLevelLThenAreRefused) {
  EXPECT_TRUE(encode(std::string(213, 'q'), Ecc::M));
  EXPECT_FALSE(encode(std::string(214, 'q'), Ecc::M));
  auto l = encode(std::string(250, 'q'), Ecc::L);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->version, kMaxVersion);
  EXPECT_FALSE(encode(std::string(272, 'q'), Ecc::L));
  EXPECT_TRUE(server::qr_svg(std::string(250, 'q')).has_value());
  EXPECT_TRUE(server::qr_svg(std::string(100, 'q')).has_value());
}

TEST(Qr, RenderersDrawEveryModule) {
  auto c = *encode("http://10.0.0.2:8080/", Ecc::M);
  const std::string t = to_terminal(c, 2, false);
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), (c.size + 4 + 1) / 2);
  const std::string svg = to_svg(c);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("viewBox=\"0 0 " + std::to_string(c.size + 8)), std::string::npos);
}

TEST(Qr, TerminalHalfBlocksReadBackToTheSymbol) {
  // Light-on-dark: a block half is a light module. Read every cell back and compare.
  for (const std::string& t :
       std::vector<std::string>{"http://192.168.1.20:8080/", std::string(60, 'k')}) {
    auto c = *encode(t, Ecc::M);
    const int q = 2;
    const std::string out = to_terminal(c, q, true);
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < out.size();) {
      const auto nl = out.find('\n', at);
      lines.push_back(out.substr(at, nl - at));
      at = nl + 1;
    }
    const int n = c.size + 2 * q;
    ASSERT_EQ(static_cast<int>(lines.size()), (n + 1) / 2);
    for (int row = 0; row < static_cast<int>(lines.size()); ++row) {
      std::string l = lines[static_cast<std::size_t>(row)];
      const std::string on = "\x1b[40;97m", off = "\x1b[0m";
      ASSERT_EQ(l.rfind(on, 0), 0u);
      ASSERT_EQ(l.substr(l.size() - off.size()), off);
      l = l.substr(on.size(), l.size() - on.size() - off.size());
      int col = 0;
      for (std::size_t i = 0; i < l.size(); ++col) {
        bool top = false, bottom = false;
        if (l[i] == ' ') {
          i += 1;
        } else {
          const std::string g = l.substr(i, 3);
          top = g == "\u2588" || g == "\u2580";
          bottom = g == "\u2588" || g == "\u2584";
          ASSERT_TRUE(top || bottom) << "unexpected glyph";
          i += 3;
        }
        const int x = col - q, y = 2 * row - q;
        EXPECT_EQ(top, !c.dark(x, y)) << x << "," << y;
        if (y + 1 < c.size + q) {
          EXPECT_EQ(bottom, !c.dark(x, y + 1)) << x << "," << y + 1;
        }
      }
      EXPECT_EQ(col, n);
    }
  }
}

// The SVG draws exactly the dark modules: its path's runs, read back, give the symbol.
TEST(Qr, SvgRunsReadBackToTheSymbol) {
  auto c = *encode("http://192.168.1.20:8080/r/K7QF2M", Ecc::M);
  const int q = 4;
  const std::string svg = to_svg(c, q);
  std::vector<std::uint8_t> seen(c.modules.size(), 0);
  const auto d = svg.find(" d=\"");
  ASSERT_NE(d, std::string::npos);
  const char* p = svg.c_str() + d + 4;
  while (*p == 'M') {
    char* end = nullptr;
    const long x = std::strtol(p + 1, &end, 10);
    const long y = std::strtol(end + 1, &end, 10);
    ASSERT_EQ(*end, 'h');
    const long run = std::strtol(end + 1, &end, 10);
    const std::string close = "v1h-" + std::to_string(run) + "z";
    ASSERT_EQ(std::string(end, close.size()), close);
    p = end + close.size();
    for (long i = 0; i < run; ++i) {
      seen[static_cast<std::size_t>((y - q) * c.size + (x - q + i))] = 1;
    }
  }
  EXPECT_EQ(seen, c.modules);
}

}  // namespace
}  // namespace bc::qr
