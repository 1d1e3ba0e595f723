#include "state_delta.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <vector>

#include "server/wire/sequence_edit.hpp"
#include "short_action.hpp"

namespace bc::server {

namespace {

// A JSON text read only as far as its top level: each member's key (quotes included) and value,
// as slices of the text. Values are not parsed, only delimited.
using Member = SplitState::Field;

void skip_space(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
}

// Moves i past one JSON string starting at s[i] == '"'; false if unterminated.
bool skip_string(std::string_view s, std::size_t& i) {
  const std::size_t start = ++i;
  while (i < s.size()) {
    const void* q = std::memchr(s.data() + i, '"', s.size() - i);
    if (!q) return false;
    std::size_t end = static_cast<std::size_t>(static_cast<const char*>(q) - s.data());
    std::size_t slashes = 0;  // an odd run of backslashes escapes the quote
    while (end - slashes > start && s[end - slashes - 1] == '\\') ++slashes;
    i = end + 1;
    if (slashes % 2 == 0) return true;
  }
  return false;
}

// Moves i past one JSON value; false if it runs off the end or its brackets do not match.
bool skip_value(std::string_view s, std::size_t& i) {
  if (i >= s.size()) return false;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] != '{' && s[i] != '[') {
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ') ++i;
    return true;
  }
  // The closers still owed, innermost last. State texts nest four or five deep.
  char open[32];
  std::size_t depth = 0;
  do {
    const char c = s[i];
    if (c == '"') {
      if (!skip_string(s, i)) return false;
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth == sizeof open) return false;
      open[depth++] = c == '{' ? '}' : ']';
    } else if (c == '}' || c == ']') {
      if (depth == 0 || open[depth - 1] != c) return false;
      --depth;
    }
    ++i;
  } while (depth > 0 && i < s.size());
  return depth == 0;
}

std::optional<std::vector<Member>> split_object(std::string_view s) {
  std::vector<Member> out;
  std::size_t i = 0;
  skip_space(s, i);
  if (i >= s.size() || s[i] != '{') return std::nullopt;
  ++i;
  skip_space(s, i);
  if (i < s.size() && s[i] == '}') return out;
  while (i < s.size()) {
    skip_space(s, i);
    const std::size_t k = i;
    if (i >= s.size() || s[i] != '"' || !skip_string(s, i)) return std::nullopt;
    const std::string_view key = s.substr(k, i - k);
    skip_space(s, i);
    if (i >= s.size() || s[i] != ':') return std::nullopt;
    ++i;
    skip_space(s, i);
    const std::size_t v = i;
    if (!skip_value(s, i)) return std::nullopt;
    out.push_back({key, s.substr(v, i - v)});
    skip_space(s, i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == '}') return out;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string_view>> split_array(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  skip_space(s, i);
  if (i >= s.size() || s[i] != '[') return std::nullopt;
  ++i;
  skip_space(s, i);
  if (i < s.size() && s[i] == ']') return out;
  while (i < s.size()) {
    skip_space(s, i);
    const std::size_t v = i;
    if (!skip_value(s, i)) return std::nullopt;
    out.push_back(s.substr(v, i - v));
    skip_space(s, i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == ']') return out;
    return std::nullopt;
  }
  return std::nullopt;
}

const Member* find(const std::vector<Member>& members, std::string_view key) {
  for (const auto& m : members) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

// The pieces of `a` that are not in `b` and those of `b` that are not in `a` (sequence_edit.hpp).
void diff_pieces(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                 std::string& out) {
  std::string inserted;
  auto index = [](std::string& to, std::size_t k) {
    char digits[24];
    to.append(digits, std::to_chars(digits, digits + sizeof digits, k).ptr);
  };
  out += "{\"remove\":[";
  const std::size_t removed_from = out.size();
  sequence_edit(
      a, b,
      [&](std::size_t i) {
        if (out.size() > removed_from) out += ',';
        index(out, i);
      },
      [&](std::size_t j) {
        inserted += inserted.empty() ? "[" : ",[";
        index(inserted, j);
        inserted += ',';
        inserted += b[j];
        inserted += ']';
      });
  out += "],\"insert\":[";
  out += inserted;
  out += "]}";
}

// The board's pieces as an edit when only they changed; nullopt when width or height did too.
std::optional<std::string> board_edit(const SplitState& prev, const SplitState& next) {
  const auto &a = prev.board(), &b = next.board();
  if (a.empty() || a.size() != b.size()) return std::nullopt;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].key != b[k].key) return std::nullopt;
    if (a[k].key != "\"pieces\"" && a[k].value != b[k].value) return std::nullopt;
  }
  std::string out;
  diff_pieces(prev.pieces(), next.pieces(), out);
  return out;
}

