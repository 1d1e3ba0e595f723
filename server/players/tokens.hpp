// Bot accounts and their API tokens (docs/BOTS.md): a token is "bcb_" and 32 hex digits, shown
// once; the store keeps its SHA-256 only, as it does sessions. Every call reads and writes the
// store: call them off the I/O threads. Any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bc/store.hpp"
#include "server/game/clock.hpp"
#include "server/players/accounts.hpp"

namespace bc::server {

inline constexpr std::string_view kTokenPrefix = "bcb_";
inline constexpr std::size_t kMaxTokensPerPlayer = 20;
inline constexpr std::size_t kTokenLabelMax = 60;

// The secret of an `Authorization: Bearer` header, or "" (a malformed one is none).
std::string bearer_secret(std::string_view authorization);

class Tokens {
 public:
  explicit Tokens(store::Store& store, const TimeSource& time = real_time());

  // The player a token stands for, and the token's id; none for an unknown or revoked one. Marks
  // the token used (written at most hourly).
  struct Holder {
    store::PlayerRow player;
    std::string token_id;
  };
  std::optional<Holder> holder(std::string_view secret);

  // POST /api/tokens: a new token for `player`, the only time it is shown.
  AccountAnswer create(const store::PlayerRow& player, std::string_view body);
  // GET /api/tokens.
  AccountAnswer list(const store::PlayerRow& player);
  // POST /api/tokens/{id}/revoke.
  AccountAnswer revoke(const store::PlayerRow& player, std::string_view id);
  // POST /api/bot/account/upgrade: a fresh account becomes a bot, for good; its password and its
  // browsers' sessions go (a bot plays through its tokens only).
  AccountAnswer upgrade(const store::PlayerRow& player);
  // GET /api/account.
  static AccountAnswer account(const store::PlayerRow& player);

  // `bombcheckers bot create NAME`: a new bot account and its first token's secret, or why not.
  std::optional<std::string> create_bot(std::string_view name, std::string& error);
  // `bombcheckers bot token NAME`: a new token's secret for an existing bot, or why not.
  std::optional<std::string> new_token(std::string_view name, std::string_view label,
                                       std::string& error);
  // Who has this name, if anyone.
  std::optional<store::PlayerRow> named(std::string_view name);

 private:
  // A new token row for `player`; its secret in `secret`.
  store::TokenRow make(const std::string& player, std::string_view label, std::string& secret);

  store::Store& store_;
  const TimeSource& time_;
};

}  // namespace bc::server
