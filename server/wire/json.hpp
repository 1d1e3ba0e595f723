// JSON on the wire, shared by the server's parsers and writers (in.cpp, out.cpp, stored.cpp):
// reading JSON values into core types without exceptions, and the one encoder of actions, pieces
// and squares. Only the server's wire sources include it; nothing else in the server names JSON.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/wire/http.hpp"
#include "server/wire/stored.hpp"

namespace bc::server {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// Dumped with invalid UTF-8 replaced, so no string a client sent can make it throw.
std::string dump(const ojson& j);

// Reading: nullopt when the value is not of the type (or out of range).
std::optional<std::int64_t> as_int(const json& j);
std::optional<int> as_small_int(const json& j);
std::optional<Square> as_square(const json& j);
RequestId read_id(const json& j);
// An action as the client sent it. Wrong field types are a bad message (the text says which); a
// kind or piece that names nothing is a well-formed action that cannot be legal (nullopt).
std::variant<std::optional<Action>, std::string> read_action(const json& a);

// Trees, for the messages that are not on the hot path.
void put_id(ojson& j, const RequestId& id);
ojson options_json(VariantId v, const Options& o);
ojson result_json(VariantId v, const std::optional<Result>& r);
ojson players_json(VariantId v, const std::array<std::optional<PlayerView>, 2>& players);
ojson bombs_json(VariantId v, std::array<int, 2> bombs);
// A time control as `create` takes it: {"base":300,"increment":3} (seconds) or {"days":3}.
std::string clock_json(const TimeControl& tc);
// "a, b and c"
std::string join_names(const std::vector<std::string_view>& names, std::string_view last_sep);

// The state goes out after every action, so it is written straight into its string: building it as
// a JSON tree first spent about a third of the server's CPU in allocation (perf, closed-loop load).
// Only names and values the server itself chose go in unescaped (side, kind, rank, status names,
// room ids); anything a client sent (player names) goes through the JSON library.
// An integer's decimal digits at `at` (room up to `end`); the end of what was written. The small
// numbers states are made of (coordinates, columns, indices) take a branch or two, not to_chars.
inline char* write_int(char* at, char* end, std::int64_t v) {
  if (v >= 0 && v < 100) {
    if (v >= 10) *at++ = static_cast<char>('0' + v / 10);
    *at++ = static_cast<char>('0' + v % 10);
    return at;
  }
  return std::to_chars(at, end, v).ptr;
}

// What a piece's object says after its square: `,"side":"fire","kind":"bomb","rank":"man"}`. The
// texts of every (variant, side, kind, rank) are made once: a state holds a dozen pieces or more.
std::string_view piece_tail(VariantId v, const Piece& p);

struct Writer {
  std::string& out;

  // One action's text composed on the stack and appended once: a state holds a dozen or more, and
  // appending piece by piece cost several times more. Its longest text (four ints at their widest
  // and the longest names) is under 100 bytes.
  class Line {
   public:
    void put(std::string_view t) {
      std::memcpy(p_, t.data(), t.size());
      p_ += t.size();
    }
    void put(char c) { *p_++ = c; }
    void num(int v) { p_ = write_int(p_, buf_ + sizeof buf_, v); }
    void pair(Square q) {
      num(q.x);
      put(',');
      num(q.y);
    }
    void square(Square q) {
      put('[');
      pair(q);
      put(']');
    }
    std::string_view text() const { return {buf_, static_cast<std::size_t>(p_ - buf_)}; }

   private:
    char buf_[160];
    char* p_ = buf_;
  };

  void raw(std::string_view t) { out += t; }
  void str(std::string_view t) {  // one resize, not three appends: names fill every state
    const std::size_t at = out.size();
    out.resize(at + t.size() + 2);
    char* p = out.data() + at;
    *p++ = '"';
    std::memcpy(p, t.data(), t.size());
    p[t.size()] = '"';
  }
  // A string from anyone (a player's name): written as it is when nothing in it needs escaping
  // (printable ASCII without '"' or '\\', what names nearly always are), else as dump() writes it
  // (escapes, invalid UTF-8 replaced). Byte for byte what dump() writes either way.
  void text(std::string_view t);
  void num(std::int64_t v) {
    char buf[24];
    out.append(buf, write_int(buf, buf + sizeof buf, v));
  }
  void num_or_null(std::int64_t v) {  // a time in ms: 0 means not known
    if (v > 0) {
      num(v);
    } else {
      out += "null";
    }
  }
  void boolean(bool b) { out += b ? "true" : "false"; }
  void square(Square q) {
    out += '[';
    num(q.x);
    out += ',';
    num(q.y);
    out += ']';
  }
  // A JSON array of `items`, each written by `item`.
  template <class T, class F>
  void list(const std::vector<T>& items, F item) {
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) out += ',';
      item(items[i]);
    }
    out += ']';
  }
  void squares(const std::vector<Square>& v) {
    list(v, [this](Square q) { square(q); });
  }
  void action(const Action& a) {
    Line l;
    l.put("{\"kind\":\"");
    l.put(action_kind_name(a.kind));
    l.put('"');
    switch (a.kind) {
      case ActionKind::Step:
      case ActionKind::Jump:
        l.put(",\"from\":");
        l.square(a.from);
        l.put(",\"to\":");
        l.square(a.to);
        break;
      case ActionKind::EndTurn:
        break;
      case ActionKind::Drop:
        l.put(",\"column\":");
        l.num(a.column);
        l.put(",\"piece\":\"");
        l.put(kind_name(a.piece));
        l.put('"');
        break;
      case ActionKind::Detonate:
        l.put(",\"at\":");
        l.square(a.at);
        break;
    }
    l.put('}');
    out += l.text();
  }
  void actions(const std::vector<Action>& v) {
    list(v, [this](const Action& a) { action(a); });
  }
  // Each action as its short form, quoted (docs/PROTOCOL.md, "Short actions"), or as its object
  // when it has none: what shortening the text actions() writes gives.
  void short_actions(const std::vector<Action>& v);
  // The same texts as dump(options_json(...)) and its siblings, written without a tree: they are
  // in every state (a player's name, which a client chose, still goes through the library).
  void options(VariantId v, const Options& o);
  void result(VariantId v, const std::optional<Result>& r);
  void players(VariantId v, const std::array<std::optional<PlayerView>, 2>& ps);
  void bombs(VariantId v, std::array<int, 2> b);
  void piece(VariantId v, const Piece& p) {
    Line l;
    l.put("{\"at\":");
    l.square(p.at);
    l.put(piece_tail(v, p));
    out += l.text();
  }
  void pieces(VariantId v, const std::vector<Piece>& ps) {
    list(ps, [this, v](const Piece& p) { piece(v, p); });
  }
};

}  // namespace bc::server