// A whole number that is all of `digits`, at most `max`.
std::optional<std::size_t> parse_index(std::string_view digits, std::size_t max) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n > max) return std::nullopt;
  return n;
}

// The object `members` as text, each value replaced by what `value_of` gives for its field
// (nullopt: the whole object fails).
template <class ValueOf>
std::optional<std::string> write_object(const std::vector<Member>& members, ValueOf value_of) {
  std::string out = "{";
  for (const auto& m : members) {
    if (out.size() > 1) out += ',';
    out += m.key;
    out += ':';
    const std::optional<std::string_view> value = value_of(m);
    if (!value) return std::nullopt;
    out += *value;
  }
  out += '}';
  return out;
}

// The pieces of a board's text after a delta's removals and insertions.
std::optional<std::string> edit_pieces(std::string_view pieces_text, std::string_view edit) {
  auto pieces = split_array(pieces_text);
  auto e = split_object(edit);
  if (!pieces || !e) return std::nullopt;
  const Member* remove = find(*e, "\"remove\"");
  const Member* insert = find(*e, "\"insert\"");
  auto removed = remove ? split_array(remove->value) : std::nullopt;
  auto inserted = insert ? split_array(insert->value) : std::nullopt;
  if (!removed || !inserted) return std::nullopt;
  std::vector<std::string_view> kept;
  std::size_t r = 0;
  for (std::size_t k = 0; k < pieces->size(); ++k) {
    if (r < removed->size() && parse_index((*removed)[r], pieces->size()) == k) {
      ++r;
    } else {
      kept.push_back((*pieces)[k]);
    }
  }
  if (r != removed->size()) return std::nullopt;
  for (const auto& entry : *inserted) {
    auto pair = split_array(entry);
    auto index = pair && pair->size() == 2 ? parse_index((*pair)[0], kept.size()) : std::nullopt;
    if (!index) return std::nullopt;
    kept.insert(kept.begin() + static_cast<std::ptrdiff_t>(*index), (*pair)[1]);
  }
  std::string out = "[";
  for (std::size_t k = 0; k < kept.size(); ++k) {
    if (k) out += ',';
    out += kept[k];
  }
  out += ']';
  return out;
}

// The array `array` with each item written by `write` (which appends it to `out`, or fails).
template <class Write>
std::optional<std::string> rewrite_array(std::string_view array, Write write) {
  auto items = split_array(array);
  if (!items) return std::nullopt;
  std::string out = "[";
  for (const auto& item : *items) {
    if (out.size() > 1) out += ',';
    if (!write(item, out)) return std::nullopt;
  }
  out += ']';
  return out;
}

// Actions with each one that has a short form written short (quoted), the others as they are.
std::optional<std::string> shorten_actions(std::string_view array) {
  return rewrite_array(array, [](std::string_view item, std::string& out) {
    out += '"';
    if (append_short_action(item, out)) {
      out += '"';
    } else {
      out.pop_back();
      out += item;
    }
    return true;
  });
}

// Actions with each short one written out again; fails if one stands for no action.
std::optional<std::string> lengthen_actions(std::string_view array) {
  return rewrite_array(array, [](std::string_view item, std::string& out) {
    if (item.empty() || item.front() != '"') {
      out += item;
      return true;
    }
    auto long_form = long_action(item.substr(1, item.size() - 2));
    if (long_form) out += *long_form;
    return long_form.has_value();
  });
}

// The top-level fields that hold actions: `legal`, and `last` (in its `actions`).
bool holds_actions(std::string_view key) {
  return key == "\"legal\"" || key == "\"last\"";
}

// Such a field's value with its actions rewritten by `rewrite` (shorten_actions or
// lengthen_actions); nullopt if that fails. `last` may be null.
template <class Rewrite>
std::optional<std::string> rewrite_actions(std::string_view key, std::string_view value,
                                           Rewrite rewrite) {
  if (key == "\"legal\"") return rewrite(value);
  if (value.empty() || value.front() != '{') return std::string(value);
  auto members = split_object(value);
  if (!members) return std::nullopt;
  std::string actions;
  return write_object(*members, [&](const Member& m) -> std::optional<std::string_view> {
    if (m.key != "\"actions\"") return m.value;
    auto r = rewrite(m.value);
    if (!r) return std::nullopt;
    actions = std::move(*r);
    return actions;
  });
}

}  // namespace

