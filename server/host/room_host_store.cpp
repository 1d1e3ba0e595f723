// RoomHost when its store fails: a commit that fails is undone, and a room that cannot be read
// back waits for its store. Part of RoomHost (server/host/room_host.hpp); the outbox that commits
// before it announces is in room_host.cpp.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/steady_timer.hpp>

#include "server/host/room_host.hpp"
#include "server/room/persist.hpp"

namespace bc::server {

void RoomHost::drop_states(Outcome& o) {
  std::erase_if(o.messages, [](const Outgoing& m) {
    return m.state != nullptr || m.kind == MessageKind::State || m.kind == MessageKind::Delta;
  });
}

void RoomHost::committed(bool ok) {
  committing_ = false;
  if (!ok) return roll_back();
  for (auto& e : outbox_) {
    if (e.stage == Entry::Stage::InFlight) e.stage = Entry::Stage::Ready;
  }
  pump();
}

// A commit failed: nothing of it (or queued after it with writes) is announced. The senders get
// server_error, and the room goes back to the store's last durable state, rebuilt by replaying its
// log; the live connections stay (a player keeps a seat the store has with the same token).
// Outcomes without writes (chat, refusals) still go out in order.
void RoomHost::roll_back() {
  std::size_t failed = 0;
  for (auto& e : outbox_) {
    if (e.stage == Entry::Stage::Ready) {
      // Queued behind the failed commit, it was made from the room with the failed changes in
      // it: its states show what never happened (the history checker saw a presence change
      // carry an action that was then rolled back). The state after the rebuild replaces them.
      drop_states(e.outcome);
      continue;
    }
    ++failed;
    e.stage = Entry::Stage::Ready;
    e.failed = true;
    e.writes.clear();
    Outcome& o = e.outcome;
    o.messages.clear();
    o.action_accepted = false;
    o.finished = false;
    o.durable = {};
    o.refused = ErrorCode::ServerError;
    if (o.sender == Membership::Joined) o.sender = Membership::Unchanged;
    if (e.sender) {
      o.messages.push_back(
          Outgoing{e.sender->member_id(),
                   std::make_shared<const std::string>(error_json(
                       e.request_id,
                       Error{ErrorCode::ServerError,
                             "the server could not save that, so it did not happen; try again"},
                       e.request_type)),
                   false});
    }
  }
  spdlog::error(
      "room {}: the store could not commit {} change(s); going back to the last saved state", id_,
      failed);
  // Failed joins are undone: those connections are not members.
  for (const auto& e : outbox_) {
    if (e.failed && e.sender && !peers_.count(e.sender->member_id()))
      failed_joins_.push_back(e.sender->member_id());
  }
  if (suspended_) return pump();  // a try is already due
  restore_from_store(0);
}

// How long a room waits for its store before it closes: PostgreSQL restarted or stopped for a
// while (the history checker's nemesis), with tries 0.25 s apart at first and 5 s at most.
constexpr int kRestoreTries = 60;

void RoomHost::restore_from_store(int attempt) {
  // Handed over or closed meanwhile: nothing to read back, but what is queued (the failed
  // commit's refusals) still goes out, and lets go of its senders.
  if (retired_) return pump();
  std::optional<Room> rebuilt;
  std::string why;
  if (auto loaded = store_->load_room(id_)) {
    auto image = image_of(*loaded);
    if (auto* img = std::get_if<GameRecord>(&image)) {
      auto r = restore_room(id_, *img, limits_);
      if (r.room) {
        rebuilt = std::move(r.room);
      } else {
        why = r.error->message;
      }
    } else {
      why = std::get<ReplayError>(image).message;
    }
  } else if (attempt < kRestoreTries) {
    // Not readable (the store away, or a room it lost): nothing is announced meanwhile, the
    // members stay, and their requests are refused with server_error.
    if (!suspended_) {
      spdlog::warn("room {}: cannot read it back from the store; waiting for the store", id_);
      suspended_ = true;
      deadline_.cancel();
      deadline_at_.reset();
    }
    restore_timer_.expires_after(
        std::chrono::milliseconds(std::min(250 << std::min(attempt, 5), 5000)));
    restore_timer_.async_wait([self = shared_from_this(), attempt](boost::system::error_code ec) {
      if (!ec) self->restore_from_store(attempt + 1);
    });
    return pump();
  } else {
    why = "the room is not in the store";
  }
  suspended_ = false;
  Outcome after;
  if (rebuilt) {
    rebuilt->adopt_members(room_);
    for (MemberId m : failed_joins_) rebuilt->disconnect(m);
    failed_joins_.clear();
    rebuilt->set_analysis_guard(room_.analysis_guard());
    room_ = std::move(*rebuilt);
    room_.add_state(after);
    if (attempt > 0) spdlog::info("room {}: back from the store after {} tries", id_, attempt);
  } else {
    spdlog::error("room {}: cannot rebuild it from the store ({}); closing it", id_, why);
    broken_ = true;
    retired_ = true;
    computer_stop_->store(true);
    after = room_.close("the server could not save this game");
  }
  Entry e;
  e.outcome = std::move(after);
  outbox_.push_back(std::move(e));
  pump();
}

}  // namespace bc::server
