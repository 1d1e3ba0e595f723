#include "server/host/lobby.hpp"

namespace bc::server {

namespace {

LobbyOutcome refusal(const RequestId& id, ErrorCode code, std::string message,
                     std::string_view request) {
  LobbyRefusal r;
  r.id = id;
  r.error.code = code;
  r.error.message = std::move(message);
  r.request = request;
  return r;
}

LobbyOutcome create_room(Registry& registry, const Limits& limits, LobbyRequest& r,
                         CreateMsg& create) {
  auto refuse = [&](Error e) { return refusal(r.msg.id, e.code, std::move(e.message), "create"); };
  auto setup = resolve_create(create);
  if (auto* e = std::get_if<Error>(&setup)) return refuse(std::move(*e));
  auto& s = std::get<GameSetup>(setup);
  s.kept_for = std::move(create.keep_for);
  if (s.rated && !create.who) {
    return refuse({ErrorCode::SignInRequired,
                   "a rated game is between signed-in players: sign in (or play as a guest) on "
                   "this server's page first"});
  }
  auto seat = resolve_seat(s.variant, create.seat, true);
  if (auto* e = std::get_if<Error>(&seat)) return refuse(std::move(*e));
  // The computer's moves from a live position would be its values by another name (issue 31).
  if (create.opponent && s.position && registry.analyst().is_live(s.game)) {
    return refuse({ErrorCode::BadPosition,
                   "this position is being played in a game between two people (or is a turn "
                   "away from it); a game against the computer can start from it once that game "
                   "is over"});
  }
  ErrorCode why = ErrorCode::ServerFull;
  auto host = registry.create(std::move(s), r.address, &why, std::move(create.reserved_id));
  if (!host) {
    if (why == ErrorCode::TooManyRooms) {
      return refuse({why, "your address already has " +
                              std::to_string(limits.max_rooms_per_address) +
                              " rooms with games going on; finish or leave one first"});
    }
    if (why == ErrorCode::ServerError)
      return refuse({why, "the room could not be made; try again"});
    return refuse({why, "the server holds as many rooms as it can; try again later"});
  }
  auto& choice = std::get<SeatChoice>(seat);
  choice.names = std::move(create.names);
  host->create_seat(r.peer, std::move(create.name), std::move(choice), r.msg.id, create.opponent,
                    create.compact, std::move(create.who));
  return LobbyRouted{std::move(host), true};
}

}  // namespace

LobbyOutcome route_request(Registry& registry, const Limits& limits, LobbyRequest r) {
  if (auto* c = std::get_if<CreateMsg>(&r.msg.body)) return create_room(registry, limits, r, *c);
  if (auto* j = std::get_if<JoinMsg>(&r.msg.body)) {
    auto host = registry.find(j->room);
    if (!host) {
      return refusal(r.msg.id, ErrorCode::UnknownRoom,
                     "there is no room '" + j->room + "'; check the link, or create a room",
                     "join");
    }
    host->request(r.peer, std::move(r.msg), r.received);
    return LobbyRouted{std::move(host), true};
  }
  if (!r.current) {
    return refusal(r.msg.id, ErrorCode::UnknownRoom,
                   "you are not in a room: create one or join one first", message_type(r.msg.body));
  }
  r.current->request(r.peer, std::move(r.msg), r.received);
  return LobbyRouted{r.current, false};
}

}  // namespace bc::server
