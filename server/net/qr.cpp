#include "server/net/qr.hpp"

#include <qrencode.h>

#include <memory>

namespace bc::qr {

std::optional<Code> encode(std::string_view data, Ecc ecc) {
  const QRecLevel level = ecc == Ecc::M ? QR_ECLEVEL_M : QR_ECLEVEL_L;
  // Byte mode for the whole text (version 0: the smallest that fits), as a phone's reader expects
  // of a URL.
  std::unique_ptr<QRcode, void (*)(QRcode*)> symbol(
      QRcode_encodeData(static_cast<int>(data.size()),
                        reinterpret_cast<const unsigned char*>(data.data()), 0, level),
      QRcode_free);
  if (!symbol || symbol->version > kMaxVersion) return std::nullopt;
  Code c;
  c.version = symbol->version;
  c.size = symbol->width;
  c.ecc = ecc;
  const auto n = static_cast<std::size_t>(c.size) * static_cast<std::size_t>(c.size);
  c.modules.resize(n);
  for (std::size_t i = 0; i < n; ++i) c.modules[i] = symbol->data[i] & 1;  // bit 0: dark
  return c;
}

std::string to_terminal(const Code& c, int quiet, bool ansi) {
  // Drawn as light-on-dark: a block where a module is LIGHT, so the dark modules are the
  // background.
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
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + side + "\" height=\"" +
                    side + "\" viewBox=\"0 0 " + std::to_string(n) + " " + std::to_string(n) +
                    "\" shape-rendering=\"crispEdges\"><rect width=\"" + std::to_string(n) +
                    "\" height=\"" + std::to_string(n) +
                    "\" fill=\"#fff\"/><path fill=\"#000\" d=\"";
  for (int y = 0; y < c.size; ++y) {
    for (int x = 0; x < c.size; ++x) {
      if (!c.dark(x, y)) continue;
      int run = 1;
      while (x + run < c.size && c.dark(x + run, y)) ++run;
      out += 'M' + std::to_string(x + quiet) + ' ' + std::to_string(y + quiet) + 'h' +
             std::to_string(run) + "v1h-" + std::to_string(run) + 'z';
      x += run - 1;
    }
  }
  out += "\"/></svg>\n";
  return out;
}

}  // namespace bc::qr
