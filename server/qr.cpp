// QR code encoding: byte-mode segment, Reed-Solomon blocks, interleaving, function patterns, the
// zigzag data placement, the eight masks and their penalties. Section numbers are ISO/IEC 18004:2015.
#include "server/qr.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace bc::qr {

namespace {

// Table 9, versions 1..10 (index 0 unused): error correction codewords per block and number of blocks.
constexpr std::array<int, 11> kEccPerBlockL{0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18};
constexpr std::array<int, 11> kEccPerBlockM{0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26};
constexpr std::array<int, 11> kBlocksL{0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4};
constexpr std::array<int, 11> kBlocksM{0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5};

int ecc_per_block(int v, Ecc e) {
  const auto i = static_cast<std::size_t>(v);
  return e == Ecc::L ? kEccPerBlockL[i] : kEccPerBlockM[i];
}
int blocks(int v, Ecc e) {
  const auto i = static_cast<std::size_t>(v);
  return e == Ecc::L ? kBlocksL[i] : kBlocksM[i];
}

// Modules left for data and error correction once the function patterns are placed (bits).
int raw_data_modules(int v) {
  int r = (16 * v + 128) * v + 64;
  if (v >= 2) {
    const int n = v / 7 + 2;
    r -= (25 * n - 10) * n - 55;
    if (v >= 7) r -= 36;
  }
  return r;
}

int data_codewords(int v, Ecc e) { return raw_data_modules(v) / 8 - ecc_per_block(v, e) * blocks(v, e); }

int count_bits(int v) { return v <= 9 ? 8 : 16; }  // byte mode character count indicator (Table 3)

// Centres of the alignment patterns on each axis (Annex E).
std::vector<int> alignment_positions(int v) {
  if (v == 1) return {};
  const int n = v / 7 + 2;
  const int size = 17 + 4 * v;
  const int step = (v * 4 + n * 2 + 1) / (n * 2 - 2) * 2;
  std::vector<int> out(static_cast<std::size_t>(n));
  out[0] = 6;
  for (int i = n - 1, pos = size - 7; i >= 1; --i, pos -= step) out[static_cast<std::size_t>(i)] = pos;
  return out;
}

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
std::uint8_t gf_mul(std::uint8_t a, std::uint8_t b) {
  unsigned r = 0;
  for (int i = 7; i >= 0; --i) {
    r = (r << 1) ^ ((r >> 7) * 0x11Du);
    r ^= ((b >> i) & 1u) * a;
  }
  return static_cast<std::uint8_t>(r);
}

// The generator polynomial of degree n (roots alpha^0 .. alpha^(n-1)), leading 1 dropped.
std::vector<std::uint8_t> rs_generator(int n) {
  std::vector<std::uint8_t> g(static_cast<std::size_t>(n), 0);
  g.back() = 1;
  std::uint8_t root = 1;
  for (int i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < g.size(); ++j) {
      g[j] = gf_mul(g[j], root);
      if (j + 1 < g.size()) g[j] ^= g[j + 1];
    }
    root = gf_mul(root, 0x02);
  }
  return g;
}

std::vector<std::uint8_t> rs_remainder(const std::vector<std::uint8_t>& data,
                                       const std::vector<std::uint8_t>& gen) {
  std::vector<std::uint8_t> r(gen.size(), 0);
  for (std::uint8_t b : data) {
    const std::uint8_t factor = b ^ r[0];
    r.erase(r.begin());
    r.push_back(0);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] ^= gf_mul(gen[i], factor);
  }
  return r;
}

class Matrix {
 public:
  explicit Matrix(int version)
      : size_(17 + 4 * version),
        dark_(static_cast<std::size_t>(size_ * size_), 0),
        function_(static_cast<std::size_t>(size_ * size_), 0) {}

  int size() const { return size_; }
  bool dark(int x, int y) const { return dark_[idx(x, y)] != 0; }
  bool function(int x, int y) const { return function_[idx(x, y)] != 0; }
  void set_function(int x, int y, bool d) {
    dark_[idx(x, y)] = d ? 1 : 0;
    function_[idx(x, y)] = 1;
  }
  void set(int x, int y, bool d) { dark_[idx(x, y)] = d ? 1 : 0; }
  const std::vector<std::uint8_t>& modules() const { return dark_; }
  const std::vector<std::uint8_t>& functions() const { return function_; }

