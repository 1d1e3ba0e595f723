// A room: one game, its two seats and its spectators. Socket-free and single-threaded: the network
// layer runs every call of one room on that room's strand, so nothing here locks. Each call returns
// the messages to send, so the whole of the room's judgement is testable without a network.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "server/room/match.hpp"
#include "server/room/rate_limit.hpp"
#include "server/room/room_clock.hpp"
#include "server/room/seats.hpp"
#include "server/wire/limits.hpp"
#include "server/wire/state_snapshot.hpp"
#include "server/wire/stored.hpp"

namespace bc::server {

// What a message is to a congested connection, which may be sent fewer broadcasts: a state
// replaces the states and deltas queued before it, chat may be dropped, anything else is sent.
enum class MessageKind : std::uint8_t { Other, State, Delta, Chat };

struct Outgoing {
  std::optional<MemberId> to;               // nullopt: every member of the room
  std::shared_ptr<const std::string> text;  // serialized once, shared by every recipient
  bool detach = false;                      // after sending, `to` is no longer a member
  MessageKind kind = MessageKind::Other;    // a delta's members get MessageKind::Delta
  // A state broadcast (instead of `text`): its full text is written only if somebody needs it.
  std::shared_ptr<const StateMessage> state = nullptr;
  // A state broadcast's compact forms (state_snapshot.hpp), each for the members listed (sorted):
  // those who asked for it and hold the state it is a delta from. Everyone else gets the full
  // state.
  struct Delta {
    std::shared_ptr<const std::string> text;
    std::shared_ptr<const std::vector<MemberId>> to;
  };
  Delta delta = {};        // actions as objects
  Delta short_delta = {};  // short actions
  // The text itself: `text`, or the state's full text.
  const std::shared_ptr<const std::string>& full() const { return state ? state->text() : text; }
  // What member m gets: its delta, if it takes one, or the full text.
  const std::shared_ptr<const std::string>& text_for(MemberId m) const;
};

enum class Membership : std::uint8_t { Unchanged, Joined, Left };

// What an outcome changed of the room's durable record (docs/PERSISTENCE.md). RoomHost turns these
// into store rows right after the call, and holds the messages until they are committed.
struct Durable {
  bool room = false;                        // the room was made
  std::array<bool, 2> seats{false, false};  // these sides' seats were taken, freed or swapped
  bool game = false;                        // the current game's row: started, players, result
  bool action = false;                      // log().back() was accepted
  bool takeback = false;                    // match().takebacks().back() happened
  std::optional<std::int64_t> hint;         // this version was analysed (a hint, see Analysis)
  std::optional<int> drop_game;             // this finished game had no move: not kept
  bool ratings = false;                     // a rated game ended: both players' new ratings
  bool any() const {
    return room || seats[0] || seats[1] || game || action || takeback || hint.has_value() ||
           drop_game.has_value() || ratings;
  }
};

// An `analyse` the room allowed (docs/PROTOCOL.md, "Analysis"): RoomHost hands it to the computer
// threads, and the answer goes to `member` alone.
struct AnalysisWork {
  MemberId member = 0;
  RequestId id;
  bool history = false;
  bool moves = true;
  std::optional<std::int64_t> version;  // the one position's (not for a history)
  int game_number = 1;
  // The position, or every one for a history; empty for an earlier game, read from the store.
  std::vector<std::pair<std::int64_t, Game>> positions;
  // Values for watchers: the turns the history lags behind the live game, and its last version
  // (none: the game has not made that many turns). Each position is checked by the live guard.
  std::optional<int> lag = std::nullopt;
  std::optional<std::int64_t> upto = std::nullopt;
};

struct Outcome {
  std::vector<Outgoing> messages;
  Durable durable;
  std::optional<ErrorCode> refused;  // the request was refused (and nothing changed)
  bool action_accepted = false;      // an `act` was applied
  bool finished = false;             // the game ended with this request
  Membership sender = Membership::Unchanged;
  std::optional<Limited> limited;  // the refusal was a per-address or per-room limit
  // A spectator's join or leave: only the sender got the state; the count follows (Room's
  // spectators_stale, RoomHost's timer).
  bool state_coalesced = false;
  std::optional<AnalysisWork> analysis;  // an allowed `analyse`, for RoomHost
};

class Room {
 public:
  using TokenSource = std::function<std::string()>;

  Room(std::string id, GameSetup setup, Limits limits = {}, TokenSource tokens = random_token,
       std::uint64_t seed = std::random_device{}(), const TimeSource* time = &real_time());

  // The creator takes a seat (or watches) in the room just made for them.
  // `who`: the signed-in creator.
  Outcome seat_creator(MemberId m, std::string_view name, SeatChoice seat, const RequestId& id,
                       std::string_view address = {}, const std::optional<Identity>& who = {});
  // The computer takes the empty seat, or both when the creator watches (create's `opponent`).
  Outcome seat_computers(const Opponent& opponent);

