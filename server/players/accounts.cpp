#include "server/players/accounts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <future>
#include <nlohmann/json.hpp>

#include "server/room/seats.hpp"  // random_token

namespace bc::server {

namespace {

using ojson = nlohmann::ordered_json;
using std::chrono::seconds;

constexpr std::size_t kNameMin = 2;
constexpr std::size_t kNameMax = 20;
constexpr std::size_t kPasswordMin = 8;
constexpr std::size_t kPasswordMax = 128;
constexpr std::size_t kAgentMax = 120;
// A session's last sign of life is written at most this often.
constexpr std::int64_t kSeenEveryMs = 60LL * 60 * 1000;
constexpr std::string_view kReserved[] = {"admin",    "administrator", "anonymous", "bombcheckers",
                                          "computer", "guest",         "moderator", "root",
                                          "server",   "system"};

AccountAnswer answer(int status, ojson body) {
  return AccountAnswer{status, body.dump(), std::nullopt, 0};
}

AccountAnswer error(int status, std::string_view code, std::string message) {
  return answer(status, ojson{{"error", code}, {"message", std::move(message)}});
}

AccountAnswer too_many(int wait, std::string what) {
  AccountAnswer a =
      error(429, "rate_limited", std::move(what) + "; try again in " + std::to_string(wait) + " s");
  a.retry_after = wait;
  return a;
}

bool is_hex_secret(std::string_view s) {
  return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// {"name":..,"password":..} as sent by a sign-up or sign-in form.
struct Credentials {
  std::string name;
  std::string password;
};
std::optional<Credentials> read_credentials(std::string_view body, std::string& why) {
  auto j = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
  if (!j.is_object()) {
    why = "send a JSON object {\"name\":..., \"password\":...}";
    return std::nullopt;
  }
  auto name = j.find("name");
  auto password = j.find("password");
  if (name == j.end() || !name->is_string() || password == j.end() || !password->is_string()) {
    why = "`name` and `password` must both be strings";
    return std::nullopt;
  }
  return Credentials{name->get<std::string>(), password->get<std::string>()};
}

std::string cut_agent(std::string_view agent) {
  std::string out;
  for (char c : agent.substr(0, kAgentMax)) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) out += c;
  }
  return out;
}

}  // namespace

std::string session_secret(std::string_view header) {
  // "a=1; bc_session=...; b=2": the first well-formed bc_session wins.
  std::size_t at = 0;
  while (at < header.size()) {
    std::size_t end = header.find(';', at);
    if (end == std::string_view::npos) end = header.size();
    std::string_view pair = header.substr(at, end - at);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == kSessionCookie) {
      std::string_view value = pair.substr(eq + 1);
      while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
      if (is_hex_secret(value)) return std::string(value);
    }
    at = end + 1;
  }
  return {};
}

std::string session_cookie(std::string_view secret, bool secure) {
  std::string c = std::string(kSessionCookie) + "=" + std::string(secret) +
                  "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" +
                  (secret.empty() ? std::string("0") : std::to_string(365LL * 24 * 60 * 60));
  if (secure) c += "; Secure";
  return c;
}

Accounts::Accounts(store::Store& store, PasswordCost cost, const TimeSource& time)
    : store_(store),
      passwords_(cost),
      time_(time),
      login_by_address_(10, seconds(30)),
      login_by_name_(10, seconds(60)),
      signup_by_address_(5, seconds(120)),
      guest_by_address_(20, seconds(10)) {}

std::string Accounts::fold(std::string_view name) {
  std::string out(name);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<std::string> Accounts::name_problem(std::string_view name) {
  if (name.size() < kNameMin || name.size() > kNameMax) {
    return "a name is " + std::to_string(kNameMin) + " to " + std::to_string(kNameMax) +
           " characters long";
  }
  const auto ok = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  };
  if (!std::all_of(name.begin(), name.end(), ok)) {
    return "a name has only the letters A to Z, digits, '_' and '-'";
  }
  if (!std::isalpha(static_cast<unsigned char>(name.front()))) return "a name starts with a letter";
  const auto mark = [](char c) { return c == '_' || c == '-'; };
  if (mark(name.back())) return "a name ends with a letter or a digit";
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (mark(name[i]) && mark(name[i - 1])) return "a name has no '_' or '-' next to another";
  }
  const std::string key = fold(name);
  for (auto r : kReserved) {
    if (key == r) return "that name is kept by the server";
  }
  return std::nullopt;
}

