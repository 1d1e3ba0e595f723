// QR codes for the "open this on your phone" link that `serve` prints and for GET /api/qr: the
// symbol from Debian's libqrencode (byte mode, level L or M, versions 1..10), drawn here for a
// terminal or as SVG.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bc::qr {

enum class Ecc { L, M };

constexpr int kMaxVersion = 10;  // 57 x 57 modules: still scans from a terminal at arm's length

struct Code {
  int version = 0;
  int size = 0;  // modules per side: 17 + 4 * version
  Ecc ecc = Ecc::M;
  std::vector<std::uint8_t> modules;  // size * size, row-major, 1 = dark

  bool dark(int x, int y) const {  // x: column, y: row; outside the symbol: light
    return x >= 0 && y >= 0 && x < size && y < size &&
           modules[static_cast<std::size_t>(y * size + x)] != 0;
  }
};

// Encodes `data` as bytes in the smallest version that holds it; nullopt if none up to kMaxVersion
// does (or libqrencode fails).
std::optional<Code> encode(std::string_view data, Ecc ecc = Ecc::M);

// The symbol for a terminal: two rows per line with Unicode half blocks, a quiet zone of `quiet`
// modules. With `ansi`, each line is wrapped in black-background/white-foreground colour codes so
// the code reads right on light and dark terminals alike; without, light modules are drawn as
// blocks (light text on a dark terminal).
std::string to_terminal(const Code& code, int quiet = 2, bool ansi = true);
// An SVG image: one path of dark modules on a white square, a quiet zone of `quiet` modules.
std::string to_svg(const Code& code, int quiet = 4, int module_px = 8);

}  // namespace bc::qr