SplitState::SplitState(std::shared_ptr<const std::string> text) : text_(std::move(text)) {
  auto fields = split_object(*text_);
  if (!fields) return;
  fields_ = std::move(*fields);
  ok_ = true;
  const Member* board = find(fields_, "\"board\"");
  if (!board) return;
  auto members = split_object(board->value);
  const Member* pieces = members ? find(*members, "\"pieces\"") : nullptr;
  auto list = pieces ? split_array(pieces->value) : std::nullopt;
  if (!list) return;
  board_ = std::move(*members);
  pieces_ = std::move(*list);
}

std::optional<std::string> state_delta_json(std::string_view prev, std::string_view next,
                                            ActionForm form) {
  return state_delta_json(SplitState(std::make_shared<const std::string>(prev)),
                          SplitState(std::make_shared<const std::string>(next)), form);
}

std::optional<std::string> state_delta_json(const SplitState& prev, const SplitState& next,
                                            ActionForm form) {
  const auto &a = prev.fields(), &b = next.fields();
  if (!prev.ok() || !next.ok() || a.size() != b.size()) return std::nullopt;
  const Member* game = find(a, "\"game\"");
  const Member* version = find(a, "\"version\"");
  if (!game || !version) return std::nullopt;
  std::string set, board;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const Member &was = a[k], &now = b[k];
    if (was.key != now.key) return std::nullopt;
    if (was.value == now.value) continue;
    if (now.key == "\"board\"") {
      if (auto edit = board_edit(prev, next)) {
        board = std::move(*edit);
        continue;
      }
    }
    if (!set.empty()) set += ',';
    set += now.key;
    set += ':';
    if (form == ActionForm::Short && holds_actions(now.key)) {
      if (auto rewritten = rewrite_actions(now.key, now.value, shorten_actions)) {
        set += *rewritten;
        continue;
      }
    }
    set += now.value;
  }
  std::string out;
  out.reserve(64 + set.size() + board.size());
  out += "{\"type\":\"delta\",\"base\":[";
  out += game->value;
  out += ',';
  out += version->value;
  out += "],\"set\":{";
  out += set;
  out += '}';
  if (!board.empty()) {
    out += ",\"board\":";
    out += board;
  }
  out += '}';
  return out;
}

std::optional<std::string> apply_state_delta(std::string_view state, std::string_view delta) {
  auto members = split_object(state);
  auto d = split_object(delta);
  if (!members || !d) return std::nullopt;
  const Member* base = find(*d, "\"base\"");
  const Member* set = find(*d, "\"set\"");
  const Member* board = find(*d, "\"board\"");
  const Member* game = find(*members, "\"game\"");
  const Member* version = find(*members, "\"version\"");
  if (!base || !set || !game || !version) return std::nullopt;
  auto b = split_array(base->value);
  if (!b || b->size() != 2 || (*b)[0] != game->value || (*b)[1] != version->value) {
    return std::nullopt;
  }
  auto changed = split_object(set->value);
  if (!changed) return std::nullopt;
  std::string pieces_text, board_text, actions_text;  // alive while they are written
  return write_object(*members, [&](const Member& m) -> std::optional<std::string_view> {
    if (const Member* c = find(*changed, m.key)) {
      if (!holds_actions(m.key)) return c->value;
      auto written = rewrite_actions(m.key, c->value, lengthen_actions);
      if (!written) return std::nullopt;
      actions_text = std::move(*written);
      return std::string_view(actions_text);
    }
    if (m.key != "\"board\"" || !board) return m.value;
    auto fields = split_object(m.value);
    if (!fields) return std::nullopt;
    auto edited = write_object(*fields, [&](const Member& f) -> std::optional<std::string_view> {
      if (f.key != "\"pieces\"") return f.value;
      auto pieces = edit_pieces(f.value, board->value);
      if (!pieces) return std::nullopt;
      pieces_text = std::move(*pieces);
      return pieces_text;
    });
    if (!edited) return std::nullopt;
    board_text = std::move(*edited);
    return board_text;
  });
}

}  // namespace bc::server
