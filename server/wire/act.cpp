// The `act` message read without a JSON tree: it is most of what clients send (one per move), and
// building nlohmann's tree for it cost the server about a sixth of its instructions per move. Only
// a narrow, common form is read here; anything else (another type, an escape, a float, a negative
// or long number, a key read twice or not known, a malformed text) goes the long way, so every
// message means exactly what parse_client_message_tree makes of it.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "server/wire/client.hpp"

namespace bc::server {

namespace {

class ActReader {
 public:
  explicit ActReader(std::string_view s) : s_(s) {}

  std::optional<ClientMessage> read() {
    ActMsg act;
    RequestId id;
    bool seen_type = false, seen_id = false, seen_action = false, seen_version = false,
         seen_lag = false;
    if (!object([&](std::string_view key) {
          if (key == "type") {
            auto t = string();
            return !std::exchange(seen_type, true) && t && *t == "act";
          }
          if (key == "id") {
            if (std::exchange(seen_id, true)) return false;
            if (peek() == '"') {
              auto t = string();
              if (!t) return false;
              id = std::string(*t);
              return true;
            }
            auto n = number(18);
            if (!n) return false;
            id = static_cast<std::uint64_t>(*n);  // what the tree makes of a number >= 0
            return true;
          }
          if (key == "version") {
            auto n = number(15);
            if (!n || std::exchange(seen_version, true)) return false;
            act.version = *n;
            return true;
          }
          if (key == "lag") {
            auto n = number(5);
            if (!n || *n > kMaxClaimedLagMs || std::exchange(seen_lag, true)) return false;
            act.lag = *n;
            return true;
          }
          if (key == "action") {
            auto a = action();
            if (!a || std::exchange(seen_action, true)) return false;
            act.action = *a;
            return true;
          }
          return false;
        })) {
      return std::nullopt;
    }
    space();
    if (i_ != s_.size() || !seen_type || !seen_action || !seen_version) return std::nullopt;
    return ClientMessage{std::move(id), std::move(act)};
  }

 private:
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  char peek() {
    space();
    return i_ < s_.size() ? s_[i_] : '\0';
  }
  bool literal(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  // Printable ASCII without escapes: the same bytes whichever reader takes it.
  std::optional<std::string_view> string() {
    if (!literal('"')) return std::nullopt;
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c < 0x20 || c > 0x7e || c == '\\') return std::nullopt;
      ++i_;
    }
    if (i_ == s_.size()) return std::nullopt;
    return s_.substr(start, i_++ - start);
  }
  // A whole number >= 0 of at most `digits` digits, without a leading zero, fraction or exponent.
  std::optional<std::int64_t> number(std::size_t digits) {
    space();
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    const std::size_t n = i_ - start;
    if (n == 0 || n > digits || (n > 1 && s_[start] == '0')) return std::nullopt;
    if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) return std::nullopt;
    std::int64_t v = 0;
    std::from_chars(s_.data() + start, s_.data() + i_, v);
    return v;
  }
  // `{"key": value, ...}`, each value read by `member(key)`; false: not this narrow form.
  template <class Member>
  bool object(Member member) {
    if (!literal('{')) return false;
    if (literal('}')) return true;
    do {
      auto key = string();
      if (!key || !literal(':') || !member(*key)) return false;
    } while (literal(','));
    return literal('}');
  }
  std::optional<Square> square() {
    if (!literal('[')) return std::nullopt;
    auto x = number(6);
    if (!x || !literal(',')) return std::nullopt;
    auto y = number(6);
    if (!y || !literal(']')) return std::nullopt;
    return Square{static_cast<int>(*x), static_cast<int>(*y)};
  }
  // An action whose kind is known, with exactly that kind's fields (as read_action reads them).
  std::optional<Action> action() {
    std::optional<ActionKind> kind;
    std::optional<Square> from, to, at;
    std::optional<std::int64_t> column;
    std::optional<Kind> piece;
    int fields = 0;
    if (!object([&](std::string_view key) {
          ++fields;
          if (key == "kind") {
            auto t = string();
            if (!t || kind) return false;
            kind = action_kind_from_name(*t);
            return kind.has_value();
          }
          if (key == "from" || key == "to" || key == "at") {
            auto& slot = key == "from" ? from : key == "to" ? to : at;
            if (slot) return false;
            slot = square();
            return slot.has_value();
          }
          if (key == "column") {
            if (column) return false;
            column = number(6);
            return column.has_value();
          }
          if (key == "piece") {
            auto t = string();
            if (!t || piece) return false;
            piece = kind_from_name(*t);
            return piece.has_value();
          }
          return false;
        }) ||
        !kind) {
      return std::nullopt;
    }
    switch (*kind) {
      case ActionKind::Step:
      case ActionKind::Jump:
        if (fields != 3 || !from || !to) return std::nullopt;
        return *kind == ActionKind::Step ? Action::step(*from, *to) : Action::jump(*from, *to);
      case ActionKind::EndTurn:
        if (fields != 1) return std::nullopt;
        return Action::end_turn();
      case ActionKind::Drop:
        if (fields != (piece ? 3 : 2) || !column) return std::nullopt;
        return Action::drop(static_cast<int>(*column), piece.value_or(Kind::Normal));
      case ActionKind::Detonate:
        if (fields != 2 || !at) return std::nullopt;
        return Action::detonate(*at);
    }
    return std::nullopt;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<ClientMessage> parse_act_fast(std::string_view text) {
  return ActReader(text).read();
}

}  // namespace bc::server
