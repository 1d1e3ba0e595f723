// The bots' HTTP API (docs/BOTS.md): tokens, the event and game streams, challenges and a game's
// requests. The caller is found on a record thread (a token's or a session's store reads); each
// answer comes back to the session's executor. A page's request (a session cookie) that changes
// something must come from this server's own origin; a token's need not (no browser sends one by
// itself).
#include "server/bots/bots.hpp"
#include "server/net/http_responses.hpp"
#include "server/net/http_session.hpp"
#include "server/net/lan.hpp"
#include "server/net/origin.hpp"
#include "server/players/tokens.hpp"

namespace bc::server {

namespace {

enum class BotCall : std::uint8_t {
  Account,
  Upgrade,
  Tokens,
  NewToken,
  RevokeToken,
  EventStream,
  GameStream,
  Game,  // a game's request: move, resign, draw, takeback, chat, claims
  ChallengeAi,
  Challenge,  // POST /api/challenge/{name}
  ShowChallenge,
  Accept,
  Decline,
  Cancel,
};

struct BotRoute {
  BotCall call = BotCall::Account;
  bool post = false;
  bool page = false;  // a signed-in page may call it with its session, not only a token
  bool bot = false;   // only a bot account may call it
  std::string arg;    // the path's name, id or room
  std::string more;   // a game's move text
  Bots::Call game = Bots::Call::Move;
};

BotRoute make(BotCall call, bool post, bool page, bool bot, std::string_view arg = {}) {
  BotRoute r;  // an `arg` that no name, id or room can be is an empty one: not found
  r.call = call;
  r.post = post;
  r.page = page;
  r.bot = bot;
  const bool plain = arg.size() <= 40 && std::all_of(arg.begin(), arg.end(), [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
                     });
  r.arg = plain ? std::string(arg) : std::string("?");
  return r;
}

// The path after `prefix`, split at '/'.
std::vector<std::string_view> parts_after(std::string_view path, std::string_view prefix) {
  std::vector<std::string_view> out;
  std::string_view rest = path.substr(prefix.size());
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    out.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  return out;
}

std::optional<BotRoute> bot_route_of(std::string_view path, bool is_post) {
  auto starts = [&](std::string_view p) { return path.rfind(p, 0) == 0; };
  if (path == "/api/account") return make(BotCall::Account, false, false, false);
  if (path == "/api/bot/account/upgrade") return make(BotCall::Upgrade, true, true, false);
  if (path == "/api/tokens") {
    return is_post ? make(BotCall::NewToken, true, true, false)
                   : make(BotCall::Tokens, false, true, false);
  }
  if (starts("/api/tokens/")) {
    auto p = parts_after(path, "/api/tokens/");
    if (p.size() == 2 && p[1] == "revoke") {
      return make(BotCall::RevokeToken, true, true, false, p[0]);
    }
    return std::nullopt;
  }
  if (path == "/api/stream/event") return make(BotCall::EventStream, false, false, true);
  if (starts("/api/bot/game/stream/")) {
    auto p = parts_after(path, "/api/bot/game/stream/");
    if (p.size() != 1) return std::nullopt;
    return make(BotCall::GameStream, false, false, true, p[0]);
  }
  if (starts("/api/bot/game/")) {
    auto p = parts_after(path, "/api/bot/game/");
    if (p.size() < 2) return std::nullopt;
    BotRoute r = make(BotCall::Game, true, false, true, p[0]);
    const std::string_view what = p[1];
    const std::string_view answer = p.size() == 3 ? p[2] : std::string_view();
    if (what == "move" && p.size() == 3) {
      auto text = percent_decode(p[2], false);
      if (!text) return std::nullopt;
      r.more = std::move(*text);
      r.game = Bots::Call::Move;
    } else if (p.size() == 2 && what == "resign") {
      r.game = Bots::Call::Resign;
    } else if (what == "draw" && (answer == "yes" || answer == "no")) {
      r.game = answer == "yes" ? Bots::Call::DrawYes : Bots::Call::DrawNo;
    } else if (what == "takeback" && (answer == "yes" || answer == "no")) {
      r.game = answer == "yes" ? Bots::Call::TakebackYes : Bots::Call::TakebackNo;
    } else if (p.size() == 2 && what == "chat") {
      r.game = Bots::Call::Chat;
    } else if (p.size() == 2 && what == "claim-victory") {
      r.game = Bots::Call::ClaimVictory;
    } else if (p.size() == 2 && what == "claim-draw") {
      r.game = Bots::Call::ClaimDraw;
    } else {
      return std::nullopt;
    }
    return r;
  }
  if (path == "/api/challenge/ai") return make(BotCall::ChallengeAi, true, false, true);
  if (starts("/api/challenge/")) {
    auto p = parts_after(path, "/api/challenge/");
    if (p.size() == 1 && !p[0].empty()) {
      return is_post ? make(BotCall::Challenge, true, true, false, p[0])
                     : make(BotCall::ShowChallenge, false, true, false, p[0]);
    }
    if (p.size() == 2) {
      const std::string id(p[0]);
      if (p[1] == "accept") return make(BotCall::Accept, true, false, true, id);
      if (p[1] == "decline") return make(BotCall::Decline, true, false, true, id);
      if (p[1] == "cancel") return make(BotCall::Cancel, true, true, false, id);
    }
  }
  return std::nullopt;
}

AccountAnswer refuse(int status, std::string_view code, std::string message) {
  return AccountAnswer{status, http_error_json(code, message), std::nullopt, 0};
}

}  // namespace

void HttpSession::send_answer(const Request& req, const AccountAnswer& out) {
  http::response<http::string_body> res{static_cast<http::status>(out.status), req.version()};
  set_common(res, req, kJson);
  res.set(http::field::cache_control, "no-store");
  if (out.cookie) {
    res.set(http::field::set_cookie, session_cookie(*out.cookie, state_->config.tls()));
  }
  if (out.retry_after > 0) res.set(http::field::retry_after, std::to_string(out.retry_after));
  res.content_length(out.body.size());
  if (req.method() != http::verb::head) res.body() = out.body;
  send(std::move(res));
}

bool HttpSession::handle_bots(Request& req, std::string_view path) {
  const bool is_post = req.method() == http::verb::post;
  auto route = bot_route_of(path, is_post);
  if (!route) return false;
  const bool is_get = req.method() == http::verb::get;
  if (route->post ? !is_post : !is_get) {
    auto res = http::response<http::string_body>{http::status::method_not_allowed, req.version()};
    set_common(res, req, kJson);
    res.set(http::field::allow, route->post ? "POST" : "GET");
    res.body() = http_error_json("method_not_allowed",
                                 route->post ? "send this with POST" : "send this with GET");
    res.prepare_payload();
    send(std::move(res));
    return true;
  }
  if (!state_->accounts) {
    send_answer(req, refuse(404, "accounts_off",
                            "this server has no accounts, so no bots (serve --no-accounts)"));
    return true;
  }
  if (!state_->bots || !state_->tokens) {
    send_answer(req, refuse(404, "bots_off",
                            "this server has no bot API: a cluster's nodes do not serve it"));
    return true;
  }
  std::string bearer = bearer_secret(req[http::field::authorization]);
  std::string cookie = route->page ? session_secret(req[http::field::cookie]) : std::string();
  if (bearer.empty() && !req[http::field::authorization].empty()) {
    send_answer(req, refuse(401, "bad_token", "the Authorization header holds no token"));
    return true;
  }
  // A page's session changes something only from a page of this server.
  if (bearer.empty() && route->post &&
      !from_own_page(req[http::field::origin], req["Sec-Fetch-Site"], req[http::field::host],
                     state_->config.allowed_origins)) {
    state_->metrics.origin_refused.fetch_add(1, std::memory_order_relaxed);
    send_answer(req,
                refuse(403, "bad_origin", "this request must come from a page of this server"));
    return true;
  }
  RecordWorks::Refusal why = RecordWorks::Refusal::None;
  auto ticket = state_->records.admit(address(), why);
  if (!ticket) {
    const bool mine = why == RecordWorks::Refusal::AddressBusy;
    send(try_later(req, mine ? http::status::too_many_requests : http::status::service_unavailable,
                   mine ? "rate_limited" : "busy",
                   "the server is busy with your earlier requests; try again in a moment"));
    return true;
  }
  state_->records.post(ticket, [self = shared_from_this(), req = std::move(req),
                                route = std::move(*route), bearer = std::move(bearer),
                                cookie = std::move(cookie)]() mutable {
    SharedState& s = *self->state_;
    auto reply = [self, req](AccountAnswer out) {
      net::post(self->executor(),
                [self, req, out = std::move(out)] { self->send_answer(req, out); });
    };
    // Who asks: a token's holder, else (on a page's routes) a session's player.
    std::optional<store::PlayerRow> player;
    std::string token_id;
    if (!bearer.empty()) {
      auto holder = s.tokens->holder(bearer);
      if (!holder) return reply(refuse(401, "bad_token", "this token is unknown or revoked"));
      int wait = 1;
      if (!s.bots->admit(holder->token_id, &wait)) {
        AccountAnswer a = refuse(429, "rate_limited", "too many requests on this token");
        a.retry_after = std::max(wait, 1);
        return reply(a);
      }
      player = std::move(holder->player);
    } else if (!cookie.empty()) {
      player = s.accounts->player_of_session(cookie);
    }
    if (!player) {
      return reply(route.page ? refuse(401, "not_signed_in", "sign in, or send a token")
                              : refuse(401, "bad_token",
                                       "send `Authorization: Bearer <token>` (docs/BOTS.md)"));
    }
    if (route.bot && !player->bot) {
      return reply(refuse(403, "not_a_bot",
                          "this is a bot's request, and " + player->name + " is not a bot"));
    }
    const Identity who{player->id, player->name, s.accounts->ratings_of(player->id), player->bot};
    Bots& bots = *s.bots;
    switch (route.call) {
      case BotCall::Account:
        return reply(Tokens::account(*player));
      case BotCall::Upgrade:
        return reply(s.tokens->upgrade(*player));
      case BotCall::Tokens:
        return reply(s.tokens->list(*player));
      case BotCall::NewToken:
        return reply(s.tokens->create(*player, req.body()));
      case BotCall::RevokeToken:
        return reply(s.tokens->revoke(*player, route.arg));
      case BotCall::EventStream:
      case BotCall::GameStream: {
        if (route.call == BotCall::GameStream) {
          if (auto no = bots.game_refusal(who, route.arg)) return reply(*no);
        }
        const unsigned version = req.version();
        return net::post(self->executor(), [self, route, who, version] {
          auto bots_ptr = self->state_->bots;
          self->stream_lines(version, [bots_ptr, route, who](std::shared_ptr<LineSink> sink) {
            if (route.call == BotCall::GameStream) return bots_ptr->open_game(who, route.arg, sink);
            if (!bots_ptr->open_events(who, sink)) {
              sink->push(std::make_shared<const std::string>(http_error_json(
                  "too_many_streams", "this bot has its event streams open already")));
              sink->close();
            }
          });
        });
      }
      case BotCall::Game:
        return bots.game_call(who, route.arg, route.game,
                              route.game == Bots::Call::Move ? route.more : req.body(), reply);
      case BotCall::ChallengeAi:
        return bots.challenge_ai(who, req.body(), reply);
      case BotCall::Challenge: {
        auto dest = s.tokens->named(route.arg);
        if (!dest) return reply(refuse(404, "not_found", "there is no player " + route.arg));
        const Identity to{dest->id, dest->name, s.accounts->ratings_of(dest->id), dest->bot};
        return reply(bots.challenge(who, to, req.body()));
      }
      case BotCall::ShowChallenge:
        return reply(bots.show(who.id, route.arg));
      case BotCall::Accept:
        return bots.accept(who, route.arg, reply);
      case BotCall::Decline:
        return reply(bots.decline(who, route.arg, req.body()));
      case BotCall::Cancel:
        return reply(bots.cancel(who.id, route.arg));
    }
  });
  return true;
}

}  // namespace bc::server
