// The compact form of `state` (docs/PROTOCOL.md, "Compact states"): a member that asked for it
// gets, after its first full state, each change as a `delta` from the state it had before: the
// top-level fields that changed, and the board's pieces as removals and insertions by index.
// Here both sides work on the texts state_json writes, as a client does, so the state a delta
// rebuilds is the same text, byte for byte. The server makes its deltas from values instead
// (server/wire/state_snapshot.hpp); the tests hold its deltas against these.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/wire/state_snapshot.hpp"  // ActionForm

namespace bc::server {

// A state text read once as far as deltas need: its top-level fields and its board's pieces, as
// slices of the text it keeps alive.
class SplitState {
 public:
  explicit SplitState(std::shared_ptr<const std::string> text);
  struct Field {
    std::string_view key;  // with its quotes
    std::string_view value;
  };
  bool ok() const { return ok_; }
  const std::string& text() const { return *text_; }
  const std::vector<Field>& fields() const { return fields_; }
  const std::vector<Field>& board() const { return board_; }  // empty if unreadable
  const std::vector<std::string_view>& pieces() const { return pieces_; }

 private:
  std::shared_ptr<const std::string> text_;
  std::vector<Field> fields_, board_;
  std::vector<std::string_view> pieces_;
  bool ok_ = false;
};

// The same as state_delta_json on the two texts.
std::optional<std::string> state_delta_json(const SplitState& prev, const SplitState& next,
                                            ActionForm form = ActionForm::Object);

// The delta that turns state text `prev` into `next`, or nullopt when their fields differ in names
// or order (then the full state is sent).
std::optional<std::string> state_delta_json(std::string_view prev, std::string_view next,
                                            ActionForm form = ActionForm::Object);

// `state` with `delta` applied, short actions written out again: the text of the state the delta
// stands for; nullopt when the delta is not for this state (its `base` names another game or
// version) or is malformed.
std::optional<std::string> apply_state_delta(std::string_view state, std::string_view delta);

}  // namespace bc::server
