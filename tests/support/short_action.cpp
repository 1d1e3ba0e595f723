#include "short_action.hpp"

#include <algorithm>

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

// Reads a text left to right against the exact form state_json writes.
class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool literal(std::string_view l) {
    if (s_.substr(i_, l.size()) != l) return false;
    i_ += l.size();
    return true;
  }
  std::optional<std::string_view> number() {
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    const std::string_view n = s_.substr(start, i_ - start);
    if (!is_number(n)) return std::nullopt;
    return n;
  }
  // "x,y]" as "x,y" appended to out.
  bool pair(std::string& out) {
    auto x = number();
    if (!x || !literal(",")) return false;
    auto y = number();
    if (!y || !literal("]")) return false;
    out += *x;
    out += ',';
    out += *y;
    return true;
  }
  bool done() const { return i_ == s_.size(); }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

bool append_hop(Reader& r, char sep, std::string& out) {
  if (!r.pair(out) || !r.literal(R"(,"to":[)")) return false;
  out += sep;
  return r.pair(out) && r.literal("}") && r.done();
}

}  // namespace

bool append_short_action(std::string_view object, std::string& out) {
  const std::size_t size = out.size();
  Reader r(object);
  bool ok = false;
  if (r.literal(R"({"kind":"step","from":[)")) {
    ok = append_hop(r, '-', out);
  } else if (r.literal(R"({"kind":"jump","from":[)")) {
    ok = append_hop(r, 'x', out);
  } else if (r.literal(R"({"kind":"end_turn"})")) {
    out += "end";
    ok = r.done();
  } else if (r.literal(R"({"kind":"drop","column":)")) {
    auto column = r.number();
    out += 'd';
    if (column) out += *column;
    if (column && r.literal(R"(,"piece":"bomb"})")) out += 'b';
    ok = column && (out.back() == 'b' || r.literal(R"(,"piece":"normal"})")) && r.done();
  } else if (r.literal(R"({"kind":"detonate","at":[)")) {
    out += '*';
    ok = r.pair(out) && r.literal("}") && r.done();
  }
  if (!ok) out.resize(size);
  return ok;
}

std::optional<std::string> short_action(std::string_view object) {
  std::string out;
  if (!append_short_action(object, out)) return std::nullopt;
  return out;
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
