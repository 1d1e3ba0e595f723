// A room's state as values (docs/PROTOCOL.md, "state"): what the room compares to make a delta
// (docs/PROTOCOL.md, "Compact states"), and what its full text is written from when somebody
// needs it, once, by whichever thread needs it first.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/wire/views.hpp"

namespace bc::server {

// How a delta writes the actions of `legal` and `last.actions`: as the state does, or each as a
// short string such as "1,5-0,4" (docs/PROTOCOL.md, "Short actions"; create's `"compact":2`).
enum class ActionForm : std::uint8_t { Object, Short };

// The values a StateView points at, owned, with the game's pieces and legal turns worked out once.
struct StateSnapshot {
  std::string room;
  Game game;
  std::int64_t version = 0;
  RoomStatus status = RoomStatus::Waiting;
  std::optional<LastTurn> last;
  std::array<std::optional<PlayerView>, 2> players;
  int spectators = 0;
  int moves = 0;
  int game_number = 1;
  std::optional<Side> draw_offer;
  std::array<bool, 2> rematch{false, false};
  std::optional<ClockView> clock;
  std::optional<AwayView> away;
  std::optional<Side> takeback_offer;
  std::vector<std::int64_t> hints;
  bool one_screen = false;
  std::vector<Piece> pieces;  // game.pieces()
  std::vector<Action> legal;  // game.legal() while playing, else none

  // Takes what `v` points at; `v.with_legal` is taken as true.
  static StateSnapshot of(const StateView& v);
  StateView view() const;
  friend bool operator==(const StateSnapshot&, const StateSnapshot&) = default;
};

// The delta that turns state `prev` into `next` (the same text a client's reading of the two
// texts makes, tests/support/state_delta.hpp), or nullopt when their fields differ in names or
// order (then the full state is sent).
std::optional<std::string> state_delta_json(const StateSnapshot& prev, const StateSnapshot& next,
                                            ActionForm form = ActionForm::Object);

// A state as sent: its values, and its text written on first need. Members that take deltas
// never need it unless their connection is congested, so a room of them writes none.
class StateMessage {
 public:
  explicit StateMessage(StateSnapshot s) : snapshot_(std::move(s)) {}
  const StateSnapshot& snapshot() const { return snapshot_; }
  // Safe from any thread. Not std::call_once: glibc's pthread_once makes a futex syscall each
  // time it runs an initializer, which was one syscall per broadcast.
  const std::shared_ptr<const std::string>& text() const {
    if (!written_.load(std::memory_order_acquire)) {
      std::lock_guard lock(mutex_);
      if (!written_.load(std::memory_order_relaxed)) {
        text_ = std::make_shared<const std::string>(state_json(snapshot_.view()));
        written_.store(true, std::memory_order_release);
      }
    }
    return text_;
  }

 private:
  StateSnapshot snapshot_;
  mutable std::mutex mutex_;
  mutable std::atomic<bool> written_{false};
  mutable std::shared_ptr<const std::string> text_;
};

}  // namespace bc::server
