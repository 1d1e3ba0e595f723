// Where each field of a state text lies, as state_json wrote it: what a delta compares, found by
// the writer instead of by reading the text again (server/wire_delta.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bc::server {

struct StateLayout {
  // Offsets into the text: a key's opening quote, its value's first byte, one past its value.
  struct Field {
    std::uint32_t key, value, end;
  };
  struct Span {
    std::uint32_t begin, end;
  };
  std::vector<Field> fields;  // top level, in order
  std::vector<Field> board;   // the members of `board`
  std::vector<Span> pieces;   // the items of `board.pieces`
  // The values of `legal` and `last` with their actions written short, for the deltas of members
  // that asked for short actions.
  std::string legal_short, last_short;
};

}  // namespace bc::server