 private:
  std::size_t idx(int x, int y) const { return static_cast<std::size_t>(y * size_ + x); }
  int size_;
  std::vector<std::uint8_t> dark_;
  std::vector<std::uint8_t> function_;
};

void draw_finder(Matrix& m, int cx, int cy) {
  for (int dy = -4; dy <= 4; ++dy) {
    for (int dx = -4; dx <= 4; ++dx) {
      const int x = cx + dx, y = cy + dy;
      if (x < 0 || y < 0 || x >= m.size() || y >= m.size()) continue;
      const int d = std::max(std::abs(dx), std::abs(dy));  // 4: separator, 2: the light ring
      m.set_function(x, y, d != 2 && d != 4);
    }
  }
}

void draw_format(Matrix& m, Ecc ecc, int mask) {
  const std::uint32_t bits = format_bits(ecc, mask);
  auto bit = [&](int i) { return ((bits >> i) & 1u) != 0; };
  const int s = m.size();
  // First copy, around the top-left finder.
  for (int i = 0; i <= 5; ++i) m.set_function(8, i, bit(i));
  m.set_function(8, 7, bit(6));
  m.set_function(8, 8, bit(7));
  m.set_function(7, 8, bit(8));
  for (int i = 9; i < 15; ++i) m.set_function(14 - i, 8, bit(i));
  // Second copy, split between the top-right and bottom-left finders.
  for (int i = 0; i < 8; ++i) m.set_function(s - 1 - i, 8, bit(i));
  for (int i = 8; i < 15; ++i) m.set_function(8, s - 15 + i, bit(i));
  m.set_function(8, s - 8, true);  // the dark module
}

void draw_function_patterns(Matrix& m, int version) {
  const int s = m.size();
  for (int i = 0; i < s; ++i) {  // timing patterns
    m.set_function(6, i, i % 2 == 0);
    m.set_function(i, 6, i % 2 == 0);
  }
  draw_finder(m, 3, 3);
  draw_finder(m, s - 4, 3);
  draw_finder(m, 3, s - 4);
  const auto pos = alignment_positions(version);
  const std::size_t n = pos.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if ((i == 0 && j == 0) || (i == 0 && j == n - 1) || (i == n - 1 && j == 0)) continue;
      for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
          m.set_function(pos[i] + dx, pos[j] + dy, std::max(std::abs(dx), std::abs(dy)) != 1);
        }
      }
    }
  }
  draw_format(m, Ecc::M, 0);  // reserves the area; drawn for real once the mask is chosen
  if (version >= 7) {
    const std::uint32_t bits = version_bits(version);
    for (int i = 0; i < 18; ++i) {
      const bool d = ((bits >> i) & 1u) != 0;
      const int a = s - 11 + i % 3, b = i / 3;
      m.set_function(a, b, d);
      m.set_function(b, a, d);
    }
  }
}

// The codeword sequence: data, padded; split into blocks; each block's error correction; interleaved.
std::vector<std::uint8_t> codewords(std::string_view data, int v, Ecc ecc) {
  const int capacity = data_codewords(v, ecc);
  std::vector<bool> bits;
  auto append = [&](std::uint32_t value, int n) {
    for (int i = n - 1; i >= 0; --i) bits.push_back(((value >> i) & 1u) != 0);
  };
  append(0x4, 4);  // byte mode
  append(static_cast<std::uint32_t>(data.size()), count_bits(v));
  for (char c : data) append(static_cast<unsigned char>(c), 8);
  const std::size_t cap_bits = static_cast<std::size_t>(capacity) * 8;
  append(0, static_cast<int>(std::min<std::size_t>(4, cap_bits - bits.size())));  // terminator
  append(0, static_cast<int>((8 - bits.size() % 8) % 8));
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < bits.size(); i += 8) {
    std::uint8_t b = 0;
    for (std::size_t j = 0; j < 8; ++j) b = static_cast<std::uint8_t>((b << 1) | (bits[i + j] ? 1 : 0));
    out.push_back(b);
  }
  for (std::uint8_t pad = 0xEC; out.size() < static_cast<std::size_t>(capacity); pad ^= 0xEC ^ 0x11) {
    out.push_back(pad);
  }

  const int nblocks = blocks(v, ecc);
  const int ecc_len = ecc_per_block(v, ecc);
  const int raw = raw_data_modules(v) / 8;
  const int short_blocks = nblocks - raw % nblocks;
  const int short_len = raw / nblocks;  // data + ecc of a short block
  const auto gen = rs_generator(ecc_len);
  std::vector<std::vector<std::uint8_t>> data_blocks, ecc_blocks;
  std::size_t k = 0;
  for (int i = 0; i < nblocks; ++i) {
    const std::size_t len = static_cast<std::size_t>(short_len - ecc_len + (i < short_blocks ? 0 : 1));
    std::vector<std::uint8_t> d(out.begin() + static_cast<std::ptrdiff_t>(k),
                                out.begin() + static_cast<std::ptrdiff_t>(k + len));
    k += len;
    ecc_blocks.push_back(rs_remainder(d, gen));
    data_blocks.push_back(std::move(d));
  }
  std::vector<std::uint8_t> result;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(short_len - ecc_len); ++i) {
    for (const auto& d : data_blocks) {
      if (i < d.size()) result.push_back(d[i]);
    }
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(ecc_len); ++i) {
    for (const auto& e : ecc_blocks) result.push_back(e[i]);
  }
  return result;
}

