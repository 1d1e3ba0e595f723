// The QR encoder (server/qr.cpp): known format and version bits, a decoder of our own output (format
// info, Reed-Solomon syndromes, the byte segment), and, where Debian's qrencode is installed, the
// whole matrix against qrencode's for the same text, level and mask.
#include "server/qr.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace bc::qr {
namespace {

// ---------------------------------------------------------------------------------------------
// Known values from the standard's tables.

TEST(Qr, FormatBitsMatchTheStandardTable) {
  // ISO/IEC 18004 Table C.1 (after the 0x5412 mask).
  EXPECT_EQ(format_bits(Ecc::M, 0), 0b101010000010010u);
  EXPECT_EQ(format_bits(Ecc::M, 1), 0b101000100100101u);
  EXPECT_EQ(format_bits(Ecc::M, 7), 0b100101010100000u);
  EXPECT_EQ(format_bits(Ecc::L, 0), 0b111011111000100u);
  EXPECT_EQ(format_bits(Ecc::L, 4), 0b110011000101111u);
  EXPECT_EQ(format_bits(Ecc::L, 7), 0b110100101110110u);
}

TEST(Qr, VersionBitsMatchTheStandardTable) {
  // Table D.1.
  EXPECT_EQ(version_bits(6), 0u);
  EXPECT_EQ(version_bits(7), 0x07C94u);
  EXPECT_EQ(version_bits(8), 0x085BCu);
  EXPECT_EQ(version_bits(9), 0x09A99u);
  EXPECT_EQ(version_bits(10), 0x0A4D3u);
}

TEST(Qr, CapacitiesMatchTheStandardTable) {
  // Table 7, byte mode.
  EXPECT_EQ(capacity_bytes(1, Ecc::L), 17);
  EXPECT_EQ(capacity_bytes(1, Ecc::M), 14);
  EXPECT_EQ(capacity_bytes(2, Ecc::M), 26);
  EXPECT_EQ(capacity_bytes(5, Ecc::M), 84);
  EXPECT_EQ(capacity_bytes(7, Ecc::L), 154);
  EXPECT_EQ(capacity_bytes(10, Ecc::L), 271);
  EXPECT_EQ(capacity_bytes(10, Ecc::M), 213);
}

TEST(Qr, PicksTheSmallestVersionAndRefusesTooLong) {
  EXPECT_EQ(encode(std::string(14, 'a'), Ecc::M)->version, 1);
  EXPECT_EQ(encode(std::string(15, 'a'), Ecc::M)->version, 2);
  EXPECT_EQ(encode(std::string(213, 'a'), Ecc::M)->version, 10);
  EXPECT_FALSE(encode(std::string(214, 'a'), Ecc::M));
  EXPECT_EQ(encode("x", Ecc::M, 3)->version, 3);
  EXPECT_EQ(encode("", Ecc::L)->version, 1);
  EXPECT_EQ(encode("x", Ecc::M, 1, 5)->mask, 5);
}

TEST(Qr, MaskSelectionTakesTheLowestPenalty) {
  const std::string text = "http://192.168.1.20:8080/";
  auto best = encode(text, Ecc::M);
  ASSERT_TRUE(best);
  for (int m = 0; m < 8; ++m) EXPECT_LE(penalty(*best), penalty(*encode(text, Ecc::M, 1, m))) << m;
}

// ---------------------------------------------------------------------------------------------
// A decoder of our own output: independent of the encoder except for the map of function modules.

struct Decoded {
  bool format_ok = false;
  Ecc ecc = Ecc::M;
  int mask = -1;
  bool syndromes_zero = false;
  std::string text;
};

std::uint8_t mul(std::uint8_t a, std::uint8_t b) {
  unsigned r = 0;
  for (int i = 0; i < 8; ++i) {
    if ((b >> i) & 1) r ^= static_cast<unsigned>(a) << i;
  }
  for (int i = 15; i >= 8; --i) {
    if ((r >> i) & 1) r ^= 0x11Du << (i - 8);
  }
  return static_cast<std::uint8_t>(r);
}

Decoded decode(const Code& c) {
  Decoded out;
  const int s = c.size;
  auto bit = [&](int x, int y) { return c.dark(x, y) ? 1u : 0u; };
  // Both copies of the format information, bit 14 first (7.9.1, Figure 25).
  std::uint32_t f1 = 0, f2 = 0;
  for (int i = 0; i <= 5; ++i) f1 |= bit(8, i) << i;
  f1 |= bit(8, 7) << 6 | bit(8, 8) << 7 | bit(7, 8) << 8;
  for (int i = 9; i < 15; ++i) f1 |= bit(14 - i, 8) << i;
  for (int i = 0; i < 8; ++i) f2 |= bit(s - 1 - i, 8) << i;
  for (int i = 8; i < 15; ++i) f2 |= bit(8, s - 15 + i) << i;
  if (f1 != f2 || !c.dark(8, s - 8)) return out;
  // Unmask and check the BCH code by division instead of a table.
  const std::uint32_t raw = f1 ^ 0x5412u;
  std::uint32_t rem = raw;
  for (int i = 14; i >= 10; --i) {
    if ((rem >> i) & 1) rem ^= 0x537u << (i - 10);
  }
  if (rem != 0) return out;
  const std::uint32_t level = raw >> 13;
  if (level != 0 && level != 1) return out;  // Q and H are never made
  out.format_ok = true;
  out.ecc = level == 1 ? Ecc::L : Ecc::M;
  out.mask = static_cast<int>((raw >> 10) & 7);

  // The codewords in placement order.
  const int version = (s - 17) / 4;
  const auto fn = function_modules(version);
  std::vector<std::uint8_t> cw;
  int nbits = 0;
  std::uint8_t cur = 0;
  for (int right = s - 1; right >= 1; right -= 2) {
    if (right == 6) right = 5;
    const bool upward = ((right + 1) & 2) == 0;
    for (int v = 0; v < s; ++v) {
      const int y = upward ? s - 1 - v : v;
      for (int x = right; x > right - 2; --x) {
        if (fn[static_cast<std::size_t>(y * s + x)]) continue;
        const bool d = c.dark(x, y) != mask_bit(out.mask, x, y);
        cur = static_cast<std::uint8_t>((cur << 1) | (d ? 1 : 0));
        if (++nbits % 8 == 0) cw.push_back(cur);
      }
    }
  }
  // Blocks (Table 9 again, written out independently).
  constexpr std::array<std::array<int, 2>, 11> kL{{{0, 0}, {1, 7}, {1, 10}, {1, 15}, {1, 20}, {1, 26},
                                                   {2, 18}, {2, 20}, {2, 24}, {2, 30}, {4, 18}}};
  constexpr std::array<std::array<int, 2>, 11> kM{{{0, 0}, {1, 10}, {1, 16}, {1, 26}, {2, 18}, {2, 24},
                                                   {4, 16}, {4, 18}, {4, 22}, {5, 22}, {5, 26}}};
  const auto [nb, ecl] = (out.ecc == Ecc::L ? kL : kM)[static_cast<std::size_t>(version)];
  const int total = static_cast<int>(cw.size());
  const int short_blocks = nb - total % nb;
  const int short_data = total / nb - ecl;
  std::vector<std::vector<std::uint8_t>> blocks(static_cast<std::size_t>(nb));
  std::size_t k = 0;
  for (int i = 0; i <= short_data; ++i) {
    for (int b = 0; b < nb; ++b) {
      if (i == short_data && b < short_blocks) continue;
      blocks[static_cast<std::size_t>(b)].push_back(cw[k++]);
    }
  }
  std::vector<std::uint8_t> data;
  for (const auto& b : blocks) data.insert(data.end(), b.begin(), b.end());
  for (int i = 0; i < ecl; ++i) {
    for (int b = 0; b < nb; ++b) blocks[static_cast<std::size_t>(b)].push_back(cw[k++]);
  }
  // Every block, read as a polynomial, must vanish at alpha^0 .. alpha^(ecl-1).
  out.syndromes_zero = true;
  std::uint8_t alpha = 1;
  for (int i = 0; i < ecl; ++i) {
    for (const auto& b : blocks) {
      std::uint8_t acc = 0;
      for (auto v : b) acc = static_cast<std::uint8_t>(mul(acc, alpha) ^ v);
      if (acc != 0) out.syndromes_zero = false;
    }
    alpha = mul(alpha, 2);
  }
  // The byte segment: data holds the data codewords of every block in order.
  std::vector<std::uint8_t> d;
  for (int b = 0; b < nb; ++b) {
    const int len = short_data + (b < short_blocks ? 0 : 1);
    d.insert(d.end(), blocks[static_cast<std::size_t>(b)].begin(),
             blocks[static_cast<std::size_t>(b)].begin() + len);
  }
  std::size_t pos = 0;
  auto take = [&](int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i, ++pos) v = (v << 1) | ((d[pos / 8] >> (7 - pos % 8)) & 1u);
    return v;
  };
  if (take(4) != 0x4) return out;
  const std::uint32_t count = take(version <= 9 ? 8 : 16);
  for (std::uint32_t i = 0; i < count; ++i) out.text.push_back(static_cast<char>(take(8)));
  return out;
}

