// RoomHost's computer seats: the search runs on the ComputerPool, off the I/O threads, and its
// turn comes back to the room's strand. Part of RoomHost (server/host/room_host.hpp).
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "bc/ai.hpp"
#include "server/host/room_host.hpp"

namespace bc::server {

// ---------------------------------------------------------------------------------------------
// Computer seats

namespace {

// Every level has a wall-clock cap (bc/ai.hpp, level_time_cap: 1 s at most) on top of its node
// budget, so no search holds a pool thread for long, however loaded the machine.
ai::SearchLimits computer_limits(const Room::ComputerTurn& t, const std::string& room,
                                 const std::atomic<bool>* stop) {
  ai::SearchLimits limits;
  limits.level = t.level;
  limits.seed = std::hash<std::string>{}(room) ^ (static_cast<std::uint64_t>(t.version) << 20) ^
                static_cast<std::uint64_t>(t.game_number);
  limits.time = ai::level_time_cap(t.level);
  limits.stop = stop;
  return limits;
}

// A computer's turn is shown no sooner than this after the position it answers, so people see
// each move land (and two computers play at a pace spectators can follow).
constexpr auto kComputerMinThink = std::chrono::milliseconds(400);

}  // namespace

void RoomHost::maybe_start_computer() {
  if (retired_ || suspended_ || computer_busy_ || !computers_) return;
  const auto turn = room_.computer_to_move();
  if (!turn) return;
  computer_busy_ = true;
  const Game game = room_.game();
  const auto started = Clock::now();
  auto self = shared_from_this();
  ComputerJob job;
  job.address = address_;
  job.room = id_;
  job.quick = ai::level_time_cap(turn->level) <= kQuickSearchCap;
  // The snapshot, not room_: this runs on a pool thread.
  job.watched = [self, stop = computer_stop_] {
    const auto a = self->activity();
    return !stop->load() && (a.members > 0 || a.clock_running);
  };
  job.run = [self, turn = *turn, game, started, stop = computer_stop_] {
    ai::SearchResult r = ai::choose_turn(game, computer_limits(turn, self->id_, stop.get()));
    if (self->computers_->closing()) return;  // shutting down: the strand may be gone soon
    auto timer = std::make_shared<net::steady_timer>(self->strand_, started + kComputerMinThink);
    timer->async_wait([self, timer, turn, actions = std::move(r.best.actions)](
                          boost::system::error_code) { self->play_computer_turn(turn, actions); });
  };
  job.dropped = [self](ComputerDrop why) {
    net::post(self->strand_, [self, why] { self->computer_dropped(why); });
  };
  computers_->submit(std::move(job));
}

void RoomHost::computer_dropped(ComputerDrop why) {
  if (why == ComputerDrop::QueueFull) {
    auto timer = std::make_shared<net::steady_timer>(strand_, kComputerRetry);
    timer->async_wait([self = shared_from_this(), timer](boost::system::error_code) {
      self->computer_busy_ = false;
      self->maybe_start_computer();
    });
    return;
  }
  // Nobody was here: the next join starts the search (dispatch), unless someone came back while
  // this was on its way, whose join found the search still queued.
  computer_busy_ = false;
  maybe_start_computer();
}

void RoomHost::play_computer_turn(const Room::ComputerTurn& turn,
                                  const std::vector<Action>& actions) {
  if (retired_) return;
  if (suspended_) {  // thought out before the store went away: the rebuilt room asks again
    computer_busy_ = false;
    return;
  }
  if (room_.version() == turn.version && room_.game_number() == turn.game_number) {
    for (const Action& a : actions) {
      Outcome o = room_.act_for_computer(turn.side, a);
      if (o.refused) {
        spdlog::error("room {}: the computer's action {} was refused", id_, action_json(a));
        break;
      }
      metrics_.actions_accepted.fetch_add(1, std::memory_order_relaxed);
      if (o.finished) metrics_.games_finished.fetch_add(1, std::memory_order_relaxed);
      complete(std::move(o), nullptr, {});  // computer_busy_ is still set: no new search mid-turn
    }
  }
  computer_busy_ = false;
  maybe_start_computer();  // two computers, or the position changed while it thought
}

}  // namespace bc::server