// Places the codewords in the two-column zigzag from the bottom-right corner (7.7.3).
void place_data(Matrix& m, const std::vector<std::uint8_t>& cw) {
  const int s = m.size();
  std::size_t i = 0;
  const std::size_t total = cw.size() * 8;
  for (int right = s - 1; right >= 1; right -= 2) {
    if (right == 6) right = 5;  // skip the vertical timing pattern
    const bool upward = ((right + 1) & 2) == 0;
    for (int vert = 0; vert < s; ++vert) {
      const int y = upward ? s - 1 - vert : vert;
      for (int j = 0; j < 2; ++j) {
        const int x = right - j;
        if (m.function(x, y)) continue;
        if (i < total) {
          m.set(x, y, ((cw[i >> 3] >> (7 - (i & 7))) & 1) != 0);
          ++i;
        }  // remainder bits stay light
      }
    }
  }
}

void apply_mask(Matrix& m, int mask) {
  for (int y = 0; y < m.size(); ++y) {
    for (int x = 0; x < m.size(); ++x) {
      if (!m.function(x, y) && mask_bit(mask, x, y)) m.set(x, y, !m.dark(x, y));
    }
  }
}

}  // namespace

bool mask_bit(int mask, int x, int y) {
  // Table 10: i is the row, j the column.
  const int i = y, j = x;
  switch (mask) {
    case 0: return (i + j) % 2 == 0;
    case 1: return i % 2 == 0;
    case 2: return j % 3 == 0;
    case 3: return (i + j) % 3 == 0;
    case 4: return (i / 2 + j / 3) % 2 == 0;
    case 5: return (i * j) % 2 + (i * j) % 3 == 0;
    case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0;
    case 7: return ((i + j) % 2 + (i * j) % 3) % 2 == 0;
    default: return false;
  }
}

std::uint32_t format_bits(Ecc ecc, int mask) {
  const std::uint32_t level = ecc == Ecc::L ? 1u : 0u;  // L 01, M 00, Q 11, H 10
  const std::uint32_t data = (level << 3) | static_cast<std::uint32_t>(mask & 7);
  std::uint32_t rem = data;
  for (int i = 0; i < 10; ++i) rem = (rem << 1) ^ ((rem >> 9) * 0x537u);
  return ((data << 10) | (rem & 0x3FFu)) ^ 0x5412u;
}

std::uint32_t version_bits(int version) {
  if (version < 7) return 0;
  std::uint32_t rem = static_cast<std::uint32_t>(version);
  for (int i = 0; i < 12; ++i) rem = (rem << 1) ^ ((rem >> 11) * 0x1F25u);
  return (static_cast<std::uint32_t>(version) << 12) | (rem & 0xFFFu);
}

int capacity_bytes(int version, Ecc ecc) {
  if (version < kMinVersion || version > kMaxVersion) return 0;
  return (data_codewords(version, ecc) * 8 - 4 - count_bits(version)) / 8;
}

std::vector<std::uint8_t> function_modules(int version) {
  if (version < kMinVersion || version > kMaxVersion) return {};
  Matrix m(version);
  draw_function_patterns(m, version);
  return m.functions();
}

