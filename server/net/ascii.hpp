// Lower case for protocol text (header values, origins, file extensions): ASCII only, whatever
// the locale.
#pragma once

#include <string>
#include <string_view>

namespace bc::server {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace bc::server
