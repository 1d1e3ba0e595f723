// One WebSocket connection speaking the game protocol. It parses each frame (off the room's
// strand), rate-limits, and passes typed requests to its room; the room's messages come back
// through deliver() into a bounded queue with one write in flight.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "server/cluster/cluster.hpp"
#include "server/host/shared_state.hpp"
#include "server/net/beast.hpp"
#include "server/room/rate_limit.hpp"

namespace bc::server {

// A ws:// connection's socket when one thread runs the io_context (serial.hpp): its executor is
// the io_context's own, not a type-erased one, so each of Beast's operations takes and drops its
// work guard with an atomic count instead of copying an any_io_executor.
using DirectSocket = net::basic_stream_socket<tcp, net::io_context::executor_type>;

// Stream is DirectSocket or tcp::socket (ws://, one I/O thread or several) or
// beast::ssl_stream<beast::tcp_stream> (wss://); the three are explicitly instantiated in
// websocket_session.cpp, the only place that defines the members. ws:// leaves tcp_stream behind
// at the upgrade: the WebSocket stream keeps its own timeouts, and tcp_stream's layer (an
// operation, a timer check and an executor's work guard around every read and write) was 8 % of
// the instructions of a move.
template <class Stream>
class WebSocketSession final : public WebSocketPeer,
                               public PoolMember,
                               public std::enable_shared_from_this<WebSocketSession<Stream>> {
 public:
  // `stream`: an accepted connection (TLS handshake done) whose upgrade request has been read.
  WebSocketSession(Stream&& stream, std::shared_ptr<SharedState> state,
                   AddressTicket slot = nullptr);
  ~WebSocketSession() override;

  void run(http::request<http::string_body> req);
  void shutdown() override;

  // Peer (called from room strands; each posts to this session's strand)
  MemberId member_id() const override { return id_; }
  std::string_view address() const override {
    return slot_ ? slot_->address() : std::string_view();
  }
  void deliver(Texts texts, bool request_handled) override;
  void deliver_from_room(Texts texts, bool request_handled) override;
  void join_answered(std::shared_ptr<RoomHost> room) override;
  void detached(const RoomHost* room) override;
  void moved() override;
  void relay_answered(bool joined) override;
  void relay_detached() override;

  // PoolMember (called from the pools' strand; each posts to this session's strand)
  void pool_create(const PoolSpec& pool, const Identity& opponent,
                   std::function<void(std::string room)> made) override;
  void pool_join(const PoolSpec& pool, std::string room) override;
  void pool_dropped(std::string why) override;
  void pool_waiting(const std::string& pool, std::size_t waiting) override;

 private:
  using std::enable_shared_from_this<WebSocketSession>::shared_from_this;
  using std::enable_shared_from_this<WebSocketSession>::weak_from_this;

  void on_accept(beast::error_code ec);
  void do_read();
  void maybe_read();  // reads the next message unless closing, paused or too much is in flight
  void take(Peer::Texts texts, bool request_handled);  // what deliver() hands to this session
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_message(std::string_view text);
  // A request for a room (the lobby's), once its room is known to run here or nowhere.
  void route(ClientMessage request, Clock::time_point received);
  // Cluster: a join for a room not here, once the cluster found where it runs.
  void placed(const Placement& p, ClientMessage request, std::string text,
              Clock::time_point received);
  // Cluster: no room can be placed now: server_error, then 1012 so that the client retries.
  void unavailable(const RequestId& id, std::string_view request);
  // Cluster: a create, once the cluster reserved its room's id (nullopt: it could not).
  void reserved(std::optional<std::string> id, ClientMessage request, Clock::time_point received);
  // `answered`: the owner says when it was handled (not for a ping's lag).
  void relay(std::string text, Clock::time_point received, bool answered = true);
  void end_relay();      // out of the relay: bye to the owner
  void release_relay();  // end_relay() if relaying: a closing session holds itself no more
  void refuse(const RequestId& id, ErrorCode code, std::string message, std::string_view request);
  void analyse_free(const RequestId& id, const AnalyseMsg& a);
  // docs/PLAYERS.md: `pool` (enter or leave one); a create or join made as this player.
  void pool_request(const RequestId& id, const PoolMsg& p);
  void sign(ClientMessage& request);
  // A create or join once checked: where the cluster says, or to the lobby here.
  void dispatch(ClientMessage request, std::string_view text, Clock::time_point received);
  // `full`: when `text` is a delta, its full state (Peer::Message).
  void send(Peer::Message message);
  bool congested() const;            // past send_queue_coalesce
  std::size_t drop_queued_states();  // the queued states and deltas but the one being written
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void close_with(websocket::close_code code, std::string_view reason);
  void on_close(beast::error_code ec);
  void cut_off();         // closes the socket at once (no closing handshake)
  void watch_liveness();  // the next look at whether the peer was heard from
  void on_liveness();
  bool flooding(Clock::time_point now);

  websocket::stream<Stream> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  AddressTicket slot_;  // the connection's place in its address's count; its address makes rooms
  const MemberId id_;
  struct Queued {
    std::shared_ptr<const std::string> text;
    Clock::time_point since;
    MessageKind kind = MessageKind::Other;
  };
  std::deque<Queued> queue_;
  std::size_t queued_bytes_ = 0;
  // `/ws?compact=1` (or 2): every create and join asks for at least that form of states
  StateForm compact_ = StateForm::Full;
  bool open_ = false;    // handshake done, not yet closing
  bool paused_ = false;  // a create/join awaits its answer: the next read waits too
  bool reading_ = false;
  bool close_when_drained_ = false;  // shutdown: the notice is queued; close once it is written
  websocket::close_code close_code_ = websocket::close_code::going_away;  // ...with this code
  std::size_t inflight_ = 0;           // requests handed to the room and not yet handled
  std::shared_ptr<RoomHost> room_;     // the room this connection is a member of
  std::shared_ptr<RoomHost> pending_;  // the room a create/join was sent to
  std::string relay_to_;               // cluster: the node whose room this connection is relayed to
  std::shared_ptr<WebSocketPeer> relay_hold_;  // this session, while relay_to_ is set
  TokenBucket bucket_;
  std::deque<Clock::time_point> strikes_;
  // The idle timeout, kept here rather than by Beast, whose timer is set again at every read
  // (a timer queue update, a cancelled wait run through the scheduler: 4 % of a move's
  // instructions). Every half timeout: a peer heard from (any frame) is fine; one not heard from
  // is pinged; one still silent at the next look is dropped.
  net::steady_timer liveness_;
  bool heard_ = false;
  bool pinged_ = false;
  // The player of the session cookie the upgrade came with (none: not signed in).
  std::optional<Identity> who_;
  // A pool's pairing: the room this session was asked to make, told to the pairing once made.
  std::function<void(std::string room)> pool_made_;
  std::string pool_id_;
};

}  // namespace bc::server
