// Room: which `analyse` requests a room allows, and the hints they leave in a game against the
// computer (docs/PROTOCOL.md, "Analysis"). Part of Room (server/room/room.hpp); the searches run on
// the computer threads (server/host/analysis.hpp).
#include <algorithm>

#include "server/room/room.hpp"

namespace bc::server {

namespace {

// A lagged history asked `from` a version: at most this many versions from it, for a cost of one.
constexpr std::size_t kLaggedFromVersions = 4;

void keep_from(std::vector<std::pair<std::int64_t, Game>>& positions,
               std::optional<std::int64_t> from) {
  if (!from) return;
  std::erase_if(positions, [&](const auto& p) { return p.first < *from; });
  if (positions.size() > kLaggedFromVersions) {
    positions.erase(positions.begin() + kLaggedFromVersions, positions.end());
  }
}

}  // namespace

Outcome Room::lagged_history(MemberId m, const RequestId& id, const AnalyseMsg& a,
                             AnalysisWork work) {
  constexpr std::string_view kType = "analyse";
  if (limits_.watch_lag <= 0) {
    return refuse(m, id, kType, ErrorCode::AnalysisNotAllowed,
                  "this server shows no values during a game between two people");
  }
  if (seat_of(m)) {
    return refuse(m, id, kType, ErrorCode::AnalysisNotAllowed,
                  "the players see no values while their game is on");
  }
  if (setup().rated) {
    return refuse(m, id, kType, ErrorCode::AnalysisNotAllowed,
                  "a rated game shows no values while it is on");
  }
  auto positions = match_.positions();
  // The versions where a turn begins: the side to move changed (a multi-jump's hops do not).
  std::vector<std::int64_t> starts;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (i == 0 || positions[i].second.turn() != positions[i - 1].second.turn()) {
      starts.push_back(positions[i].first);
    }
  }
  const auto lag = static_cast<std::size_t>(limits_.watch_lag);
  work.lag = limits_.watch_lag;
  if (starts.size() <= lag) {
    positions.clear();
  } else {
    // The current turn is starts.back(); the last valued is the one that began `lag` turns before.
    const std::int64_t upto = starts[starts.size() - 1 - lag];
    work.upto = upto;
    std::erase_if(positions, [&](const auto& p) { return p.first > upto; });
  }
  keep_from(positions, a.from);
  work.positions = std::move(positions);
  Outcome o;
  o.analysis = std::move(work);
  return o;
}

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
    if (a.lagged) {
      // A lagged history `from` a version costs one: an earlier game's whole history would not.
      return refuse(m, id, kType, ErrorCode::BadMessage,
                    "`lagged` is for the room's current game; an earlier one's history is asked "
                    "without it");
    }
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
  if (a.lagged && live && status() == RoomStatus::Playing && !has_computer()) {
    return lagged_history(m, id, a, std::move(work));
  }
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
    if (a.lagged) {
      // Over, or against the computer: every version, as the plain history.
      work.lag = 0;
      work.upto = version();
      keep_from(work.positions, a.from);
    }
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
