#include "server/players/tokens.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "server/room/seats.hpp"  // random_token

namespace bc::server {

namespace {

using ojson = nlohmann::ordered_json;

// A token's last use is written at most this often.
constexpr std::int64_t kSeenEveryMs = 60LL * 60 * 1000;

AccountAnswer answer(int status, const ojson& body) {
  // Bytes that are not UTF-8 (from a request's path) are replaced, never thrown on.
  return AccountAnswer{status, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                       std::nullopt, 0};
}

AccountAnswer error(int status, std::string_view code, std::string message) {
  return answer(status, ojson{{"error", code}, {"message", std::move(message)}});
}

bool is_token_secret(std::string_view s) {
  if (s.size() != kTokenPrefix.size() + 32 || s.substr(0, kTokenPrefix.size()) != kTokenPrefix) {
    return false;
  }
  s.remove_prefix(kTokenPrefix.size());
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Printable ASCII only, cut short: a label is shown on pages and in terminals.
std::string clean_label(std::string_view label) {
  std::string out;
  for (char c : label) {
    if (c >= 0x20 && c < 0x7f && out.size() < kTokenLabelMax) out += c;
  }
  return out;
}

ojson token_json(const store::TokenRow& t) {
  return ojson{
      {"id", t.id}, {"label", t.label}, {"created_ms", t.created_ms}, {"seen_ms", t.seen_ms}};
}

}  // namespace

std::string bearer_secret(std::string_view authorization) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() <= kScheme.size()) return {};
  for (std::size_t i = 0; i < kScheme.size(); ++i) {  // the scheme is case-insensitive
    if (std::tolower(static_cast<unsigned char>(authorization[i])) !=
        std::tolower(static_cast<unsigned char>(kScheme[i]))) {
      return {};
    }
  }
  std::string_view secret = authorization.substr(kScheme.size());
  while (!secret.empty() && secret.front() == ' ') secret.remove_prefix(1);
  while (!secret.empty() && secret.back() == ' ') secret.remove_suffix(1);
  return is_token_secret(secret) ? std::string(secret) : std::string();
}

Tokens::Tokens(store::Store& store, const TimeSource& time) : store_(store), time_(time) {}

std::optional<Tokens::Holder> Tokens::holder(std::string_view secret) {
  if (!is_token_secret(secret)) return std::nullopt;
  auto row = store_.token(store::sha256_hex(secret));
  if (!row) return std::nullopt;
  auto player = store_.player(row->player);
  if (!player) return std::nullopt;
  const std::int64_t now = time_.unix_ms();
  if (now - row->seen_ms >= kSeenEveryMs) {
    row->seen_ms = now;
    store_.submit({store::PutToken{*row}});
  }
  return Holder{std::move(*player), row->id};
}

store::TokenRow Tokens::make(const std::string& player, std::string_view label,
                             std::string& secret) {
  secret = std::string(kTokenPrefix) + random_token();
  const std::int64_t now = time_.unix_ms();
  store::TokenRow row;
  row.hash = store::sha256_hex(secret);
  row.id = row.hash.substr(0, 12);
  row.player = player;
  row.label = clean_label(label);
  row.created_ms = now;
  row.seen_ms = now;
  return row;
}

AccountAnswer Tokens::create(const store::PlayerRow& player, std::string_view body) {
  if (player.name.empty()) {
    return error(403, "sign_in_required", "tokens belong to accounts: sign up first");
  }
  std::string label;
  if (!body.empty()) {
    auto j = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_object()) return error(400, "bad_request", "send a JSON object {\"label\":...}");
    if (auto l = j.find("label"); l != j.end()) {
      if (!l->is_string()) return error(400, "bad_request", "`label` must be a string");
      label = l->get<std::string>();
    }
  }
  if (store_.tokens(player.id).size() >= kMaxTokensPerPlayer) {
    return error(409, "too_many_tokens",
                 "an account holds at most " + std::to_string(kMaxTokensPerPlayer) +
                     " tokens: revoke one first");
  }
  std::string secret;
  store::TokenRow row = make(player.id, label, secret);
  if (!commit_now(store_, {store::PutToken{row}})) {
    return error(503, "unavailable", "the server could not save the token; try again");
  }
  ojson j{{"token", secret}};
  j.update(token_json(row));
  return answer(200, j);
}

