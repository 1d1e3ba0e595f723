#include "server/short_action.hpp"

#include <algorithm>
#include <vector>

namespace bc::server {

namespace {

// A coordinate or column as the writer prints it: 1 to 3 digits, no leading zero.
bool is_number(std::string_view s) {
  if (s.empty() || s.size() > 3 || (s[0] == '0' && s.size() > 1)) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "x,y" as "[x,y]"; false if it is not a pair of numbers.
bool append_pair(std::string_view s, std::string& out) {
  const std::size_t comma = s.find(',');
  if (comma == std::string_view::npos || !is_number(s.substr(0, comma)) ||
      !is_number(s.substr(comma + 1))) {
    return false;
  }
  out += '[';
  out += s;
  out += ']';
  return true;
}

// The runs of digits in `s`, in order.
std::vector<std::string_view> numbers_in(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] < '0' || s[i] > '9') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string joined(std::string_view a, char sep, std::string_view b) {
  std::string out(a);
  out += sep;
  out += b;
  return out;
}

// The short form the object's kind and numbers would have; the caller checks it gives the object.
std::optional<std::string> candidate(std::string_view object) {
  constexpr std::string_view kKind = R"({"kind":")";
  if (!object.starts_with(kKind)) return std::nullopt;
  const std::string_view rest = object.substr(kKind.size());
  const auto n = numbers_in(rest);
  const auto kind_is = [&](std::string_view k) {
    return rest.starts_with(k) && rest.size() > k.size() && rest[k.size()] == '"';
  };
  if ((kind_is("step") || kind_is("jump")) && n.size() == 4) {
    return joined(n[0], ',', n[1]) + (kind_is("step") ? '-' : 'x') + joined(n[2], ',', n[3]);
  }
  if (kind_is("end_turn") && n.empty()) return std::string("end");
  if (kind_is("drop") && n.size() == 1) {
    return 'd' + std::string(n[0]) + (rest.find(R"("bomb")") != std::string_view::npos ? "b" : "");
  }
  if (kind_is("detonate") && n.size() == 2) return '*' + joined(n[0], ',', n[1]);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> short_action(std::string_view object) {
  auto s = candidate(object);
  // Only a form that gives back exactly this text (spacing, field order, values) is used.
  if (!s || long_action(*s) != object) return std::nullopt;
  return s;
}

std::optional<std::string> long_action(std::string_view s) {
  std::string out;
  if (s == "end") return std::string(R"({"kind":"end_turn"})");
  if (s.starts_with('d')) {
    const bool bomb = s.ends_with('b');
    const std::string_view column = s.substr(1, s.size() - (bomb ? 2 : 1));
    if (!is_number(column)) return std::nullopt;
    out = R"({"kind":"drop","column":)";
    out += column;
    out += bomb ? R"(,"piece":"bomb"})" : R"(,"piece":"normal"})";
    return out;
  }
  if (s.starts_with('*')) {
    out = R"({"kind":"detonate","at":)";
    if (!append_pair(s.substr(1), out)) return std::nullopt;
    out += '}';
    return out;
  }
  const std::size_t sep = s.find_first_of("-x");
  if (sep == std::string_view::npos) return std::nullopt;
  out = s[sep] == '-' ? R"({"kind":"step","from":)" : R"({"kind":"jump","from":)";
  if (!append_pair(s.substr(0, sep), out)) return std::nullopt;
  out += R"(,"to":)";
  if (!append_pair(s.substr(sep + 1), out)) return std::nullopt;
  out += '}';
  return out;
}

}  // namespace bc::server
