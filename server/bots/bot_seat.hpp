// A bot's seat in one room (docs/BOTS.md): the room's Peer for a program that plays over HTTP. It
// turns the room's messages into the game stream's lines (gameFull, gameState, chatLine,
// opponentGone) for every stream open on the game, and a bot's POSTs into the room's requests,
// one at a time, each answered once the room has answered it (after its commit).
//
// The seat stays connected for the whole game, whether or not a stream is open: a bot that loses
// its streams opens them again and carries on from the current state; its clock is what runs out.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "server/bots/line_sink.hpp"
#include "server/host/registry.hpp"
#include "server/wire/client.hpp"

namespace bc::server {

// A refused request, as the room said it: its code's name and message. No value: done.
struct BotRefusal {
  std::string code;
  std::string message;
  std::vector<std::string> legal = {};  // an illegal move's: the legal turns
};
using BotDone = std::function<void(std::optional<BotRefusal>)>;

class BotSeat final : public Peer, public std::enable_shared_from_this<BotSeat> {
 public:
  using ojson = nlohmann::ordered_json;
  // The event stream's news of this seat's game: it began (with its summary), it ended.
  struct Hooks {
    std::function<void(const ojson& game)> started;
    std::function<void(const ojson& game)> finished;
  };
  BotSeat(MemberId id, Identity who, Hooks hooks);

  // Makes the room and takes the seat create asks for; `done` once seated, or refused.
  void create(Registry& registry, const Limits& limits, CreateMsg msg, BotDone done);
  // Takes the seat kept for this bot in a room made by the other side (a bot's challenge).
  void join(Registry& registry, const Limits& limits, const std::string& room, BotDone done);

  const std::string& room_id() const { return room_id_; }
  bool over() const;
  // The event stream's `game`, or null before the seat is taken. Any thread.
  ojson summary() const;

  // A game stream: gameFull now, then every line. Any thread.
  void attach(std::shared_ptr<LineSink> stream);
  // One whole turn in record notation (turn_text.hpp): its actions, each after the last was
  // accepted.
  void play(std::string text, BotDone done);
  // Any other request of a player (resign, draw, takeback answers, chat, claim).
  void request(MessageBody body, BotDone done);
  // Ends every game stream (server shutdown).
  void close_streams();

  // Peer.
  MemberId member_id() const override { return id_; }
  void deliver(Texts texts, bool request_handled) override;
  void join_answered(std::shared_ptr<RoomHost> room) override;
  void detached(const RoomHost* room) override;

 private:
  struct Pending {
    ClientMessage msg;
    BotDone done;
  };
  // create's and join's common part: the lobby's answer comes to join_answered (or `done` now).
  void take_seat(Registry& registry, const Limits& limits, MessageBody msg, BotDone done);
  // Sends the next queued request unless one is in flight; answers those the lobby refuses.
  void pump();
  // Under mu_: the lobby's way into a room; the refusal when it refuses at once.
  std::optional<BotRefusal> route(ClientMessage msg);
  // Reads the room again (on its strand) and sends the streams what changed.
  void refresh();
  void publish(std::optional<ojson> state, std::optional<ojson> gone, bool over,
               const ojson& summary);
  void play_actions(std::vector<Action> actions, std::int64_t version, std::size_t next,
                    BotDone done);

  const MemberId id_;
  const Identity who_;
  const Hooks hooks_;
  Registry* registry_ = nullptr;
  const Limits* limits_ = nullptr;

  mutable std::mutex mu_;
  std::shared_ptr<RoomHost> host_;
  std::string room_id_;
  std::optional<Side> side_;
  std::deque<Pending> pending_;
  bool inflight_ = false;
  BotDone seated_;                        // create's or join's, until the room answers
  std::optional<BotRefusal> last_error_;  // the room's last `error` to this seat
  // Each game stream, and the last state it was sent (a gameState equal to it is not sent again).
  struct Stream {
    std::shared_ptr<LineSink> sink;
    std::string state;
  };
  std::vector<Stream> streams_;
  bool gone_shown_ = false;
  bool finished_ = false;
  ojson summary_;
};

}  // namespace bc::server
