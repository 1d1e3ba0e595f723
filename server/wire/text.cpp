// Text from clients (names, chat): control characters out, lengths in code points.
#include "server/wire/setup.hpp"

namespace bc::server {

namespace {

// Decodes one UTF-8 code point at s[i]; advances i. Invalid bytes decode as U+FFFD.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1Fu) : len == 3 ? (b & 0x0Fu) : (b & 0x07u);
  for (int k = 1; k < len; ++k) {
    auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((c >> 6) != 0x2) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (c & 0x3Fu);
  }
  i += static_cast<std::size_t>(len);
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_control(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

}  // namespace

std::string clean_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = next_code_point(s, i);
    if (!is_control(cp)) append_utf8(out, cp);
  }
  auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  auto last = out.find_last_not_of(' ');
  return out.substr(first, last - first + 1);
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) next_code_point(s, i);
  return n;
}

std::string clean_name(std::string_view s, std::size_t max_len) {
  std::string c = clean_text(s);
  std::string out;
  std::size_t n = 0;
  for (std::size_t i = 0; i < c.size() && n < max_len; ++n) append_utf8(out, next_code_point(c, i));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? std::string("Anonymous") : out;
}

}  // namespace bc::server
