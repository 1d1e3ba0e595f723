// Fuzz target: any bytes as client messages. Each line is one message, sent by one of three
// members of a room with two seated players; the room must never crash, and a refused request
// must change nothing (the state a member would see is the same before and after); an `act`
// read the short way must mean what the JSON tree reads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "server/room/room.hpp"
#include "server/wire/setup.hpp"

namespace {

bc::server::Room make_room() {
  bc::server::CreateMsg create;
  create.variant = "bomb";
  auto setup = bc::server::resolve_create(create);
  int counter = 0;
  bc::server::Room room(
      "FUZZ22", std::get<bc::server::GameSetup>(std::move(setup)), {},
      [counter]() mutable { return "token-" + std::to_string(++counter); }, 7);
  room.seat_creator(1, "A", {bc::server::SeatKind::Side, bc::Side::First}, {});
  bc::server::ClientMessage join{{}, bc::server::JoinMsg{"FUZZ22", "any", "B", std::nullopt}};
  room.handle(2, join);
  return room;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  bc::server::Room room = make_room();
  std::size_t start = 0;
  for (int n = 0; start <= input.size() && n < 64; ++n) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(start, end - start);
    start = end + 1;
    const bc::server::MemberId sender =
        line.empty() ? 1 : 1 + static_cast<unsigned char>(line[0]) % 3;
    auto parsed = bc::server::parse_client_message(line);
    // An `act` read without the tree is what the tree reads.
    if (auto fast = bc::server::parse_act_fast(line)) {
      auto tree = bc::server::parse_client_message_tree(line);
      auto* t = std::get_if<bc::server::ClientMessage>(&tree);
      auto* a = t ? std::get_if<bc::server::ActMsg>(&t->body) : nullptr;
      const auto& f = std::get<bc::server::ActMsg>(fast->body);
      if (!a || t->id != fast->id || a->action != f.action || a->version != f.version ||
          a->lag != f.lag) {
        __builtin_trap();
      }
    }
    if (auto* msg = std::get_if<bc::server::ClientMessage>(&parsed)) {
      if (auto* create = std::get_if<bc::server::CreateMsg>(&msg->body)) {
        (void)bc::server::resolve_create(*create);  // the position and options validators
        continue;
      }
      const std::string before = room.state_text();
      const auto outcome = room.handle(sender, *msg);
      if (outcome.refused && outcome.sender == bc::server::Membership::Unchanged &&
          room.state_text() != before) {
        __builtin_trap();  // a refusal changed the room
      }
    }
  }
  return 0;
}