AccountAnswer Tokens::list(const store::PlayerRow& player) {
  ojson list = ojson::array();
  for (const auto& t : store_.tokens(player.id)) list.push_back(token_json(t));
  return answer(200, ojson{{"tokens", std::move(list)}});
}

AccountAnswer Tokens::revoke(const store::PlayerRow& player, std::string_view id) {
  const auto tokens = store_.tokens(player.id);
  const bool held = std::any_of(tokens.begin(), tokens.end(),
                                [&](const store::TokenRow& t) { return t.id == id; });
  if (!held) return error(404, "not_found", "this account has no token with that id");
  if (!commit_now(store_, {store::DropToken{player.id, std::string(id)}})) {
    return error(503, "unavailable", "the server could not revoke the token; try again");
  }
  return answer(200, ojson{{"ok", true}});
}

AccountAnswer Tokens::account(const store::PlayerRow& player) {
  return answer(200, ojson{{"id", player.id},
                           {"name", player.name.empty() ? ojson(nullptr) : ojson(player.name)},
                           {"bot", player.bot}});
}

AccountAnswer Tokens::upgrade(const store::PlayerRow& player) {
  if (player.name.empty()) {
    return error(403, "sign_in_required", "only an account can become a bot: sign up first");
  }
  if (player.bot) return error(409, "already_bot", "this account is a bot already");
  if (!store_.ratings(player.id).empty() || !store_.rated_games(player.id, "", 1).empty()) {
    return error(409, "not_fresh",
                 "only an account that has played no rated game can become a bot; make a new one");
  }
  store::PlayerRow bot = player;
  bot.bot = true;
  bot.password_hash.clear();  // no password: a bot never signs in from a browser
  if (!commit_now(store_, {store::PutPlayer{bot}, store::DropSessions{bot.id, ""}})) {
    return error(503, "unavailable", "the server could not save the change; try again");
  }
  return account(bot);
}

std::optional<store::PlayerRow> Tokens::named(std::string_view name) {
  return store_.player_named(Accounts::fold(name));
}

std::optional<std::string> Tokens::create_bot(std::string_view name, std::string& error) {
  if (auto why = Accounts::name_problem(name)) {
    error = *why;
    return std::nullopt;
  }
  if (named(name)) {
    error = "the name '" + std::string(name) + "' is taken";
    return std::nullopt;
  }
  store::PlayerRow p;
  p.id = random_token().substr(0, 16);
  p.name = std::string(name);
  p.name_key = Accounts::fold(name);
  p.created_ms = time_.unix_ms();
  p.bot = true;
  std::string secret;
  store::TokenRow token = make(p.id, "made by bombcheckers bot create", secret);
  if (!commit_now(store_, {store::PutPlayer{p}, store::PutToken{token}})) {
    error = "the store could not save the bot";
    return std::nullopt;
  }
  auto back = named(name);  // a name taken in between is left out of the write
  if (!back || back->id != p.id) {
    error = "the name '" + std::string(name) + "' is taken";
    return std::nullopt;
  }
  return secret;
}

std::optional<std::string> Tokens::new_token(std::string_view name, std::string_view label,
                                             std::string& error) {
  auto p = named(name);
  if (!p || !p->bot) {
    error = "there is no bot named '" + std::string(name) + "'";
    return std::nullopt;
  }
  std::string secret;
  store::TokenRow token = make(p->id, label, secret);
  if (!commit_now(store_, {store::PutToken{token}})) {
    error = "the store could not save the token";
    return std::nullopt;
  }
  return secret;
}

}  // namespace bc::server
