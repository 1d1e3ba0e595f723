// A RoomHost runs one socket-free Room on its own strand, writes what the Room changed to the store
// before anything is announced, and hands the Room's outgoing messages to the connections (Peers)
// of its members; computer seats search on the ComputerPool, off the I/O threads.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "bc/store.hpp"
#include "server/host/computer_pool.hpp"
#include "server/host/metrics.hpp"
#include "server/room/room.hpp"
#include "server/wire/limits.hpp"
#include "server/wire/views.hpp"

namespace bc::server {

class Analyst;  // server/host/analysis.hpp

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

class RoomHost;

// A member's connection, as a room sees it. Rooms call these from their strand; a Peer posts the
// work to its own strand and returns at once.
class Peer {
 public:
  using Text = std::shared_ptr<const std::string>;
  // One message, and its kind. When `text` is a delta, full() is the state it stands for, which a
  // congested connection sends instead after dropping the state or delta this one applies to: a
  // relayed text, or a room's state whose text is written only then.
  struct Message {
    Message(Text t, MessageKind k = MessageKind::Other, Text f = nullptr)  // NOLINT
        : text(std::move(t)), full_text(std::move(f)), kind(k) {}
    Text text;
    Text full_text;
    MessageKind kind;
    std::shared_ptr<const StateMessage> full_state;
    Text full() const { return full_state ? full_state->text() : full_text; }
  };
  // Most deliveries carry one or two messages (an answer and the new state): no allocation.
  using Texts = boost::container::small_vector<Message, 2>;

  virtual ~Peer() = default;
  virtual MemberId member_id() const = 0;
  // The client's address, for the per-address limits of rooms ("": not known, not limited).
  virtual std::string_view address() const { return {}; }
  // `texts` in order, in one hand-off to the peer's strand; `request_handled`: the request it
  // sent to the room was answered or refused (it may send the next).
  virtual void deliver(Texts texts, bool request_handled) = 0;
  void deliver(Text text) { deliver(Texts{std::move(text)}, false); }
  // The same from a room's broadcast (RoomHost::dispatch), which always runs as a handler of its
  // own, never inside one of the peer's: a peer on the room's one I/O thread may then act at once
  // instead of posting to itself.
  virtual void deliver_from_room(Texts texts, bool request_handled) {
    deliver(std::move(texts), request_handled);
  }
  void handled() { deliver(Texts{}, true); }
  // A create or join was answered: `room` is the room the peer is now in, or null if refused.
  virtual void join_answered(std::shared_ptr<RoomHost> room) = 0;
  // The peer is no longer a member of `room` (it left, was replaced, or the room closed).
  virtual void detached(const RoomHost* room) = 0;
  // Cluster: the room stopped running on this node (RoomHost::hand_over); the client should
  // reconnect and join again, which finds the room where it runs now.
  virtual void moved() {}
};

class RoomHost : public std::enable_shared_from_this<RoomHost> {
 public:
  struct Activity {
    RoomStatus status = RoomStatus::Waiting;
    std::size_t members = 0;
    Clock::time_point last_change{};
    Clock::time_point empty_since{};
    bool clock_running = false;  // a clocked game in play: its clock ends it, not emptiness
  };

  // With a store, every outcome that changes the room's durable record is written before its
  // messages go out (docs/PERSISTENCE.md); without one (tests), messages go out at once.
  // `computers` runs the searches of computer seats; without one (tests) nobody searches.
  // `address`: the creator's, whose rooms share the pool's turns ("": not known).
  RoomHost(net::any_io_executor serial, std::string id, GameSetup setup, const Limits& limits,
           Metrics& metrics, store::Store* store = nullptr, ComputerPool* computers = nullptr,
           std::string address = {});
  // A room rebuilt from the store.
  RoomHost(net::any_io_executor serial, Room room, const Limits& limits, Metrics& metrics,
           store::Store* store, ComputerPool* computers = nullptr);

  const std::string& id() const { return id_; }

  // Each posts to the room's strand.
  void create_seat(std::shared_ptr<Peer> peer, std::string name, SeatChoice seat, RequestId id,
                   std::optional<Opponent> opponent = std::nullopt,
                   StateForm compact = StateForm::Full, std::optional<Identity> who = {});
  void request(std::shared_ptr<Peer> peer, ClientMessage msg, Clock::time_point received);
  void disconnect(MemberId m, bool outage = false);  // Room::disconnect
  // Calls done with the JSON game record (from the strand).
  void record(std::function<void(std::string)> done);
  // Calls done with the room, on the strand; work too long for the strand (a record's replay) is
  // done elsewhere on a copy. Null while the room waits for its store: it still holds the change
  // that failed, which never happened.
  void with_room(std::function<void(const Room*)> done);
  // Calls done with view(room), computed on the strand.
  void view(std::function<std::string(const Room&)> view, std::function<void(std::string)> done);
  // `durable`: the store marks the room retired (the sweep); a shutdown keeps it for the restart.
  void retire(std::string why, bool durable = true);
  // Cluster: the room stops here without a word to the store (another node takes it over from
  // there): nothing more is announced, and each member is told to reconnect (Peer::moved).
  void hand_over(std::string why);
  // A player's client reported its network lag (ping's `lag`), for `presence`.
  void report_lag(MemberId m, std::int64_t lag);
  // A room rebuilt from the store: the side to move's clock starts now (the downtime is charged
  // to no one), and the room's deadlines are armed.
  void resume_clock();
  // Abandons a search under way (any thread).
  void stop_computer() { computer_stop_->store(true); }
  // Where `analyse` requests go (docs/PROTOCOL.md, "Analysis"); set before the first request.
  void set_analyst(Analyst* analyst);

