// `bombcheckers replay FILE|ROOM`: checks a game record by replaying it through the rules core.
// FILE is a JSON record as served by /api/games/{room}; ROOM is a room id in the store of a data
// directory, or of the PostgreSQL database of --store (every game of the room, or --game N). Prints
// the final state of each game, or the first action that does not replay (exit 1).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "bc/store.hpp"
#include "commands.hpp"
#include "flags.hpp"
#include "server/host/registry.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"
#include "server/wire/stored.hpp"

namespace bc::app {
namespace {

namespace fs = std::filesystem;
using server::Room;

using Setting = std::optional<std::string>;

struct Settings {
  std::string target;  // FILE or ROOM
  fs::path data_dir = "data";
  std::string store;  // a postgres:// URL instead of the data directory's file
  int game = 0;       // 0: every game of the room
  bool pdn = false;
};

Setting set_target(Settings& s, std::string_view v) {
  if (!s.target.empty()) return "only one FILE or ROOM at a time";
  s.target = std::string(v);
  return std::nullopt;
}

Setting set_data_dir(Settings& s, std::string_view v) {
  if (v.empty()) return "empty path";
  s.data_dir = fs::path(v);
  return std::nullopt;
}

Setting set_store(Settings& s, std::string_view v) {
  if (!store::is_postgres_url(v)) return "a postgres:// or postgresql:// URL";
  s.store = std::string(v);
  return std::nullopt;
}

Setting set_game(Settings& s, std::string_view v) {
  const auto n = parse_whole(v, 1, std::numeric_limits<int>::max());
  if (!n) return "wants a game number (1, 2, ...)";
  s.game = static_cast<int>(*n);
  return std::nullopt;
}

Setting set_pdn(Settings& s, std::string_view) {
  s.pdn = true;
  return std::nullopt;
}

const Flag<Settings> kReplayFlags[] = {
    {"--data-dir", "BOMBCHECKERS_DATA_DIR", "DIR", "where the store is (default ./data)",
     set_data_dir},
    {"--store", "BOMBCHECKERS_STORE", "URL",
     "the PostgreSQL store of serve --store instead (postgres://...)", set_store},
    {"--game", "", "N", "only game N of the room", set_game},
    {"--pdn", "", "", "also print each game's notation (PDN, or the Kaboom record)", set_pdn},
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: bombcheckers replay FILE|ROOM [options]\n\n"
               "Checks a game record by replaying every action through the rules core and prints\n"
               "the final state of each game; exits 1 at the first action that does not replay\n"
               "(with its version), 2 for bad arguments or an unreadable record.\n\n"
               "  FILE                     a JSON record as served by GET /api/games/{room}\n"
               "  ROOM                     a room id in the store of the data directory or of "
               "--store\n"
               "                           (every game of it)\n");
  print_flags<Settings>(out, kReplayFlags);
}

std::string board_text(const Game& g) {
  std::string out;
  for (int y = g.height() - 1; y >= 0; --y) {
    out += "  " + std::to_string(y) + (y < 10 ? "  " : " ");
    for (int x = 0; x < g.width(); ++x) {
      char c = '.';
      if (is_checkers(g.variant()) && (x + y) % 2 != 0) c = ' ';
      if (auto p = g.piece_at(Square{x, y})) {
        c = p->side == Side::First ? 'x' : 'o';
        if (p->rank != Rank::Man) c = static_cast<char>(c - 'a' + 'A');
        if (p->kind == Kind::Bomb) c = p->side == Side::First ? '*' : '@';
        if (p->kind == Kind::Shield) c = p->side == Side::First ? '#' : '%';
      }
      out += ' ';
      out += c;
    }
    out += '\n';
  }
  out += "     ";
  for (int x = 0; x < g.width(); ++x) out += " " + std::to_string(x % 10);
  out += "\n";
  return out;
}

void print_final(const std::string& what, const Room& room, bool pdn) {
  const Game& g = room.game();
  const VariantId v = g.variant();
  std::printf("%s: %s, game %d, %zu actions, version %lld\n", what.c_str(),
              std::string(variant_key(v)).c_str(), room.game_number(), room.log().size(),
              static_cast<long long>(room.version()));
  if (const auto& r = g.result()) {
    std::printf("  result: %s (%s)\n",
                r->winner ? (std::string(side_name(v, *r->winner)) + " won").c_str() : "draw",
                std::string(reason_name(r->reason)).c_str());
  } else {
    std::printf("  in progress: %s to move%s, %zu legal actions\n",
                std::string(side_name(v, g.turn())).c_str(), g.mid_turn() ? " (mid-turn)" : "",
                g.legal().size());
  }
  std::printf("%s", board_text(g).c_str());
  if (pdn) std::printf("\n%s\n", server::game_notation(room).c_str());
}

int replay_file(const fs::path& file, bool pdn) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in && !in.eof()) {
    std::fprintf(stderr, "replay: cannot read %s\n", file.string().c_str());
    return 2;
  }
  auto parsed = server::parse_record_json(ss.str());
  if (auto* e = std::get_if<std::string>(&parsed)) {
    std::fprintf(stderr, "replay: %s: %s\n", file.string().c_str(), e->c_str());
    return 2;
  }
  auto& rec = std::get<server::GameRecord>(parsed);
  const std::string id = rec.room.empty() ? std::string("RECORD") : rec.room;
  // A malformed entry is the first bad action, unless an earlier one already fails.
  server::GameRecord replayed = rec;
  if (rec.malformed) replayed.result.reset();
  auto restored = server::restore_room(id, replayed, server::Limits{});
  if (!restored.room) {
    std::printf("%s: FAILED at version %lld: %s\n", file.string().c_str(),
                static_cast<long long>(restored.error->version), restored.error->message.c_str());
    return 1;
  }
  if (rec.malformed) {
    std::printf("%s: FAILED at version %lld: %s\n", file.string().c_str(),
                static_cast<long long>(rec.malformed->first), rec.malformed->second.c_str());
    return 1;
  }
  if (rec.version >= 0 && rec.version != restored.room->version()) {
    std::printf("%s: FAILED: the record says version %lld but its actions reach version %lld\n",
                file.string().c_str(), static_cast<long long>(rec.version),
                static_cast<long long>(restored.room->version()));
    return 1;
  }
  print_final(file.string(), *restored.room, pdn);
  return 0;
}