std::optional<std::string> Accounts::password_problem(std::string_view password) {
  if (password.size() < kPasswordMin) {
    return "a password has at least " + std::to_string(kPasswordMin) + " characters";
  }
  if (password.size() > kPasswordMax) {
    return "a password has at most " + std::to_string(kPasswordMax) + " bytes";
  }
  return std::nullopt;
}

bool commit_now(store::Store& store, std::vector<store::Write> writes) {
  std::promise<bool> done;
  auto committed = done.get_future();
  store.submit(std::move(writes), [&done](bool ok) { done.set_value(ok); });
  return committed.get();
}

bool Accounts::commit(std::vector<store::Write> writes) {
  return commit_now(store_, std::move(writes));
}

std::optional<store::PlayerRow> Accounts::player_of_session(std::string_view secret) {
  auto s = session_of(secret);
  if (!s) return std::nullopt;
  return std::move(s->player);
}

std::optional<Accounts::Session> Accounts::session_of(std::string_view secret) {
  if (!is_hex_secret(secret)) return std::nullopt;
  auto row = store_.session(store::sha256_hex(secret));
  if (!row) return std::nullopt;
  auto player = store_.player(row->player);
  if (!player) return std::nullopt;
  return Session{std::move(*row), std::move(*player)};
}

std::vector<PerfRating> Accounts::ratings_of(const std::string& player) {
  std::vector<PerfRating> out;
  for (auto& r : store_.ratings(player)) {
    PerfRating p;
    p.perf = r.perf;
    p.rating = players::Rating{r.rating, r.deviation, r.volatility,
                               r.updated_ms > 0 ? std::optional(r.updated_ms) : std::nullopt};
    p.wins = r.wins;
    p.draws = r.draws;
    p.losses = r.losses;
    out.push_back(std::move(p));
  }
  return out;
}

std::optional<Identity> Accounts::identify(std::string_view secret) {
  auto s = session_of(secret);
  if (!s) return std::nullopt;
  const std::int64_t now = time_.unix_ms();
  if (now - s->row.seen_ms >= kSeenEveryMs) {
    s->row.seen_ms = now;
    store_.submit({store::PutSession{s->row}});
  }
  return Identity{s->player.id, s->player.name, ratings_of(s->player.id), s->player.bot};
}

std::string Accounts::me_json(const std::optional<store::PlayerRow>& player) {
  ojson j{{"accounts", true}};
  if (!player) {
    j["player"] = nullptr;
    return j.dump();
  }
  const std::int64_t now = time_.unix_ms();
  const auto params = players::Glicko2Params::lichess();
  ojson ratings = ojson::array();
  for (const auto& r : ratings_of(player->id)) {
    const double deviation = players::current_deviation(r.rating, now, params);
    ratings.push_back(ojson{{"perf", r.perf},
                            {"rating", std::lround(r.rating.rating)},
                            {"deviation", std::lround(deviation)},
                            {"provisional", deviation >= params.provisional_deviation},
                            {"games", r.wins + r.draws + r.losses}});
  }
  j["player"] = ojson{{"id", player->id},
                      {"name", player->name.empty() ? ojson(nullptr) : ojson(player->name)},
                      {"guest", player->name.empty()},
                      {"ratings", std::move(ratings)}};
  return j.dump();
}

AccountAnswer Accounts::me(const Caller& c) {
  auto s = session_of(c.secret);
  AccountAnswer a = answer(200, nullptr);
  a.body = me_json(s ? std::optional(s->player) : std::nullopt);
  // A cookie whose session is gone (signed out elsewhere) is cleared.
  if (!s && !c.secret.empty()) a.cookie = "";
  return a;
}

AccountAnswer Accounts::start_session(const Caller& c, const store::PlayerRow& player) {
  const std::string secret = random_token();
  const std::int64_t now = time_.unix_ms();
  std::vector<store::Write> w;
  // Always a new secret: a session id planted before signing in never becomes the account's.
  if (is_hex_secret(c.secret)) w.push_back(store::DropSession{store::sha256_hex(c.secret)});
  w.push_back(store::PutSession{
      store::SessionRow{store::sha256_hex(secret), player.id, now, now, cut_agent(c.agent)}});
  if (!commit(std::move(w))) {
    return error(503, "unavailable", "the server could not save the session; try again");
  }
  AccountAnswer a = answer(200, nullptr);
  a.body = me_json(player);
  a.cookie = secret;
  return a;
}

