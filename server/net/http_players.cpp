// The players' HTTP API (docs/PLAYERS.md): who am I, guests, sign-up, sign-in and out, sessions,
// profiles and leaderboards. Each request runs on a record thread (store reads, Argon2id), a
// bounded number at a time; a request that changes something and comes from a browser page must
// come from this server's own origin.
#include <algorithm>

#include "server/host/records.hpp"
#include "server/net/http_responses.hpp"
#include "server/net/http_session.hpp"
#include "server/net/lan.hpp"
#include "server/net/origin.hpp"
#include "server/players/profiles.hpp"

namespace bc::server {

namespace {

enum class Call : std::uint8_t {
  Me,
  Guest,
  Signup,
  Login,
  Logout,
  LogoutAll,
  Sessions,
  Profile,
  Leaderboard
};

struct Route {
  std::string_view path;
  Call call;
  bool post;  // changes something: POST, with the origin check
};
constexpr Route kRoutes[] = {
    {"/api/me", Call::Me, false},
    {"/api/guest", Call::Guest, true},
    {"/api/signup", Call::Signup, true},
    {"/api/login", Call::Login, true},
    {"/api/logout", Call::Logout, true},
    {"/api/logout-all", Call::LogoutAll, true},
    {"/api/sessions", Call::Sessions, false},
    {"/api/leaderboard", Call::Leaderboard, false},
};

}  // namespace

bool HttpSession::handle_players(Request& req, std::string_view path, const std::string& target) {
  std::optional<Call> call;
  bool post = false;
  std::string name;
  for (const auto& r : kRoutes) {
    if (path == r.path) {
      call = r.call;
      post = r.post;
    }
  }
  if (!call && path.rfind("/api/players/", 0) == 0) {
    call = Call::Profile;
    name = std::string(path.substr(13));
  }
  if (!call) return false;

  const bool is_post = req.method() == http::verb::post;
  const bool is_get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (post ? !is_post : !is_get) {
    auto res = http::response<http::string_body>{http::status::method_not_allowed, req.version()};
    set_common(res, req, kJson);
    res.set(http::field::allow, post ? "POST" : "GET, HEAD");
    res.body() = http_error_json("method_not_allowed",
                                 post ? "send this with POST" : "only GET and HEAD are served");
    res.prepare_payload();
    send(std::move(res));
    return true;
  }
  if (!state_->accounts) {
    if (*call == Call::Me) {
      send(text_response(req, http::status::ok, kJson, R"({"accounts":false,"player":null})"));
    } else {
      send(json_error(req, http::status::not_found, "accounts_off",
                      "this server has no accounts or ratings (serve --no-accounts)"));
    }
    return true;
  }
  // A page's request that changes something must come from a page of this server.
  if (post && !from_own_page(req[http::field::origin], req["Sec-Fetch-Site"],
                             req[http::field::host], state_->config.allowed_origins)) {
    state_->metrics.origin_refused.fetch_add(1, std::memory_order_relaxed);
    send(json_error(req, http::status::forbidden, "bad_origin",
                    "this request must come from a page of this server"));
    return true;
  }
  RecordWorks::Refusal why = RecordWorks::Refusal::None;
  auto ticket = state_->records.admit(address(), why);
  if (!ticket) {
    send(try_later(req,
                   why == RecordWorks::Refusal::AddressBusy ? http::status::too_many_requests
                                                            : http::status::service_unavailable,
                   why == RecordWorks::Refusal::AddressBusy ? "rate_limited" : "busy",
                   "the server is busy with your earlier requests; try again in a moment"));
    return true;
  }
  Caller caller{session_secret(req[http::field::cookie]), address(),
                std::string(req[http::field::user_agent])};
  std::string perf = query_param(target, "perf").value_or("");
  int limit = 50;
  if (auto l = query_param(target, "limit")) {
    limit = std::clamp(std::atoi(l->c_str()), 1, 200);
  }
  state_->records.post(ticket, [self = shared_from_this(), req = std::move(req), call = *call,
                                caller = std::move(caller), name = std::move(name),
                                perf = std::move(perf), limit]() mutable {
    Accounts& a = *self->state_->accounts;
    const std::int64_t now = real_time().unix_ms();
    AccountAnswer out;
    switch (call) {
      case Call::Me:
        out = a.me(caller);
        break;
      case Call::Guest:
        out = a.guest(caller);
        break;
      case Call::Signup:
        out = a.signup(caller, req.body());
        break;
      case Call::Login:
        out = a.login(caller, req.body());
        break;
      case Call::Logout:
        out = a.logout(caller);
        break;
      case Call::LogoutAll:
        out = a.logout_all(caller);
        break;
      case Call::Sessions:
        out = a.sessions(caller);
        break;
      case Call::Profile:
        out = profile_answer(*self->state_->store, name, now);
        break;
      case Call::Leaderboard:
        out = leaderboard_answer(*self->state_->store, perf, limit, now);
        break;
    }
    net::post(self->executor(), [self, req = std::move(req), out = std::move(out)]() mutable {
      http::response<http::string_body> res{static_cast<http::status>(out.status), req.version()};
      set_common(res, req, kJson);
      res.set(http::field::cache_control, "no-store");
      if (out.cookie) {
        res.set(http::field::set_cookie, session_cookie(*out.cookie, self->state_->config.tls()));
      }
      if (out.retry_after > 0) res.set(http::field::retry_after, std::to_string(out.retry_after));
      res.content_length(out.body.size());
      if (req.method() != http::verb::head) res.body() = std::move(out.body);
      self->send(std::move(res));
    });
  });
  return true;
}

}  // namespace bc::server
