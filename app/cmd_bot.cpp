// `bombcheckers bot`: the host's bot accounts (docs/BOTS.md). Makes a bot and its first token,
// makes more tokens, lists and revokes them, in the data directory's database (or a PostgreSQL
// store). SQLite lets it run beside a serving server; a token is shown once, here.
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bc/store.hpp"
#include "commands.hpp"
#include "flags.hpp"
#include "server/players/tokens.hpp"

namespace bc::app {
namespace {

namespace fs = std::filesystem;

struct Settings {
  fs::path data_dir = "data";
  std::string store;
  std::string label = "made by bombcheckers bot token";
  std::vector<std::string> operands;  // the action, then its name (and a token's id)
};

const Flag<Settings> kBotFlags[] = {
    {"--data-dir", "BOMBCHECKERS_DATA_DIR", "DIR", "the server's data directory (default ./data)",
     [](Settings& s, std::string_view v) -> std::optional<std::string> {
       if (v.empty()) return "empty path";
       s.data_dir = fs::path(v);
       return std::nullopt;
     }},
    {"--store", "BOMBCHECKERS_STORE", "URL",
     "a PostgreSQL store (postgres://...) instead of the data directory's file",
     [](Settings& s, std::string_view v) -> std::optional<std::string> {
       if (!store::is_postgres_url(v)) return "a postgres:// or postgresql:// URL";
       s.store = std::string(v);
       return std::nullopt;
     }},
    {"--label", "", "TEXT", "a new token's label, shown in token lists",
     [](Settings& s, std::string_view v) -> std::optional<std::string> {
       s.label = std::string(v);
       return std::nullopt;
     }},
};

void bot_usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers bot create NAME      a new bot account; prints its first token\n"
      "       bombcheckers bot token NAME       a new token for the bot; prints it\n"
      "       bombcheckers bot tokens NAME      lists the bot's tokens (id, label, dates)\n"
      "       bombcheckers bot revoke NAME ID   revokes one of its tokens\n\n"
      "A token is shown once: keep it. Bots play through the HTTP API of docs/BOTS.md,\n"
      "with `Authorization: Bearer <token>`.\n\n");
  print_flags<Settings>(out, kBotFlags);
}

std::string date_of(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

int fail(const std::string& why) {
  std::fprintf(stderr, "bombcheckers bot: %s\n", why.c_str());
  return 1;
}

}  // namespace

int cmd_bot(Args args) {
  Settings s;
  if (auto done = read_command_flags<Settings>(
          "bot", kBotFlags, args, s, bot_usage,
          [](Settings& st, std::string_view arg) -> std::optional<std::string> {
            st.operands.emplace_back(arg);
            return std::nullopt;
          })) {
    return *done;
  }
  const auto& op = s.operands;
  const std::string action = op.empty() ? "" : op[0];
  const std::size_t want = action == "revoke" ? 3 : 2;
  if ((action != "create" && action != "token" && action != "tokens" && action != "revoke") ||
      op.size() != want) {
    return usage_error("bot", "want create NAME, token NAME, tokens NAME or revoke NAME ID");
  }
  std::string why;
  const fs::path db = s.data_dir / "bombcheckers.db";
  if (s.store.empty()) {
    std::error_code ec;
    fs::create_directories(s.data_dir, ec);
  }
  auto st = store::Store::open(s.store.empty() ? db.string() : s.store, why);
  if (!st) return fail(why);
  server::Tokens tokens(*st);
  const std::string& name = op[1];
  if (action == "create") {
    auto secret = tokens.create_bot(name, why);
    if (!secret) return fail(why);
    std::printf("bot %s made; its token (shown once):\n%s\n", name.c_str(), secret->c_str());
    return 0;
  }
  if (action == "token") {
    auto secret = tokens.new_token(name, s.label, why);
    if (!secret) return fail(why);
    std::printf("a new token of %s (shown once):\n%s\n", name.c_str(), secret->c_str());
    return 0;
  }
  auto player = tokens.named(name);
  if (!player || !player->bot) return fail("there is no bot named '" + name + "'");
  if (action == "tokens") {
    for (const auto& t : st->tokens(player->id)) {
      std::printf("%s  made %s  last used %s  %s\n", t.id.c_str(), date_of(t.created_ms).c_str(),
                  date_of(t.seen_ms).c_str(), t.label.c_str());
    }
    return 0;
  }
  const auto answer = tokens.revoke(*player, op[2]);
  if (answer.status != 200) return fail("no token " + op[2] + " of " + name);
  std::printf("token %s of %s revoked\n", op[2].c_str(), name.c_str());
  return 0;
}

}  // namespace bc::app