  // Thread-safe snapshots, refreshed after every change.
  RoomSummary summary() const;
  Activity activity() const;

 private:
  // Every outcome goes through the outbox, in order: one with durable changes waits for its commit,
  // and everything queued behind it waits too, so the room's messages keep their order.
  struct Entry {
    Outcome outcome;
    std::shared_ptr<Peer> sender;
    std::function<void(const Outcome&)> after;  // runs once the messages are out
    std::vector<store::Write> writes;
    enum class Stage : std::uint8_t { Ready, Waiting, InFlight } stage = Stage::Ready;
    bool failed = false;   // its commit failed: the sender got server_error instead
    RequestId request_id;  // the sender's request, for that server_error
    std::string request_type;
    bool answers = false;  // the sender's batch says its request was handled
  };
  struct Request {
    RequestId id;
    std::string type;
    // The sender waits for this request to be handled (not a join). No initializer: Request is
    // a default argument inside its own class (GCC refuses one there); aggregate init zeroes it.
    bool answers;
  };
  void complete(Outcome o, std::shared_ptr<Peer> sender, std::function<void(const Outcome&)> after,
                std::vector<store::Write> extra_writes = {}, Request request = {});
  void pump();
  void committed(bool ok);
  void roll_back();
  // Takes out of `o` every message that shows the room's state (full or as a delta).
  static void drop_states(Outcome& o);
  // Goes back to the store's last durable state; while the store cannot be read, the room waits
  // (suspended_) and tries again after a backoff, `attempt` counting the tries.
  void restore_from_store(int attempt);
  void dispatch(Outcome& o, const std::shared_ptr<Peer>& sender, bool answers);
  void publish();
  // Starts the search for a computer seat to move, off the I/O threads; its turn comes back to the
  // strand and is played like anyone's (from the strand).
  void maybe_start_computer();
  void play_computer_turn(const Room::ComputerTurn& turn, const std::vector<Action>& actions);
  // The pool did not run the search: start it again now (if someone is here) or a bit later.
  void computer_dropped(ComputerDrop why);
  // The spectator count changed without a state to everyone: one follows after spectators_update.
  void maybe_refresh_spectators();
  // Starts the side to move's clock once everything the room said is out, and sets the timer
  // for the room's next deadline (a flag or an abort).
  void arm_deadline();
  // Hands an allowed `analyse` to the analyst; its answer goes to `to` alone.
  void start_analysis(AnalysisWork work, const std::shared_ptr<Peer>& to);
  // Tells the analyst this room's position while a game between two people is on.
  void publish_live();

  std::string id_;
  std::string address_;
  net::any_io_executor strand_;  // serial_executor(): a strand, or the io_context with one thread
  Room room_;
  const Limits& limits_;
  Metrics& metrics_;
  std::unordered_map<MemberId, std::weak_ptr<Peer>> peers_;
  bool retired_ = false;
  bool computer_busy_ = false;     // a search or a computer turn is under way
  bool spectators_timer_ = false;  // a refresh_spectators() is due
  net::steady_timer deadline_;
  net::steady_timer restore_timer_;          // the next try of restore_from_store while suspended_
  std::optional<std::int64_t> deadline_at_;  // what deadline_ is set for (steady ms)
  std::shared_ptr<std::atomic<bool>> computer_stop_ = std::make_shared<std::atomic<bool>>(false);
  store::Store* store_ = nullptr;
  ComputerPool* computers_ = nullptr;
  Analyst* analyst_ = nullptr;
  std::tuple<int, std::int64_t, bool> live_shown_{0, -1, false};  // game, version, live
  std::deque<Entry> outbox_;
  bool committing_ = false;  // one submission of this room at a time: the log never has holes
  std::optional<bool> answered_inline_;
  bool broken_ = false;  // the store failed and the room could not be rebuilt from it
  // The store failed and could not be read back: requests are refused until it can.
  bool suspended_ = false;
  std::vector<MemberId> failed_joins_;  // members whose join was never stored

  mutable std::mutex snapshot_mu_;
  RoomSummary summary_;
  Activity activity_;
};

}  // namespace bc::server
