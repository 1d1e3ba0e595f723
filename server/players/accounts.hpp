// Players' identity (docs/PLAYERS.md): guests, accounts with a password, and the sessions that
// stand for them in a browser (an HttpOnly cookie whose secret the store keeps only as a hash).
// Every call reads and writes the store and may hash a password: call them off the I/O threads
// (the HTTP layer runs them on the record threads). Any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bc/store.hpp"
#include "server/game/clock.hpp"
#include "server/players/attempts.hpp"
#include "server/players/passwords.hpp"
#include "server/wire/identity.hpp"

namespace bc::server {

inline constexpr std::string_view kSessionCookie = "bc_session";

// What the HTTP layer answers: a status, a JSON body, and the session cookie to set ("" clears
// it; none leaves it).
struct AccountAnswer {
  int status = 200;
  std::string body;
  std::optional<std::string> cookie;
  int retry_after = 0;  // seconds, for a 429
};

// Who asks: the session cookie's secret ("" none), the client's address, its User-Agent.
struct Caller {
  std::string secret;
  std::string address;
  std::string agent;
};

class Accounts {
 public:
  Accounts(store::Store& store, PasswordCost cost, const TimeSource& time = real_time());

  // GET /api/me: the signed-in player, or null.
  AccountAnswer me(const Caller& c);
  // POST /api/guest: a guest player and its session, unless the caller already has one.
  AccountAnswer guest(const Caller& c);
  // POST /api/signup {"name","password"}: the caller's guest (or a new player) takes the name.
  AccountAnswer signup(const Caller& c, std::string_view body);
  // POST /api/login {"name","password"}: a new session for that account.
  AccountAnswer login(const Caller& c, std::string_view body);
  // POST /api/logout: this session ends. POST /api/logout-all: every session of its player.
  AccountAnswer logout(const Caller& c);
  AccountAnswer logout_all(const Caller& c);
  // GET /api/sessions: the player's sessions, this one marked.
  AccountAnswer sessions(const Caller& c);

  // The player a session's secret stands for, with its ratings (a WebSocket's upgrade).
  std::optional<Identity> identify(std::string_view secret);
  // The player a session's secret stands for, as the store has it (docs/BOTS.md's pages).
  std::optional<store::PlayerRow> player_of_session(std::string_view secret);
  // The player's ratings as the store has them now.
  std::vector<PerfRating> ratings_of(const std::string& player);

  // Name and password rules (docs/PLAYERS.md), for tests: the problem in words, or nothing.
  static std::optional<std::string> name_problem(std::string_view name);
  static std::optional<std::string> password_problem(std::string_view password);
  static std::string fold(std::string_view name);

 private:
  struct Session {
    store::SessionRow row;
    store::PlayerRow player;
  };
  std::optional<Session> session_of(std::string_view secret);
  // Writes, and waits for their commit.
  bool commit(std::vector<store::Write> writes);
  // A new session for `player` (the caller's old one ends): the answer with its cookie.
  AccountAnswer start_session(const Caller& c, const store::PlayerRow& player);
  std::string me_json(const std::optional<store::PlayerRow>& player);
  AccountAnswer signed_out();  // nobody, and the cookie cleared

  store::Store& store_;
  Passwords passwords_;
  const TimeSource& time_;
  Attempts login_by_address_;
  Attempts login_by_name_;
  Attempts signup_by_address_;
  Attempts guest_by_address_;
};

// Submits `writes` and waits for their commit: false if it failed.
bool commit_now(store::Store& store, std::vector<store::Write> writes);

// The secret of the session cookie in a Cookie header, or "" (a malformed one is none).
std::string session_secret(std::string_view cookie_header);
// The Set-Cookie header's value for `secret` ("" clears the cookie). `secure` over TLS.
std::string session_cookie(std::string_view secret, bool secure);

}  // namespace bc::server