TEST(Qr, OwnOutputDecodes) {
  const std::vector<std::string> texts = {
      "", "A", "http://192.168.1.20:8080/", "https://[fd00::1234:5678]:8443/r/K7QF2M",
      std::string(100, 'z'), std::string(154, '~'), std::string(213, 'q'), "\x01\xff\x80 bytes"};
  for (const auto& t : texts) {
    for (Ecc e : {Ecc::L, Ecc::M}) {
      auto c = encode(t, e);
      if (!c) {
        EXPECT_GT(t.size(), 213u);
        continue;
      }
      const auto d = decode(*c);
      SCOPED_TRACE("version " + std::to_string(c->version) + " text '" + t + "'");
      EXPECT_TRUE(d.format_ok);
      EXPECT_EQ(d.ecc, e);
      EXPECT_EQ(d.mask, c->mask);
      EXPECT_TRUE(d.syndromes_zero);
      EXPECT_EQ(d.text, t);
    }
  }
}

TEST(Qr, EveryVersionAndMaskDecodes) {
  for (int v = kMinVersion; v <= kMaxVersion; ++v) {
    for (int m = 0; m < 8; ++m) {
      const std::string t(static_cast<std::size_t>(capacity_bytes(v, Ecc::M)), static_cast<char>('a' + m));
      auto c = encode(t, Ecc::M, v, m);
      ASSERT_TRUE(c);
      ASSERT_EQ(c->version, v);
      ASSERT_EQ(c->size, 17 + 4 * v);
      const auto d = decode(*c);
      EXPECT_TRUE(d.format_ok && d.syndromes_zero && d.text == t) << "version " << v << " mask " << m;
    }
  }
}

