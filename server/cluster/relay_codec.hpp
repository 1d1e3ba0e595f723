// The relay's messages between nodes over Redis pub/sub (docs/CLUSTER.md, "Relay"): one JSON
// object per publish on the receiving node's channel bc:node:{id}. A node that holds a client's
// connection forwards its frames to the room's owner (`req`) and says when it goes (`bye`); the
// owner sends back what its rooms say to those connections (`out`), one publish per node per
// batch, each text once however many of that node's connections it goes to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bc::server {

// A client's frame, as its node received it.
struct RelayRequest {
  std::string from;               // the node holding the connection
  std::uint64_t conn = 0;         // its connection id there
  std::string address;            // the client's address (per-address limits)
  int form = 0;                   // the StateForm the connection asked for with /ws?compact=
  std::int64_t sent_unix_ms = 0;  // when the frame was received (clocks charge the relay to no one)
  std::string text;               // the frame as the client sent it
  // The connection's player (identity_json), from its node's session cookie; "" none. Taken from
  // a node, never from a client's frame.
  std::string who;
};

// The connection closed (or left the relay for a room elsewhere).
struct RelayBye {
  std::string from;
  std::uint64_t conn = 0;
};

enum class RelayEvent : std::uint8_t {
  None,
  Joined,    // its join was answered: it is a member now
  Refused,   // its join was refused (the error is among the texts)
  Detached,  // it is no longer a member of the room
  Moved,     // the room stops running on the owner: close with 1012 so the client rejoins
};

// What the owner's rooms said to one relayed connection, in order.
struct RelayItem {
  std::uint64_t conn = 0;
  // Indexes into RelayOut::texts: the text, and the full state a delta stands for (-1: none).
  std::vector<std::pair<int, int>> texts;
  bool handled = false;  // its request was answered (it may send the next)
  RelayEvent event = RelayEvent::None;
};

struct RelayOut {
  std::string from;
  std::vector<std::string> texts;
  std::vector<RelayItem> items;
};

using RelayMessage = std::variant<RelayRequest, RelayBye, RelayOut>;

std::string encode_relay(const RelayMessage& m);
// nullopt: not a relay message (logged by the caller, never trusted further).
std::optional<RelayMessage> decode_relay(std::string_view text);

}  // namespace bc::server
