// The bots' service (docs/BOTS.md): challenges, each bot's event streams and its seats in games.
// Socket-free: the HTTP layer authenticates the caller (a token, or a page's session), reads the
// store, and calls these; a game's requests go into its room through the bot's BotSeat. Any
// thread: one mutex guards the maps, never held while a seat or a stream is called.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/bots/bot_seat.hpp"
#include "server/bots/line_sink.hpp"
#include "server/players/accounts.hpp"
#include "server/players/attempts.hpp"

namespace bc::server {

class Bots {
 public:
  struct Settings {
    bool bots_challenge_bots = false;                  // serve --bots-challenge-bots
    std::chrono::milliseconds challenge_ttl{120'000};  // unanswered, a challenge expires
    std::size_t open_challenges = 5;                   // per challenger
    std::size_t event_streams = 4;                     // per bot, open at once
    std::size_t game_streams = 16;                     // per bot, open at once
  };
  Bots(Registry& registry, const Limits& limits, std::atomic<MemberId>& next_member,
       Settings settings);

  using Reply = std::function<void(AccountAnswer)>;

  // A request on a token: false when its budget is spent (30 at once, then 10 a second).
  bool admit(const std::string& token_id, int* wait);

  // The bot's event stream: its games in progress and waiting challenges, then news. False: the
  // bot has its streams open already (the stream is not kept).
  bool open_events(const Identity& bot, const std::shared_ptr<LineSink>& sink);
  // Why a game stream cannot open: none, or (status, code, message).
  std::optional<AccountAnswer> game_refusal(const Identity& bot, const std::string& room);
  void open_game(const Identity& bot, const std::string& room,
                 const std::shared_ptr<LineSink>& sink);

  // Challenges: made by a person or a bot to a bot; read by either side; answered by the bot;
  // taken back by the challenger.
  AccountAnswer challenge(const Identity& from, const Identity& dest, std::string_view body);
  AccountAnswer show(const std::string& player, const std::string& id);
  void accept(const Identity& bot, const std::string& id, Reply reply);
  AccountAnswer decline(const Identity& bot, const std::string& id, std::string_view body);
  AccountAnswer cancel(const std::string& player, const std::string& id);
  // A game against the server's computer, at once.
  void challenge_ai(const Identity& bot, std::string_view body, Reply reply);

  enum class Call : std::uint8_t {
    Move,
    Resign,
    DrawYes,
    DrawNo,
    TakebackYes,
    TakebackNo,
    Chat,
    ClaimVictory,
    ClaimDraw
  };
  // `arg`: the move's text, or the chat request's body.
  void game_call(const Identity& bot, const std::string& room, Call call, std::string arg,
                 Reply reply);

  // Server shutdown: every stream ends.
  void close_all();

 private:
  using ojson = nlohmann::ordered_json;
  enum class Status : std::uint8_t { Created, Accepted, Declined, Canceled, Expired };
  struct Challenge {
    std::string id;
    Identity from;
    Identity dest;
    CreateMsg create;  // the game it asks for, as read and checked
    std::string perf;
    std::string color = "random";
    Status status = Status::Created;
    bool accepting = false;  // its room is being made: still `created` to everyone, never twice
    std::string room;
    std::string decline_reason;
    std::int64_t created_ms = 0;
    std::chrono::steady_clock::time_point expires;
  };
  struct Bot {
    std::vector<std::shared_ptr<LineSink>> events;
    std::unordered_map<std::string, std::shared_ptr<BotSeat>> seats;  // by room
    std::size_t game_streams = 0;
  };

  static ojson challenge_json(const Challenge& c);
  // The news to a bot's event streams (under mu_: the streams only queue).
  void tell(const std::string& bot, const ojson& event);
  // Challenges past their time expire (under mu_).
  void sweep();
  std::shared_ptr<BotSeat> new_seat(const Identity& bot);
  std::shared_ptr<BotSeat> seat_of(const std::string& bot, const std::string& room);
  void seated(const std::string& bot, const std::shared_ptr<BotSeat>& seat);

  Registry& registry_;
  const Limits& limits_;
  std::atomic<MemberId>& next_member_;
  const Settings settings_;
  Attempts requests_;
  std::mutex mu_;
  std::unordered_map<std::string, Bot> bots_;  // by player id
  std::unordered_map<std::string, Challenge> challenges_;
};

// A refusal as the HTTP answer: its status and {"error","message"} (and an illegal move's legal
// turns).
AccountAnswer refusal_answer(const BotRefusal& r);

}  // namespace bc::server