AccountAnswer Accounts::guest(const Caller& c) {
  if (auto s = session_of(c.secret)) {
    AccountAnswer a = answer(200, nullptr);
    a.body = me_json(s->player);
    return a;
  }
  int wait = 0;
  if (!guest_by_address_.take(c.address, Attempts::Clock::now(), &wait)) {
    return too_many(wait, "too many new guests from your address");
  }
  store::PlayerRow p;
  p.id = random_token().substr(0, 16);
  p.created_ms = time_.unix_ms();
  if (!commit({store::PutPlayer{p}})) {
    return error(503, "unavailable", "the server could not save the player; try again");
  }
  return start_session(c, p);
}

AccountAnswer Accounts::signup(const Caller& c, std::string_view body) {
  std::string why;
  auto cred = read_credentials(body, why);
  if (!cred) return error(400, "bad_request", why);
  if (auto p = name_problem(cred->name)) return error(400, "bad_name", *p);
  if (auto p = password_problem(cred->password)) return error(400, "bad_password", *p);
  int wait = 0;
  if (!signup_by_address_.take(c.address, Attempts::Clock::now(), &wait)) {
    return too_many(wait, "too many new accounts from your address");
  }
  auto current = session_of(c.secret);
  if (current && !current->player.name.empty()) {
    return error(409, "signed_in",
                 "you are signed in as " + current->player.name + "; sign out first");
  }
  const std::string key = fold(cred->name);
  if (store_.player_named(key)) return error(409, "name_taken", "that name is taken");
  std::string hash = passwords_.hash(cred->password);
  if (hash.empty()) return error(503, "unavailable", "the server is short of memory; try again");
  // A guest keeps its ratings and games under its new name.
  store::PlayerRow p;
  if (current) {
    p = current->player;
  } else {
    p.id = random_token().substr(0, 16);
    p.created_ms = time_.unix_ms();
  }
  p.name = cred->name;
  p.name_key = key;
  p.password_hash = std::move(hash);
  if (!commit({store::PutPlayer{p}})) {
    return error(503, "unavailable", "the server could not save the account; try again");
  }
  // Two sign-ups for one name at once: the store kept the first; the other is told.
  auto holder = store_.player_named(key);
  if (!holder || holder->id != p.id) return error(409, "name_taken", "that name is taken");
  return start_session(c, p);
}

AccountAnswer Accounts::login(const Caller& c, std::string_view body) {
  std::string why;
  auto cred = read_credentials(body, why);
  if (!cred) return error(400, "bad_request", why);
  if (cred->name.size() > kNameMax || cred->password.size() > kPasswordMax) {
    return error(401, "wrong_credentials", "wrong name or password");
  }
  const auto now = Attempts::Clock::now();
  int wait = 0;
  if (!login_by_address_.take(c.address, now, &wait)) {
    return too_many(wait, "too many sign-in attempts from your address");
  }
  const std::string key = fold(cred->name);
  // Counted for names that do not exist too: the limit tells nothing about which do.
  if (!login_by_name_.take(key, now, &wait)) {
    return too_many(wait, "too many sign-in attempts for that name");
  }
  auto player = store_.player_named(key);
  bool ok = false;
  if (player && !player->password_hash.empty()) {
    ok = passwords_.verify(player->password_hash, cred->password);
  } else {
    passwords_.verify_nothing(cred->password);  // as long as a real check
  }
  if (!ok) return error(401, "wrong_credentials", "wrong name or password");
  return start_session(c, *player);
}

AccountAnswer Accounts::logout(const Caller& c) {
  if (is_hex_secret(c.secret)) {
    if (!commit({store::DropSession{store::sha256_hex(c.secret)}})) {
      return error(503, "unavailable", "the server could not end the session; try again");
    }
  }
  return signed_out();
}

AccountAnswer Accounts::logout_all(const Caller& c) {
  auto s = session_of(c.secret);
  if (!s) return error(401, "not_signed_in", "you are not signed in");
  if (!commit({store::DropSessions{s->player.id, ""}})) {
    return error(503, "unavailable", "the server could not end the sessions; try again");
  }
  return signed_out();
}

AccountAnswer Accounts::signed_out() {
  AccountAnswer a = answer(200, nullptr);
  a.body = me_json(std::nullopt);
  a.cookie = "";  // the cookie goes too
  return a;
}

AccountAnswer Accounts::sessions(const Caller& c) {
  auto s = session_of(c.secret);
  if (!s) return error(401, "not_signed_in", "you are not signed in");
  ojson list = ojson::array();
  for (const auto& row : store_.sessions(s->player.id)) {
    list.push_back(ojson{{"created_ms", row.created_ms},
                         {"seen_ms", row.seen_ms},
                         {"label", row.label},
                         {"current", row.hash == s->row.hash}});
  }
  return answer(200, ojson{{"sessions", std::move(list)}});
}

}  // namespace bc::server