TEST(Qr, FinderAndTimingPatternsAreInPlace) {
  auto c = *encode("timing", Ecc::M, 7);
  const int s = c.size;
  for (int i = 8; i < s - 8; ++i) {
    EXPECT_EQ(c.dark(6, i), i % 2 == 0);
    EXPECT_EQ(c.dark(i, 6), i % 2 == 0);
  }
  for (auto [ox, oy] : {std::pair{0, 0}, std::pair{s - 7, 0}, std::pair{0, s - 7}}) {
    for (int y = 0; y < 7; ++y) {
      for (int x = 0; x < 7; ++x) {
        const int d = std::max(std::abs(x - 3), std::abs(y - 3));
        EXPECT_EQ(c.dark(ox + x, oy + y), d != 2);
      }
    }
  }
  // The version information (version 7: 000111 110010 010100), bottom-left copy: bit i at (i/3, s-11+i%3).
  const std::uint32_t vb = version_bits(7);
  for (int i = 0; i < 18; ++i) EXPECT_EQ(c.dark(i / 3, s - 11 + i % 3), ((vb >> i) & 1) != 0) << i;
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
  for (const std::string& t : std::vector<std::string>{"http://192.168.1.20:8080/", std::string(60, 'k')}) {
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

// ---------------------------------------------------------------------------------------------
// Against Debian's qrencode (only where /usr/bin/qrencode exists).

std::optional<std::vector<std::string>> qrencode_rows(const std::string& text, char level, int version) {
  const std::string path = "/usr/bin/qrencode";
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    std::fclose(f);
  } else {
    return std::nullopt;
  }
  // The text goes in through a file so that nothing in it reaches a shell.
  char name[] = "/tmp/bc_qr_test_XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) return std::nullopt;
  std::FILE* in = fdopen(fd, "wb");
  std::fwrite(text.data(), 1, text.size(), in);
  std::fclose(in);
  const std::string cmd = path + " -8 -l " + level + " -v " + std::to_string(version) +
                          " -m 0 -t ASCII -o - -r " + name;
  std::FILE* p = popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  std::vector<std::string> rows;
  std::string line;
  int ch = 0;
  while ((ch = std::fgetc(p)) != EOF) {
    if (ch == '\n') {
      rows.push_back(line);
      line.clear();
    } else {
      line.push_back(static_cast<char>(ch));
    }
  }
  pclose(p);
  std::remove(name);
  return rows;
}

TEST(Qr, MatchesQrencode) {
  const std::vector<std::string> texts = {"HELLO", "http://192.168.1.20:8080/",
                                          "http://[2001:db8::42]:8080/r/K7QF2M?x=1",
                                          std::string(120, 'w'), std::string(200, '5')};
  int compared = 0;
  for (const auto& t : texts) {
    for (Ecc e : {Ecc::L, Ecc::M}) {
      auto rows = qrencode_rows(t, e == Ecc::L ? 'L' : 'M', 1);
      if (!rows) GTEST_SKIP() << "qrencode is not installed";
      ASSERT_FALSE(rows->empty());
      const int size = static_cast<int>(rows->size());
      // Read qrencode's mask from its format bits, then encode with the same mask.
      Code theirs;
      theirs.size = size;
      theirs.version = (size - 17) / 4;
      theirs.modules.resize(static_cast<std::size_t>(size * size));
      for (int y = 0; y < size; ++y) {
        ASSERT_EQ((*rows)[static_cast<std::size_t>(y)].size(), static_cast<std::size_t>(2 * size));
        for (int x = 0; x < size; ++x) {
          theirs.modules[static_cast<std::size_t>(y * size + x)] =
              (*rows)[static_cast<std::size_t>(y)][static_cast<std::size_t>(2 * x)] == '#';
        }
      }
      const auto d = decode(theirs);
      ASSERT_TRUE(d.format_ok);
      EXPECT_EQ(d.text, t);
      auto ours = encode(t, e, 1, d.mask);
      ASSERT_TRUE(ours);
      EXPECT_EQ(ours->version, theirs.version) << t;
      EXPECT_EQ(ours->modules, theirs.modules) << t << " level " << (e == Ecc::L ? 'L' : 'M');
      ++compared;
    }
  }
  EXPECT_EQ(compared, 10);
}

}  // namespace
}  // namespace bc::qr
