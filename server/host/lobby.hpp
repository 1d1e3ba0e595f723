// Where a connection's requests go: `create` makes a room through the registry and `join` finds
// one, and the connection waits for the room's answer; every other request goes to the room the
// connection is in. Socket-free (no Beast): the WebSocket session only reads frames, hands the
// parsed request here and writes what it is told, and the tests drive this with a fake Peer.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "server/host/registry.hpp"
#include "server/wire/client.hpp"

namespace bc::server {

// A request refused before any room saw it; the connection answers it with an `error`.
struct LobbyRefusal {
  RequestId id;
  Error error;
  std::string request;  // the request's type, for the error and the log
};

// A request handed to `room`. `awaits_join`: a create or join, answered by Peer::join_answered;
// the connection reads nothing more until then.
struct LobbyRouted {
  std::shared_ptr<RoomHost> room;
  bool awaits_join = false;
};

using LobbyOutcome = std::variant<LobbyRefusal, LobbyRouted>;

// One connection's request, as the lobby needs it.
struct LobbyRequest {
  std::shared_ptr<Peer> peer;
  ClientMessage msg;
  Clock::time_point received;
  const std::shared_ptr<RoomHost>& current;  // the room the connection is in; null if none
  const std::string& address;  // the client's address, counted for rooms it makes; empty: none
};

// Routes one parsed request (the only gate between a connection and the rooms).
LobbyOutcome route_request(Registry& registry, const Limits& limits, LobbyRequest request);

}  // namespace bc::server
