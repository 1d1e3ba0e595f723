#include "server/room/persist.hpp"

#include <algorithm>

#include "server/room/notation.hpp"

namespace bc::server {

namespace {

int side_int(Side s) {
  return index(s);
}

store::RatingRow rating_row(const std::string& perf, const SeatPlayer& p, double score) {
  const players::Rating& r = *p.after;
  store::RatingRow row;
  row.player = p.id;
  row.perf = perf;
  row.rating = r.rating;
  row.deviation = r.deviation;
  row.volatility = r.volatility;
  row.updated_ms = r.last_game_ms.value_or(0);
  row.wins = p.wins + (score == 1.0 ? 1 : 0);
  row.draws = p.draws + (score == 0.5 ? 1 : 0);
  row.losses = p.losses + (score == 0.0 ? 1 : 0);
  return row;
}

// A rated game's end: each player's new rating and its line in their history.
void add_rating_rows(const Room& room, std::vector<store::Write>& out) {
  const SeatPlayers players = room.seat_players();
  const auto& result = room.game().result();
  if (!players[0] || !players[1] || !players[0]->after || !players[1]->after || !result) return;
  const std::string perf = perf_of(room.setup());
  for (std::size_t i = 0; i < 2; ++i) {
    const SeatPlayer& p = *players[i];
    const SeatPlayer& o = *players[1 - i];
    const Side side = i == 0 ? Side::First : Side::Second;
    const double score = !result->winner ? 0.5 : (*result->winner == side ? 1.0 : 0.0);
    out.push_back(store::PutRating{rating_row(perf, p, score)});
    store::RatedGameRow g;
    g.player = p.id;
    g.room = room.id();
    g.game_no = room.game_number();
    g.perf = perf;
    g.ended_ms = room.ended_ms();
    g.side = static_cast<int>(i);
    g.opponent = o.id;
    g.score = static_cast<int>(score * 2);
    g.before = p.rating.rating;
    g.after = p.after->rating;
    g.deviation_after = p.after->deviation;
    out.push_back(store::PutRatedGame{std::move(g)});
  }
}

}  // namespace

std::vector<store::Write> rows_for(const Room& room, const Durable& d) {
  std::vector<store::Write> out;
  const VariantId v = room.setup().variant;
  if (d.room) {
    store::RoomRow r;
    r.id = room.id();
    r.setup = setup_json(room.setup());
    r.created_ms = room.created_ms();
    r.game_no = room.game_number();
    out.push_back(store::PutRoom{std::move(r)});
  }
  for (Side s : {Side::First, Side::Second}) {
    if (!d.seats[static_cast<std::size_t>(index(s))]) continue;
    if (auto seat = room.stored_seat(s)) {
      out.push_back(
          store::PutSeat{store::SeatRow{room.id(), side_int(s), seat->name, seat->token_hash}});
    } else {
      out.push_back(store::FreeSeat{room.id(), side_int(s)});
    }
  }
  if (d.action && !room.log().empty()) {
    const LoggedAction& a = room.log().back();
    store::ActionRow row{room.id(),        room.game_number(),    a.version,
                         side_int(a.side), action_json(a.action), unix_ms(),
                         std::nullopt};
    if (room.clock()) row.left_ms = room.clock()->lefts();  // after the action, increment in
    out.push_back(store::AppendAction{std::move(row)});
  }
  if (d.takeback && !room.match().takebacks().empty()) {
    const TakeBack& t = room.match().takebacks().back();
    store::ActionRow row{room.id(),
                         room.game_number(),
                         t.version,
                         side_int(room.game().turn()),
                         takeback_row_json(t.to),
                         unix_ms(),
                         std::nullopt};
    if (room.clock()) row.left_ms = room.clock()->lefts();
    out.push_back(store::AppendAction{std::move(row)});
  }
  if (d.hint) {
    store::ActionRow row{room.id(),
                         room.game_number(),
                         -1 - *d.hint,
                         side_int(room.game().turn()),
                         hint_row_json(*d.hint),
                         unix_ms(),
                         std::nullopt};
    out.push_back(store::AppendAction{std::move(row)});
  }
  if (d.drop_game) out.push_back(store::DropGame{room.id(), *d.drop_game});
  if (d.game) {
    store::GameRow g;
    g.room = room.id();
    g.game_no = room.game_number();
    g.result = result_text(v, room.game().result());
    g.started_ms = room.started_ms();
    g.ended_ms = room.game().over() ? room.ended_ms() : 0;
    g.players = names_json(v, room.seat_names(), room.seat_players());
    out.push_back(store::PutGame{std::move(g)});
  }
  if (d.ratings) add_rating_rows(room, out);
  return out;
}

std::variant<GameRecord, ReplayError> image_of(const store::LoadedRoom& loaded, int game_no) {
  const int current = loaded.room.game_no;
  const int wanted = game_no == 0 ? current : game_no;
  auto setup = parse_setup_json(loaded.room.setup);
  if (auto* e = std::get_if<Error>(&setup)) {
    return ReplayError{0, "the room's setup is refused: " + e->message};
  }
  GameRecord image(std::get<GameSetup>(std::move(setup)));
  image.room = loaded.room.id;
  const VariantId v = image.setup.variant;
  image.game_number = wanted;
  image.created_ms = loaded.room.created_ms;
  image.games = current;
  const store::GameRow* row = nullptr;
  for (const auto& g : loaded.games) {
    if (g.game_no == wanted) row = &g;
    image.games = std::max(image.games, g.game_no);
  }
  if (row) {
    auto result = parse_result_text(v, row->result);
    if (!result)
      return ReplayError{0,
                         "game " + std::to_string(wanted) + ": the stored result is not readable"};
    image.result = *result;
    image.started_ms = row->started_ms;
    image.ended_ms = row->ended_ms;
  }
  if (wanted == current) {
    for (const auto& s : loaded.seats) {
      if (s.side != 0 && s.side != 1) continue;
      image.seats[static_cast<std::size_t>(s.side)] = StoredSeat{s.name, s.token_hash};
    }
  } else if (row) {
    SeatNames names = parse_names_json(v, row->players);
    for (std::size_t i = 0; i < 2; ++i) {
      if (names[i]) image.seats[i] = StoredSeat{*names[i], {}};
    }
  }
  if (row) {
    // Signed-in players and their ratings live in the game row (docs/PLAYERS.md).
    const SeatPlayers players = parse_seat_players(v, row->players);
    for (std::size_t i = 0; i < 2; ++i) {
      if (image.seats[i] && players[i]) image.seats[i]->player = players[i];
    }
  }
  for (const auto& a : loaded.actions) {
    if (a.game_no != wanted) continue;
    if (auto hint = parse_hint_row(a.action, a.version)) {
      image.hints.push_back(*hint);
      continue;
    }
    if (auto to = parse_takeback_row(a.action)) {
      image.takebacks.push_back(TakeBack{a.version, *to});
      image.clock_left = a.left_ms;
      continue;
    }
    auto action = parse_action_text(a.action);
    if (!action || (a.side != 0 && a.side != 1)) {
      return ReplayError{a.version, "game " + std::to_string(wanted) + ", version " +
                                        std::to_string(a.version) + ": the stored action " +
                                        a.action + " is not readable"};
    }
    image.actions.push_back(
        LoggedAction{a.version, a.side == 0 ? Side::First : Side::Second, *action});
    image.clock_left = a.left_ms;
  }
  // The store keeps the actions a takeback undid; the game goes on without them.
  std::erase_if(image.actions, [&](const LoggedAction& e) {
    return std::any_of(image.takebacks.begin(), image.takebacks.end(), [&](const TakeBack& t) {
      return t.to < e.version && e.version < t.version;
    });
  });
  return image;
}

Restored restore_room(const std::string& id, const GameRecord& image, const Limits& limits) {
  Restored out;
  out.room.emplace(id, image.setup, limits);
  out.error = out.room->restore(image);
  if (out.error) out.room.reset();
  return out;
}

StoredRecord stored_record(store::Store& store, const std::string& id, int game_no,
                           RecordFormat f) {
  StoredRecord out;
  auto loaded = store.load_room(id, game_no);
  if (!loaded) return out;
  const int wanted = game_no == 0 ? loaded->room.game_no : game_no;
  if (wanted < 1 || wanted > loaded->room.game_no) return out;
  // A game the retention policy deleted (a rematch's other games may be kept).
  const bool kept = !loaded->actions.empty() ||
                    std::any_of(loaded->games.begin(), loaded->games.end(),
                                [&](const store::GameRow& g) { return g.game_no == wanted; });
  if (!kept) return out;
  out.found = true;
  auto image = image_of(*loaded, wanted);
  if (auto* e = std::get_if<ReplayError>(&image)) {
    out.error = e->message;
    return out;
  }
  Limits limits;
  auto restored = restore_room(id, std::get<GameRecord>(image), limits);
  if (!restored.room) {
    out.error = restored.error->message;
    return out;
  }
  out.body = record_of(*restored.room, f);
  return out;
}

std::string record_of(const Room& room, RecordFormat f) {
  switch (f) {
    case RecordFormat::Json:
      return room.record_text();
    case RecordFormat::Notation:
      return game_notation(room);
    case RecordFormat::Positions:
      return room.positions_text();
  }
  return {};
}

}  // namespace bc::server
