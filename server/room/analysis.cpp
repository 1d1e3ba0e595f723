// Room: which `analyse` requests a room allows, and the hints they leave in a game against the
// computer (docs/PROTOCOL.md, "Analysis"). Part of Room (server/room/room.hpp); the searches run on
// the computer threads (server/host/analysis.hpp).
#include <algorithm>

#include "server/room/room.hpp"

namespace bc::server {

Outcome Room::handle_analyse(MemberId m, const RequestId& id, const AnalyseMsg& a) {
  constexpr std::string_view kType = "analyse";
  if (a.free) {
    return refuse(m, id, kType, ErrorCode::BadMessage,
                  "a free position is analysed by the server, not a room");
  }
  AnalysisWork work;
  work.member = m;
  work.id = id;
  work.history = a.history;
  work.moves = a.moves;
  work.game_number = game_number();
  if (a.game && *a.game != game_number()) {
    if (*a.game < 1 || *a.game > game_number()) {
      return refuse(m, id, kType, ErrorCode::BadMessage,
                    "this room has games 1 to " + std::to_string(game_number()));
    }
    // An earlier game is over: RoomHost reads it from the store.
    work.game_number = static_cast<int>(*a.game);
    if (!a.history) work.version = a.version;
    Outcome o;
    o.analysis = std::move(work);
    return o;
  }
  const bool live = !game().over();
  if (live && (status() != RoomStatus::Playing || !has_computer())) {
    return refuse(m, id, kType, ErrorCode::AnalysisNotAllowed,
                  status() != RoomStatus::Playing
                      ? "there is no game to analyse yet: it starts when both seats are taken"
                      : "no analysis while a game between two people is on, for players and "
                        "spectators alike; it is open once the game ends (or against the "
                        "computer)");
  }
  const std::int64_t want = a.version.value_or(version());
  if (a.history) {
    work.positions = match_.positions();
  } else if (want == version()) {
    // The room's own position: no replay of the log.
    work.version = want;
    work.positions = {{want, game()}};
  } else {
    auto positions = match_.positions();
    auto at = std::find_if(positions.begin(), positions.end(),
                           [&](const auto& p) { return p.first == want; });
    if (at == positions.end()) {
      return refuse(m, id, kType, ErrorCode::BadMessage,
                    "there is no version " + std::to_string(want) + " in this game (it is at " +
                        std::to_string(version()) + ")");
    }
    work.version = want;
    work.positions = {std::move(*at)};
  }
  if (analysis_guard_ && setup().position) {
    // A room made at a custom start can be made at a position that a game between two people is
    // playing: against the computer or once finished, it would tell that game's players its values
    // (issue 31). Games from the variant's start are not checked: their early positions are every
    // game's, and a two-person game left at its first turn would shut everyone's hints off.
    if (auto why = analysis_guard_(work.positions)) {
      return refuse(m, id, kType, ErrorCode::AnalysisNotAllowed, std::move(*why));
    }
  }
  Outcome o;
  if (live) {
    // A hint: the game's record and state say so, whoever asked (a second tab is the player too).
    const std::int64_t hinted = a.history ? version() : *work.version;
    if (match_.add_hint(hinted)) {
      o.durable.hint = hinted;
      add_state(o);
    }
  }
  o.analysis = std::move(work);
  return o;
}

}  // namespace bc::server
