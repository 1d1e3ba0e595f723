// RoomHost: the `analyse` requests its room allowed, handed to the analyst (the computer threads),
// and the room's live position, which nobody may analyse as a free position.
#include <spdlog/spdlog.h>

#include "server/host/analysis.hpp"
#include "server/host/room_host.hpp"
#include "server/room/persist.hpp"

namespace bc::server {

void RoomHost::set_analyst(Analyst* analyst) {
  analyst_ = analyst;
  if (analyst == nullptr) return room_.set_analysis_guard({});
  room_.set_analysis_guard(
      [analyst](const GamePositions& positions) { return analyst->guarded(positions); });
}

void RoomHost::start_analysis(AnalysisWork work, const std::shared_ptr<Peer>& to) {
  if (analyst_ == nullptr) return;
  AnalysisJob job;
  job.address = std::string(to->address());
  job.room = id_;
  job.id = std::move(work.id);
  job.history = work.history;
  job.moves = work.moves;
  job.version = work.version;
  job.game_number = work.game_number;
  job.positions = std::move(work.positions);
  job.custom_start = room_.setup().position.has_value();
  job.lag = work.lag;
  job.upto = work.upto;
  if (job.positions.empty() && !job.lag) {
    // An earlier game: from the store, on the computer thread.
    job.load = [store = store_, id = id_,
                game_no = work.game_number]() -> std::variant<GamePositions, std::string> {
      if (store == nullptr) return std::string("this server keeps no earlier games");
      auto loaded = store->load_room(id, game_no);
      if (!loaded) return "game " + std::to_string(game_no) + " of room " + id + " is not kept";
      auto image = image_of(*loaded, game_no);
      if (auto* e = std::get_if<ReplayError>(&image)) return e->message;
      auto restored = restore_room(id, std::get<GameRecord>(image), Limits{});
      if (!restored.room) return restored.error->message;
      return restored.room->match().positions();
    };
  }
  std::weak_ptr<Peer> weak = to;
  job.wanted = [weak] { return !weak.expired(); };
  job.reply = [weak](std::string text) {
    if (auto p = weak.lock()) p->deliver(std::make_shared<const std::string>(std::move(text)));
  };
  analyst_->submit(std::move(job));
}

void RoomHost::publish_live() {
  if (analyst_ == nullptr) return;
  const bool live =
      room_.status() == RoomStatus::Playing && !room_.game().over() && !room_.has_computer();
  const std::tuple<int, std::int64_t, bool> now{room_.game_number(), room_.version(), live};
  if (now == live_shown_) return;
  live_shown_ = now;
  analyst_->set_live(this, live ? &room_.game() : nullptr);
}

}  // namespace bc::server
