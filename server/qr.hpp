// A small QR code encoder (ISO/IEC 18004): byte mode, error correction level L or M, versions 1..10
// (up to 271 bytes at L, 213 at M), with the standard mask selection. Used for the "open this on
// your phone" code that `serve` prints and for GET /api/qr. The standard library only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bc::qr {

enum class Ecc { L, M };

constexpr int kMinVersion = 1;
constexpr int kMaxVersion = 10;

struct Code {
  int version = 0;
  int size = 0;  // modules per side: 17 + 4 * version
  Ecc ecc = Ecc::M;
  int mask = 0;  // 0..7
  std::vector<std::uint8_t> modules;  // size * size, row-major, 1 = dark

  bool dark(int x, int y) const {  // x: column, y: row; outside the symbol: light
    return x >= 0 && y >= 0 && x < size && y < size && modules[static_cast<std::size_t>(y * size + x)] != 0;
  }
};

// Encodes `data` as bytes in the smallest version from `min_version` up to 10 that holds it; nullopt if
// none does. `mask` -1 picks the mask with the lowest penalty (as the standard says), 0..7 forces one.
std::optional<Code> encode(std::string_view data, Ecc ecc = Ecc::M, int min_version = kMinVersion,
                           int mask = -1);

// The largest byte count a version holds at a level.
int capacity_bytes(int version, Ecc ecc);

// The 15 format bits (level and mask, BCH(15,5), XOR 0x5412), bit 14 first.
std::uint32_t format_bits(Ecc ecc, int mask);
// The 18 version bits (version, BCH(18,6)) of versions 7 and up; 0 below 7.
std::uint32_t version_bits(int version);
// Which modules of a version are function patterns (finders, timing, alignment, format and version
// areas), size * size, row-major. Everything else carries data.
std::vector<std::uint8_t> function_modules(int version);
// The mask condition: true where mask `mask` flips module (x, y).
bool mask_bit(int mask, int x, int y);
// The penalty score of a finished symbol (rules N1..N4).
int penalty(const Code& code);

// The symbol for a terminal: two rows per line with Unicode half blocks, a quiet zone of `quiet`
// modules. With `ansi`, each line is wrapped in black-background/white-foreground colour codes so the
// code reads right on light and dark terminals alike; without, light modules are drawn as blocks
// (light text on a dark terminal).
std::string to_terminal(const Code& code, int quiet = 2, bool ansi = true);
// An SVG image: one path of dark modules on a white square, a quiet zone of `quiet` modules.
std::string to_svg(const Code& code, int quiet = 4, int module_px = 8);

}  // namespace bc::qr