  // A computer seat to move: what its search needs. Only while someone is in the room to watch.
  struct ComputerTurn {
    Side side = Side::First;
    int level = 1;
    std::int64_t version = 0;
    int game_number = 1;
  };
  std::optional<ComputerTurn> computer_to_move() const;
  // Plays one action for a computer seat, through the same checks as a player's `act`.
  Outcome act_for_computer(Side side, const Action& action);
  // Every request after create: join, act, resign, draws, rematch, chat, leave, sync. `address`:
  // the sender's, for the spectators per address of a join ("": not known, not limited).
  // `received`: when the request arrived (steady ms; none: now), which stops a player's clock.
  Outcome handle(MemberId m, const ClientMessage& msg, std::string_view address = {},
                 std::optional<std::int64_t> received = std::nullopt);
  // Clocked games (docs/PROTOCOL.md, "Clocks"). The side to move's turn begins when its state has
  // been sent (RoomHost calls this once everything the room said is out); the next deadline is
  // when the room must act on its own (a flag or an abort), and on_deadline does it.
  void start_clock();
  std::optional<std::int64_t> next_deadline() const;
  Outcome on_deadline();
  bool clock_running() const;
  // A player's client reported its lag (ping's `lag`): `presence` to everyone when it changed.
  Outcome report_lag(MemberId m, std::int64_t lag);
  const std::optional<GameClock>& clock() const { return clock_.game_clock(); }
  // Member m (now or once it joins) takes states in the compact form (create's or join's
  // `compact`): a `delta` whenever it holds the state before. Full changes nothing.
  void set_compact(MemberId m, StateForm form);
  // A `state` for every member: the compact ones that hold the last one get its delta.
  void add_state(Outcome& o);
  // The `spectators` of the last state differs from the room's: a spectator joined or left since
  // (their states were coalesced). refresh_spectators() sends everyone the state with the count.
  bool spectators_stale() const { return spectators_shown_ != seats_.spectator_count(); }
  Outcome refresh_spectators();
  // The connection is gone: a player's seat stays theirs, shown as disconnected.
  // `outage`: the connection went down with the server node that carried it (a cluster node
  // gone), not with the person: if it held the side to move, that turn's time so far is forgiven.
  Outcome disconnect(MemberId m, bool outage = false);
  // The room is being retired: everyone gets a notice and is detached.
  Outcome close(std::string_view why);

  // Rebuilds a fresh room (made with image.setup) from what the store kept: seats, game number,
  // and the current game's actions replayed through core in order with their versions. On an
  // error the room is unusable.
  std::optional<ReplayError> restore(const GameRecord& image);
  // After a failed commit: takes over the connections of `old` (the same room, ahead of the
  // store). A player keeps its seat if the store has it with the same token; anyone else watches.
  void adopt_members(const Room& old);

  // Why positions may not be analysed (one is live in another room: RoomHost asks the analyst),
  // or none. Checked, in a room made at a custom start, before an `analyse` leaves a hint or a
  // search.
  using AnalysisGuard = std::function<std::optional<std::string>(
      const std::vector<std::pair<std::int64_t, Game>>& positions)>;
  void set_analysis_guard(AnalysisGuard guard) { analysis_guard_ = std::move(guard); }
  const AnalysisGuard& analysis_guard() const { return analysis_guard_; }

  const std::string& id() const { return id_; }
  const Match& match() const { return match_; }
  const Game& game() const { return match_.game(); }
  RoomStatus status() const;
  std::int64_t version() const { return match_.version(); }
  int game_number() const { return match_.game_number(); }
  const std::vector<LoggedAction>& log() const { return match_.log(); }
  std::size_t members() const { return seats_.members().size(); }
  std::size_t connected_players() const { return seats_.connected_players(); }
  bool is_member(MemberId m) const { return seats_.is_member(m); }
  std::optional<Side> seat_of(MemberId m) const { return seats_.seat_of(m); }
  // A room whose two seats are one browser's (docs/PROTOCOL.md, "One screen").
  bool one_screen() const { return match_.setup().one_screen; }
  bool has_computer() const { return seats_.has_computer(); }  // a seat is the computer's

  // The state as of now, with the spectator count last shown (spectators_shown_).
  StateSnapshot snapshot() const;
  std::string state_text() const { return state_json(snapshot().view()); }
  std::string record_text() const;
  // Every position of the current game, version 0 to now, as states (positions_json): the log
  // replayed through core from the room's start, the last one being the room's own.
  std::string positions_text() const;
  RoomSummary summary() const;

  // The durable parts, for the store's rows.
  const GameSetup& setup() const { return match_.setup(); }
  std::optional<StoredSeat> stored_seat(Side s) const { return seats_.stored(s); }
  SeatNames seat_names() const { return seats_.names(); }
  SeatPlayers seat_players() const { return seats_.players(); }
  std::int64_t created_ms() const { return created_ms_; }
  std::int64_t started_ms() const { return match_.started_ms(); }
  std::int64_t ended_ms() const { return match_.ended_ms(); }
  std::vector<MemberId> member_ids() const { return seats_.ids(); }