int penalty(const Code& c) {
  const int s = c.size;
  int score = 0;
  // N1 and N3 along rows (horizontal) and columns (vertical).
  for (int pass = 0; pass < 2; ++pass) {
    for (int a = 0; a < s; ++a) {
      auto at = [&](int b) { return pass == 0 ? c.dark(b, a) : c.dark(a, b); };
      int run = 1;
      for (int b = 1; b <= s; ++b) {
        if (b < s && at(b) == at(b - 1)) {
          ++run;
        } else {
          if (run >= 5) score += 3 + (run - 5);
          run = 1;
        }
      }
      // 1:1:3:1:1 finder-like pattern with four light modules on one side (outside counts as light).
      for (int b = -4; b + 10 < s + 4; ++b) {
        auto d = [&](int k) { return b + k >= 0 && b + k < s && at(b + k); };
        const bool core = d(0) && !d(1) && d(2) && d(3) && d(4) && !d(5) && d(6);
        if (!core) continue;
        const bool light_after = !d(7) && !d(8) && !d(9) && !d(10);
        const bool light_before = !d(-1) && !d(-2) && !d(-3) && !d(-4);
        if (light_after) score += 40;
        if (light_before) score += 40;
      }
    }
  }
  // N2: 2x2 blocks of one colour.
  for (int y = 0; y + 1 < s; ++y) {
    for (int x = 0; x + 1 < s; ++x) {
      const bool d = c.dark(x, y);
      if (d == c.dark(x + 1, y) && d == c.dark(x, y + 1) && d == c.dark(x + 1, y + 1)) score += 3;
    }
  }
  // N4: proportion of dark modules, 10 points per 5% away from half.
  long dark = 0;
  for (auto m : c.modules) dark += m;
  const long total = static_cast<long>(s) * s;
  const long k = (std::labs(dark * 20 - total * 10) + total - 1) / total - 1;
  score += static_cast<int>(k * 10);
  return score;
}

std::optional<Code> encode(std::string_view data, Ecc ecc, int min_version, int mask) {
  int v = std::max(min_version, kMinVersion);
  while (v <= kMaxVersion && static_cast<int>(data.size()) > capacity_bytes(v, ecc)) ++v;
  if (v > kMaxVersion || mask > 7) return std::nullopt;

  Matrix base(v);
  draw_function_patterns(base, v);
  place_data(base, codewords(data, v, ecc));

  auto finish = [&](int k) {
    Matrix m = base;
    apply_mask(m, k);
    draw_format(m, ecc, k);
    Code c;
    c.version = v;
    c.size = m.size();
    c.ecc = ecc;
    c.mask = k;
    c.modules = m.modules();
    return c;
  };
  if (mask >= 0) return finish(mask);
  std::optional<Code> best;
  int best_score = 0;
  for (int k = 0; k < 8; ++k) {
    Code c = finish(k);
    const int p = penalty(c);
    if (!best || p < best_score) {
      best_score = p;
      best = std::move(c);
    }
  }
  return best;
}

std::string to_terminal(const Code& c, int quiet, bool ansi) {
  // Drawn as light-on-dark: a block where a module is LIGHT, so the dark modules are the background.
  std::string out;
  const int lo = -quiet, hi = c.size + quiet;
  for (int y = lo; y < hi; y += 2) {
    if (ansi) out += "\x1b[40;97m";
    for (int x = lo; x < hi; ++x) {
      const bool top = !c.dark(x, y);
      const bool bottom = y + 1 < hi && !c.dark(x, y + 1);
      if (top && bottom) {
        out += "\u2588";
      } else if (top) {
        out += "\u2580";
      } else if (bottom) {
        out += "\u2584";
      } else {
        out += ' ';
      }
    }
    if (ansi) out += "\x1b[0m";
    out += '\n';
  }
  return out;
}

std::string to_svg(const Code& c, int quiet, int module_px) {
  const int n = c.size + 2 * quiet;
  const std::string side = std::to_string(n * module_px);
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + side + "\" height=\"" + side +
                    "\" viewBox=\"0 0 " + std::to_string(n) + " " + std::to_string(n) +
                    "\" shape-rendering=\"crispEdges\"><rect width=\"" + std::to_string(n) + "\" height=\"" +
                    std::to_string(n) + "\" fill=\"#fff\"/><path fill=\"#000\" d=\"";
  for (int y = 0; y < c.size; ++y) {
    for (int x = 0; x < c.size; ++x) {
      if (!c.dark(x, y)) continue;
      int run = 1;
      while (x + run < c.size && c.dark(x + run, y)) ++run;
      out += 'M' + std::to_string(x + quiet) + ' ' + std::to_string(y + quiet) + 'h' + std::to_string(run) +
             "v1h-" + std::to_string(run) + 'z';
      x += run - 1;
    }
  }
  out += "\"/></svg>\n";
  return out;
}

}  // namespace bc::qr