int replay_room(const std::string& room_arg, const Settings& s) {
  const int only_game = s.game;
  const bool pdn = s.pdn;
  auto id = server::normalize_room_id(room_arg);
  if (!id) {
    std::fprintf(stderr, "replay: '%s' is neither a file nor a room id\n", room_arg.c_str());
    return 2;
  }
  const std::string db = s.store.empty() ? (s.data_dir / "bombcheckers.db").string() : s.store;
  std::error_code ec;
  if (s.store.empty() && !fs::is_regular_file(db, ec)) {
    std::fprintf(stderr, "replay: there is no store at %s\n", db.c_str());
    return 2;
  }
  std::string why;
  auto store = store::Store::open(db, why);
  if (!store) {
    std::fprintf(stderr, "replay: %s\n", why.c_str());
    return 2;
  }
  auto current = store->load_room(*id);
  if (!current) {
    std::fprintf(stderr, "replay: room %s is not in %s\n", id->c_str(), store->path().c_str());
    return 2;
  }
  const int last = current->room.game_no;
  if (only_game > last) {
    std::fprintf(stderr, "replay: room %s has %d game(s)\n", id->c_str(), last);
    return 2;
  }
  int status = 0;
  for (int n = only_game > 0 ? only_game : 1; n <= (only_game > 0 ? only_game : last); ++n) {
    auto loaded = store->load_room(*id, n);
    if (!loaded) continue;
    const std::string what = "room " + *id + " game " + std::to_string(n);
    auto image = server::image_of(*loaded, n);
    if (auto* e = std::get_if<server::ReplayError>(&image)) {
      std::printf("%s: FAILED at version %lld: %s\n", what.c_str(),
                  static_cast<long long>(e->version), e->message.c_str());
      status = 1;
      continue;
    }
    auto restored =
        server::restore_room(*id, std::get<server::GameRecord>(image), server::Limits{});
    if (!restored.room) {
      std::printf("%s: FAILED at version %lld: %s\n", what.c_str(),
                  static_cast<long long>(restored.error->version), restored.error->message.c_str());
      status = 1;
      continue;
    }
    print_final(what + (current->room.retired ? " (retired room)" : ""), *restored.room, pdn);
  }
  return status;
}

}  // namespace

int cmd_replay(Args args) {
  const char* cmd = "replay";
  Settings s;
  if (auto done = read_command_flags<Settings>(cmd, kReplayFlags, args, s, usage, set_target))
    return *done;
  if (s.target.empty()) return usage_error(cmd, "needs a record FILE or a ROOM id");
  std::error_code ec;
  if (fs::is_regular_file(s.target, ec)) return replay_file(s.target, s.pdn);
  return replay_room(s.target, s);
}

}  // namespace bc::app