 private:
  Outcome handle_join(MemberId m, const RequestId& id, const JoinMsg& j, std::string_view address);
  Outcome rejoin(MemberId m, const RequestId& id, const std::string& token,
                 std::string_view address);
  Outcome handle_act(MemberId m, const RequestId& id, const ActMsg& a, std::int64_t received);
  Outcome handle_resign(MemberId m, const RequestId& id);
  Outcome handle_offer_draw(MemberId m, const RequestId& id);
  Outcome handle_answer_draw(MemberId m, const RequestId& id, const AnswerDrawMsg& a);
  Outcome handle_rematch(MemberId m, const RequestId& id);
  Outcome handle_chat(MemberId m, const RequestId& id, const ChatMsg& c);
  Outcome handle_leave(MemberId m, const RequestId& id);
  Outcome handle_analyse(MemberId m, const RequestId& id, const AnalyseMsg& a);
  // Values for watchers: the history of a live game between two people, a few turns behind.
  Outcome lagged_history(MemberId m, const RequestId& id, const AnalyseMsg& a, AnalysisWork work);
  Outcome handle_claim(MemberId m, const RequestId& id, const ClaimMsg& c);
  Outcome handle_takeback(MemberId m, const RequestId& id);
  Outcome handle_answer_takeback(MemberId m, const RequestId& id, const AnswerTakebackMsg& a);
  // Undoes `side`'s last turn (both sides' when its opponent has answered it), `side` to move.
  void take_back(Side side, Outcome& o);

  // Seats member m on side s (a fresh token) or as a spectator; replies joined + state.
  Outcome take_seat(MemberId m, std::string name, std::optional<Side> side, const RequestId& id,
                    std::string_view address, const std::optional<Identity>& who = {});
  // Why `who` may not sit on `side` of this room (a rated game's rules, a seat kept for another
  // player), or nothing.
  std::optional<Error> seat_refusal(Side side, const std::optional<Identity>& who) const;
  // The creator of a one-screen room takes both seats, under one token.
  Outcome take_both_seats(MemberId m, const std::string& name, const SeatChoice& choice,
                          const RequestId& id, std::string_view address);
  // The side member m plays for now: its seat's, or in a one-screen room the side to move.
  std::optional<Side> acting_side(MemberId m) const;
  // A state after a join or leave: when only the spectator count changed, it goes to the members
  // that lack the last state (the joiner), and the count follows within spectators_update.
  void add_membership_state(Outcome& o);
  // `state`: snapshot() as of now.
  void add_state(Outcome& o, StateSnapshot state);
  // Drops m's membership; a seat keeps its token (free_seat: clears it too, noted in `durable`).
  void remove_member(MemberId m, bool free_seat, Durable* durable = nullptr);
  // A check that only players pass, and that the game is on: not_a_player / game_over /
  // not_started, in that order.
  std::optional<Error> check_player_in_game(MemberId m) const;
  std::string seat_label(std::optional<Side> s) const;

  Outgoing to(MemberId m, std::string text) const;
  Outgoing everyone(std::string text) const;
  Outcome refuse(MemberId m, const RequestId& id, std::string_view request, ErrorCode code,
                 std::string message) const;
  void add_ok(Outcome& o, MemberId m, const RequestId& id, std::string_view request) const;
  // An action core accepted, into the match, and what it brings: the end, the state broadcast.
  Outcome played(Side side, const Action& action, Applied applied, std::optional<MemberId> m,
                 const RequestId& id, std::int64_t received, std::int64_t lag);
  // `loser`'s time ran out: a loss, or a draw when the opponent could not win (S1, S2).
  Outcome time_out(Side loser);
  // The game ended with this request: its row (result, end time) is written.
  void mark_ended(Outcome& o) {
    o.finished = true;
    o.durable.game = true;
    rate(o);
  }
  // A rated game that ended: both players' new ratings (docs/PLAYERS.md, "Ratings").
  void rate(Outcome& o);

  std::string id_;
  Limits limits_;
  TokenSource tokens_;
  std::mt19937_64 rng_;
  const TimeSource* time_;
  Match match_;
  RoomClock clock_;
  std::int64_t created_ms_ = 0;

  Seats seats_;
  std::shared_ptr<const StateMessage> last_state_;            // the last state sent to every member
  int spectators_shown_ = 0;                                  // `spectators` in the room's states
  std::array<int, 2> takeback_asks_{};                        // proposals this game, by side
  std::array<std::int64_t, 2> takeback_declined_at_{-1, -1};  // version of the last decline
  AnalysisGuard analysis_guard_;
  // When each seat's connection went down with a server node (disconnect's `outage`): if its
  // player takes it back soon and is to move, the time since is forgiven too.
  std::array<std::optional<std::int64_t>, 2> lost_in_outage_{};
};

}  // namespace bc::server
