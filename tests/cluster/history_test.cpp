// The history checker (docs/CLUSTER.md, "The history checker"): in the manner of Jepsen, many
// clients play through HAProxy on three `serve --cluster` nodes, each recording what it sent and
// every state it was told, while a nemesis injects faults on a seeded random schedule (kill -9 and
// restart a node, SIGTERM and restart it, SIGSTOP it longer than a lease and SIGCONT it, restart
// Redis, restart PostgreSQL, stop PostgreSQL for a while). When the faults stop and every game is
// over, a checker reads the final records and holds every history against them:
//   - every acknowledged action is in its game's final record, once, at its version;
//   - no two different actions were acknowledged at one (room, game, version);
//   - every state a client saw is a prefix of the final history (its board is the record's
//     replayed to its version);
//   - no game was lost (each has its record, finished);
//   - every client got its seat back (each rejoin with its token gives the same seat);
//   - clocks charged no one for an outage (a turn costs the mover no more than the time between
//     the state that gave it the turn and its action, as its client measured it, and a margin).
// BC_HISTORY_SEED replays a schedule, BC_HISTORY_SECONDS sets how long the faults go on (default
// 90: the run takes about 2 minutes), BC_HISTORY_DUMP=dir writes each game and every node log
// there; the seed is printed either way. Only 127.0.0.1; every wait is bounded.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "../support/haproxy.hpp"
#include "nodes.hpp"

namespace bc::test {
namespace {

using Ms = std::chrono::milliseconds;

// The clock shared by the clients' records and the nemesis's log: ms since the test began.
const Clock::time_point kEpoch = Clock::now();
double now_ms() {
  return ms_since(kEpoch);
}

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

// ---------------------------------------------------------------------------------------------
// What the clients record.

struct SeenState {
  double at = 0;
  int who = 0;  // 0, 1: the players; 2: the spectator
  std::int64_t game = 0;
  std::int64_t version = 0;
  json board;
  std::string status;
};

// An action the server acknowledged: the sender saw the state of the version it produced.
struct Acked {
  std::int64_t version = 0;  // the version it produced
  json action;
};

// One room's one game, as its three clients saw it.
struct GameHistory {
  int table = 0;
  std::string variant;
  bool clocked = false;
  std::string room;
  std::array<std::string, 2> tokens, seats;
  std::vector<SeenState> seen;
  std::vector<Acked> acked;
  int sent = 0;             // acts sent
  int refused = 0;          // acts answered with an error
  int unknown = 0;          // acts whose connection went before any answer
  int rejoins = 0;          // joins with a token after the first
  double longest_away = 0;  // the longest a player went from losing its connection to `joined`
  double worst_overcharge = -1e9;
  // Turns charged more than the client's own time and the margin: checked against the faults.
  struct Overcharge {
    std::int64_t version = 0;
    double from = 0, to = 0;  // the turn, as its client saw it
    std::string node;         // the node the mover's connection was on
    double charged = 0, took = 0;
  };
  std::vector<Overcharge> overcharges;
  std::map<std::string, int> errors;  // by code (and whether the connection had joined)
  std::vector<std::string> problems;
  bool finished = false;
};

// ---------------------------------------------------------------------------------------------
// One table: two players and a spectator, each on its own connection through the proxy, playing
// games one after another while the faults go on.

struct Conn {
  int who = 0;
  std::unique_ptr<WsClient> ws;
  bool joined = false;
  double connect_at = -1;   // when this connection was opened (for its join's deadline)
  double lost_at = -1;      // when the connection before it went
  json last;                // the last state
  double turn_seen_at = 0;  // when the state that gave the turn arrived (a new version or clock)
  std::optional<std::pair<std::int64_t, json>> pending;  // an act: its version and action
  json pending_from;                                     // the state it was sent at
  double pending_at = 0;
  double pending_turn_seen_at = 0;
  std::string node;  // where the proxy put this connection (welcome's `node`)
  double act_after = 0;
  double retry_after = 0;
  bool done = false;  // saw the game over (players) or gave up waiting for it (spectator)
  double done_at = 0;
};

class Table {
 public:
  Table(int index, std::uint16_t port, std::uint64_t seed, std::atomic<bool>& faults_on,
        double settle_until_ms)
      : index_(index),
        port_(port),
        rng_(seed),
        faults_on_(faults_on),
        settle_until_(settle_until_ms) {}

  void run() {
    static const std::array<const char*, 4> variants = {"bomb", "classic", "triple_king", "kaboom"};
    int n = 0;
    while (faults_on_.load() && now_ms() < settle_until_) {
      GameHistory h;
      h.table = index_;
      h.variant = variants[(index_ + n++) % variants.size()];
      h.clocked = (index_ % 2) == 0;
      if (!open(h)) continue;
      play(h);
      games_.push_back(std::move(h));
    }
  }

  std::vector<GameHistory>& games() { return games_; }
  int failed_opens() const { return failed_opens_; }

 private:
  static constexpr std::int64_t kResignAt = 70;  // a game's length at most, in versions
  static constexpr double kGiveUpMs = 15000;     // a join or an act with no answer: reconnect

  double pause(int lo, int hi) { return lo + static_cast<double>(rng_() % (hi - lo + 1)); }

  // A new room and its two players and spectator; false (and a pause) if the cluster did not let
  // it happen, as during an outage.
  bool open(GameHistory& h) {
    try {
      conns_ = {};
      for (int i = 0; i < 3; ++i) conns_[i].who = i;
      conns_[0].ws = std::make_unique<WsClient>(port_);
      json create = {{"type", "create"}, {"variant", h.variant}, {"seat", "random"}};
      if (h.clocked) create["clock"] = {{"base", 600}, {"increment", 2}};
      conns_[0].ws->send(create);
      json j = conns_[0].ws->expect("joined", Ms(8000));
      h.room = j["room"];
      h.tokens[0] = j["token"];
      h.seats[0] = j["seat"];
      conns_[1].ws = std::make_unique<WsClient>(port_);
      conns_[1].ws->send({{"type", "join"}, {"room", h.room}, {"seat", "any"}});
      json j2 = conns_[1].ws->expect("joined", Ms(8000));
      h.tokens[1] = j2["token"];
      h.seats[1] = j2["seat"];
      for (auto& c : conns_) c.joined = c.who < 2;
      conns_[2].connect_at = now_ms();
      return true;
    } catch (const std::exception&) {
      ++failed_opens_;
      conns_ = {};
      std::this_thread::sleep_for(Ms(300));
      return false;
    }
  }

  void play(GameHistory& h) {
    while (!(conns_[0].done && conns_[1].done && conns_[2].done)) {
      const double now = now_ms();
      // Past the end of the settling time a game still on is a finding.
      if (now > settle_until_) {
        std::string how;
        for (const auto& c : conns_) {
          how += " [" + std::to_string(c.who) + (c.ws ? " connected" : " away") +
                 (c.joined ? " joined" : "") + " v" +
                 (c.last.is_null() ? "-" : c.last["version"].dump()) + "]";
        }
        for (const auto& [code, n] : h.errors) how += " " + code + "x" + std::to_string(n);
        h.problems.push_back("not over " + std::to_string(static_cast<int>(settle_until_ / 1000)) +
                             " s into the run (faults stopped long before):" + how);
        break;
      }
      bool idle = true;
      for (auto& c : conns_) {
        if (c.done) continue;
        try {
          idle = step(h, c) && idle;
        } catch (const std::exception& e) {  // a write that timed out: as a lost connection
          drop(h, c, e.what());
        }
      }
      if (conns_[0].done && conns_[1].done && !conns_[2].done &&
          now_ms() - std::max(conns_[0].done_at, conns_[1].done_at) > 5000) {
        conns_[2].done = true;  // the spectator may have missed the end while reconnecting
      }
      (void)idle;
    }
    h.finished = conns_[0].done && conns_[1].done && h.problems.empty();
    conns_ = {};
  }

  void drop(GameHistory& h, Conn& c, const std::string& why) {
    (void)why;
    if (c.pending) ++h.unknown;
    c.pending.reset();
    c.ws.reset();
    c.joined = false;
    if (c.lost_at < 0) c.lost_at = now_ms();
    c.retry_after = now_ms() + pause(50, 400);
  }

  // One look at a connection: false if anything happened.
  bool step(GameHistory& h, Conn& c) {
    const double now = now_ms();
    if (!c.ws) {
      if (now < c.retry_after) return true;
      c.ws = std::make_unique<WsClient>(port_);  // throws if the proxy's node does not answer
      c.connect_at = now_ms();
      c.joined = false;
    }
    if (!c.joined && c.connect_at >= 0) {  // a new connection: join first
      json join = {{"type", "join"}, {"room", h.room}};
      if (c.who < 2) join["token"] = h.tokens[c.who];
      c.ws->send(join);
      c.connect_at = -1;
      c.pending_at = now;  // the join's deadline
    }
    bool busy = false;
    while (auto m = c.ws->recv(Ms(1))) {
      busy = true;
      on_message(h, c, *m);
      if (!c.ws) return false;
    }
    if (c.ws->closed()) {
      drop(h, c, "closed");
      return false;
    }
    if (!c.joined && now_ms() - c.pending_at > kGiveUpMs) {
      char when[96];
      std::snprintf(when, sizeof when, " (%s, sent at %.1f s)",
                    c.who < 2 ? (c.who == 0 ? "first seat" : "second seat") : "spectator",
                    c.pending_at / 1000);
      h.problems.push_back("a join had no answer for " +
                           std::to_string(static_cast<int>(kGiveUpMs)) + " ms" + when);
      drop(h, c, "no joined");
      return false;
    }
    if (c.pending && now_ms() - c.pending_at > kGiveUpMs) {
      // Every fault of the schedule ends within seconds: a request is answered, or its
      // connection closed, well within this.
      h.problems.push_back("an act at version " + std::to_string(c.pending->first) +
                           " had no answer for " + std::to_string(static_cast<int>(kGiveUpMs)) +
                           " ms on a connection still open");
      drop(h, c, "no answer");
      return false;
    }
    if (c.who == 2 || !c.joined || c.pending || c.last.is_null()) return !busy;
    if (c.last["status"] != "playing" || c.last["turn"] != h.seats[c.who]) return !busy;
    if (now_ms() < c.act_after) return !busy;
    const std::int64_t v = c.last["version"];
    json msg = {{"type", "act"}, {"version", v}, {"id", "v" + std::to_string(v)}};
    json action;
    if (v >= kResignAt) {
      msg = {{"type", "resign"}, {"id", "resign"}};
    } else {
      const auto& legal = c.last["legal"];
      if (legal.empty()) return !busy;
      action = legal[rng_() % legal.size()];
      msg["action"] = action;
      ++h.sent;
    }
    c.pending = {v, action};
    c.pending_from = c.last;
    c.pending_at = now_ms();
    c.pending_turn_seen_at = c.turn_seen_at;
    c.ws->send(msg);
    return false;
  }

  void on_message(GameHistory& h, Conn& c, const json& m) {
    const std::string type = m.value("type", "");
    if (type == "welcome") {
      c.node = m.value("node", "");
      return;
    }
    if (type == "joined") {
      if (c.joined) return;
      c.joined = true;
      if (c.who < 2) {
        if (m.value("seat", "") != h.seats[c.who]) {
          h.problems.push_back("player " + std::to_string(c.who) + " rejoined as " +
                               m.value("seat", "?") + ", not " + h.seats[c.who]);
        }
        ++h.rejoins;
      }
      if (c.lost_at >= 0 && c.who < 2)
        h.longest_away = std::max(h.longest_away, now_ms() - c.lost_at);
      c.lost_at = -1;
      return;
    }
    if (type == "error") {
      ++h.errors[(c.joined ? "" : "join ") + m.value("code", "")];
      if (!c.joined) {  // refused join (the room is moving, the store is away): try again
        if (m.value("code", "") == "unknown_room" && c.who == 2) {
          c.done = true;  // a spectator of a room that ended and was swept
          return;
        }
        drop(h, c, "join refused");
        return;
      }
      if (c.pending && m.value("id", "") != "") {
        ++h.refused;
        c.pending.reset();
        c.act_after = now_ms() + pause(50, 200);
      }
      return;
    }
    if (type != "state") return;
    if (m.value("room", "") != h.room) {  // another room's state on this connection
      h.problems.push_back((c.who == 2 ? "the spectator" : "player " + std::to_string(c.who)) +
                           " was sent a state of room " + m.value("room", "?") + " at " +
                           std::to_string(static_cast<int>(now_ms())) + " ms");
      return;
    }
    const std::int64_t version = m["version"];
    SeenState s{now_ms(), c.who,      m.value("game", std::int64_t{1}),
                version,  m["board"], m.value("status", "")};
    h.seen.push_back(s);
    const bool new_turn = c.last.is_null() || c.last["version"] != m["version"] ||
                          c.last.value("clock", json()) != m.value("clock", json());
    if (new_turn) {
      c.turn_seen_at = now_ms();
      c.act_after = now_ms() + pause(20, 150);
    }
    if (c.pending && c.pending->second.is_null() && s.status == "finished") c.pending.reset();
    // Acknowledged: the next version, made by this action (not by an earlier act of this player
    // whose answer was lost with a connection, applied late: this one is then refused after).
    const json& last = m.value("last", json());
    const bool mine = c.pending && !c.pending->second.is_null() && last.is_object() &&
                      last.value("side", "") == h.seats[c.who] && last.contains("actions") &&
                      !last["actions"].empty() && last["actions"].back() == c.pending->second;
    if (c.pending && version == c.pending->first + 1 && mine) {
      h.acked.push_back({version, c.pending->second});
      check_clock(h, c, m);
      c.pending.reset();
    }
    c.last = m;
    if (s.status == "finished") {
      c.done = true;
      c.done_at = now_ms();
    }
  }

  // The mover's charge for the turn it just ended against the time its client took.
  void check_clock(GameHistory& h, const Conn& c, const json& after) {
    const json& before = c.pending_from;
    if (!h.clocked || !before.contains("clock") || before["clock"].is_null()) return;
    const std::string& me = h.seats[c.who];
    if (before["clock"].value("running", json()) != me) return;
    const std::int64_t left_before = before["clock"]["left"][me];
    const std::int64_t left_after = after["clock"]["left"][me];
    const bool turn_ended = after["turn"] != me;
    const double charged = static_cast<double>(left_before - left_after) + (turn_ended ? 2000 : 0);
    const double took = c.pending_at - c.pending_turn_seen_at;
    const double over = charged - took;
    h.worst_overcharge = std::max(h.worst_overcharge, over);
    // The server charges from sending the state to the action's arrival: both ways of the
    // network and the proxy. An outage (a lease at least) is far above this margin.
    if (over > 1500) {
      h.overcharges.push_back({after["version"].get<std::int64_t>(), c.pending_turn_seen_at,
                               c.pending_at, c.node, charged, took});
    }
  }

  int index_;
  std::uint16_t port_;
  std::mt19937_64 rng_;
  std::atomic<bool>& faults_on_;
  double settle_until_;
  std::array<Conn, 3> conns_{};
  std::vector<GameHistory> games_;
  int failed_opens_ = 0;
};

// ---------------------------------------------------------------------------------------------
// The checker.

// The board after the first `version` actions of a final record (by replaying it as a restart
// does, independently of the nodes).
class Replayer {
 public:
  explicit Replayer(server::GameRecord rec) : rec_(std::move(rec)) {}
  std::optional<json> board(std::int64_t version) {
    if (version < 0 || version > static_cast<std::int64_t>(rec_.actions.size())) return {};
    if (auto it = boards_.find(version); it != boards_.end()) return it->second;
    server::GameRecord cut = rec_;
    cut.actions.resize(static_cast<std::size_t>(version));
    cut.result.reset();
    cut.ended_ms = 0;
    cut.version = -1;
    cut.clock_left.reset();
    cut.takebacks.clear();
    auto r = server::restore_room(rec_.room, cut, server::Limits{});
    if (!r.room) return {};
    json b = json::parse(r.room->state_text())["board"];
    boards_.emplace(version, b);
    return b;
  }

 private:
  server::GameRecord rec_;
  std::map<std::int64_t, json> boards_;
};

std::optional<json> final_record(std::uint16_t port, const std::string& room) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    try {
      auto r = http_get(port, "/api/games/" + room);
      if (r.status == 200) return json::parse(r.body);
      if (r.status == 404) return std::nullopt;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(Ms(250));
  }
  return std::nullopt;
}

// A game's history and its final record, for whoever reads a finding (BC_HISTORY_DUMP=dir).
void dump(const GameHistory& h, const std::optional<json>& rec) {
  const char* dir = std::getenv("BC_HISTORY_DUMP");
  if (dir == nullptr || *dir == '\0') return;
  json seen = json::array();
  for (const auto& s : h.seen)
    seen.push_back({{"at", s.at},
                    {"who", s.who},
                    {"game", s.game},
                    {"version", s.version},
                    {"status", s.status},
                    {"board", s.board}});
  json acked = json::array();
  for (const auto& a : h.acked) acked.push_back({{"version", a.version}, {"action", a.action}});
  json out = {{"room", h.room}, {"seats", h.seats}, {"problems", h.problems},
              {"seen", seen},   {"acked", acked},   {"record", rec ? *rec : json()}};
  std::ofstream(fs::path(dir) / (h.room + ".json")) << out.dump(1) << "\n";
}

// The problems of one game's history against its final record.
std::vector<std::string> check(std::uint16_t port, const GameHistory& h) {
  std::vector<std::string> out = h.problems;
  auto rec = final_record(port, h.room);
  dump(h, rec);
  if (!rec) {
    out.push_back("the game is lost: no record");
    return out;
  }
  if (rec->value("status", "") != "finished") out.push_back("the record is not finished");
  auto parsed = server::parse_record_json(rec->dump());
  if (!std::holds_alternative<server::GameRecord>(parsed)) {
    out.push_back("the record does not parse: " + std::get<std::string>(parsed));
    return out;
  }
  const auto& actions = (*rec)["actions"];
  // Acknowledged actions: in the record at their versions; never two at one version.
  std::map<std::int64_t, json> by_version;
  for (const auto& a : h.acked) {
    auto [it, fresh] = by_version.emplace(a.version, a.action);
    if (!fresh && it->second != a.action)
      out.push_back("two actions acknowledged at version " + std::to_string(a.version));
    const auto at = static_cast<std::size_t>(a.version - 1);
    if (a.version < 1 || at >= actions.size()) {
      out.push_back("acknowledged version " + std::to_string(a.version) + " is not in the record");
    } else if (actions[at]["version"] != a.version || actions[at]["action"] != a.action) {
      out.push_back("the record's version " + std::to_string(a.version) +
                    " is not the acknowledged action");
    }
  }
  // Every state seen is the record replayed to its version.
  Replayer replay(std::get<server::GameRecord>(std::move(parsed)));
  std::set<std::int64_t> bad;
  for (const auto& s : h.seen) {
    if (s.game != (*rec).value("game", 1) || bad.count(s.version)) continue;
    auto b = replay.board(s.version);
    if (!b || *b != s.board) {
      bad.insert(s.version);
      // What else the clients saw around it, and what the record has there.
      std::string around;
      for (const auto& o : h.seen) {
        if (o.game != s.game || o.version < s.version - 2 || o.version > s.version + 2) continue;
        char line[96];
        std::snprintf(line, sizeof line, "; %s v%lld %s at %.0f",
                      o.who == 2   ? "spectator"
                      : o.who == 0 ? "p0"
                                   : "p1",
                      static_cast<long long>(o.version), o.status.c_str(), o.at);
        around += line;
      }
      const auto at = static_cast<std::size_t>(s.version - 1);
      const std::string recorded =
          s.version >= 1 && at < actions.size() ? actions[at].dump() : std::string("none");
      out.push_back(
          (s.who == 2 ? "the spectator" : "player " + std::to_string(s.who)) + " saw a version " +
          std::to_string(s.version) + " that is not the final history's, at " +
          std::to_string(static_cast<int>(s.at)) + " ms (" + std::to_string(s.board.size()) +
          " pieces shown; the record's action there: " + recorded + "; states seen near it" +
          around + ")");
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The nemesis.

struct Cluster {
  TempDir dir;
  std::string url;
  RedisServer* redis = nullptr;
  Postgres* pg = nullptr;
  std::vector<std::string> open;
  std::array<std::uint16_t, 3> ports{};
  std::array<Server, 3> nodes;
  std::mutex mu;                    // nodes' processes: the nemesis replaces, the drainer reads
  std::array<std::string, 3> logs;  // the logs of each node's earlier runs

  void start_node(int i) {
    auto args = open;
    args.push_back("--port");
    args.push_back(std::to_string(ports[i]));
    Server s = node(dir, url, *redis, std::string(1, static_cast<char>('a' + i)), args);
    std::lock_guard lock(mu);
    if (nodes[i].proc) {
      nodes[i].proc->drain_stderr();
      logs[i] += nodes[i].proc->stderr_text() + "---- restarted\n";
    }
    nodes[i] = std::move(s);
  }
  // Signals node i and waits for it to exit; its exit status.
  int stop_node(int i, int sig, std::chrono::milliseconds limit) {
    std::lock_guard lock(mu);
    nodes[i].proc->signal(sig);
    return nodes[i].proc->wait(limit);
  }
  void drain() {
    std::lock_guard lock(mu);
    for (auto& n : nodes)
      if (n.proc) n.proc->drain_stderr();
  }
  // The nodes' log lines that name `room` (at most `max` of each node's), for a finding's
  // print-out: CI keeps no dump.
  std::string room_log(const std::string& room, std::size_t max = 30) {
    std::lock_guard lock(mu);
    std::string out;
    for (int i = 0; i < 3; ++i) {
      if (nodes[i].proc) nodes[i].proc->drain_stderr();
      std::istringstream all(logs[i] + (nodes[i].proc ? nodes[i].proc->stderr_text() : ""));
      std::size_t n = 0;
      for (std::string line; std::getline(all, line) && n < max;) {
        if (line.find(room) == std::string::npos &&
            line.find("---- restarted") == std::string::npos)
          continue;
        out += "    node " + std::string(1, static_cast<char>('a' + i)) + ": " + line + "\n";
        ++n;
      }
    }
    return out;
  }
  // Every node's log, for BC_HISTORY_DUMP.
  void write_logs() {
    const char* out = std::getenv("BC_HISTORY_DUMP");
    if (out == nullptr || *out == '\0') return;
    std::lock_guard lock(mu);
    for (int i = 0; i < 3; ++i) {
      std::ofstream(fs::path(out) / ("node-" + std::string(1, static_cast<char>('a' + i)) + ".log"))
          << logs[i] << (nodes[i].proc ? nodes[i].proc->stderr_text() : "");
    }
  }
};

struct Fault {
  double at = 0;
  std::string what;
  // A SIGSTOP: the node, and when it stopped and went on.
  std::string paused;
  double paused_from = 0, paused_to = 0;
};

// One fault of kind `kind` (0-5), carried out (and undone) whole; what it was.
std::string inject(Cluster& c, std::mt19937_64& rng, int kind, int lease_ms, Fault& f) {
  auto sleep_ms = [](double ms) { std::this_thread::sleep_for(Ms(static_cast<int>(ms))); };
  auto between = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const int i = between(0, 2);
  const std::string name(1, static_cast<char>('a' + i));
  switch (kind) {
    case 0: {
      c.stop_node(i, SIGKILL, 10s);
      const int down = between(300, 3000);
      sleep_ms(down);
      c.start_node(i);
      return "kill -9 node " + name + ", started again after " + std::to_string(down) + " ms";
    }
    case 1: {
      const int rc = c.stop_node(i, SIGTERM, 15s);
      const int down = between(300, 2000);
      sleep_ms(down);
      c.start_node(i);
      return "SIGTERM node " + name + " (exit " + std::to_string(rc) + "), started again after " +
             std::to_string(down) + " ms";
    }
    case 2: {
      const int pause = lease_ms + between(300, 2500);
      f.paused = name;
      f.paused_from = now_ms();
      c.nodes[i].proc->signal(SIGSTOP);
      sleep_ms(pause);
      c.nodes[i].proc->signal(SIGCONT);
      f.paused_to = now_ms();
      return "SIGSTOP node " + name + " for " + std::to_string(pause) + " ms";
    }
    case 3:
      c.redis->restart();
      return "Redis restarted (empty)";
    case 4:
      c.pg->restart(SIGINT);
      return "PostgreSQL restarted";
    default: {
      const int down = between(1000, 5000);
      c.pg->stop(SIGINT);
      sleep_ms(down);
      c.pg->start();
      return "PostgreSQL stopped for " + std::to_string(down) + " ms";
    }
  }
}

TEST(HistoryChecker, GamesUnderASeededNemesisLoseNothingAndEveryHistoryIsAPrefixOfItsRecord) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  const std::uint64_t seed = env_number("BC_HISTORY_SEED", std::random_device{}());
  const double fault_seconds = static_cast<double>(env_number("BC_HISTORY_SECONDS", 90));
  std::printf(
      "history checker: seed %llu, faults for %.0f s (BC_HISTORY_SEED=%llu replays the "
      "schedule)\n",
      static_cast<unsigned long long>(seed), fault_seconds, static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  constexpr int kLeaseMs = 2000;
  Cluster c;
  c.url = pg->new_database();
  c.redis = &redis;
  c.pg = pg;
  c.open = {"--trusted-proxy",
            "127.0.0.1",
            "--max-joins-per-address",
            "0",
            "--max-creates-per-address",
            "0",
            "--lease-ms",
            std::to_string(kLeaseMs)};
  for (int i = 0; i < 3; ++i) c.ports[i] = free_loopback_port();
  for (int i = 0; i < 3; ++i) c.start_node(i);
  BC_NEED_HAPROXY(proxy, c.ports);
  ASSERT_TRUE(proxy.wait_up(3, 10s)) << proxy.log();
  const std::uint16_t port = proxy.port();

  std::atomic<bool> faults_on{true};
  const double settle_until = now_ms() + fault_seconds * 1000 + 60000;
  constexpr int kTables = 8;
  std::vector<std::unique_ptr<Table>> tables;
  std::vector<std::thread> threads;
  for (int t = 0; t < kTables; ++t) {
    tables.push_back(std::make_unique<Table>(t, port, seed * 31 + t, faults_on, settle_until));
  }
  for (auto& t : tables) threads.emplace_back([&t] { t->run(); });
  std::atomic<bool> draining{true};
  std::thread drainer([&] {
    while (draining) {
      c.drain();
      std::this_thread::sleep_for(100ms);
    }
  });

  // The schedule: a fault every 3-8 s once the games are going, one at a time; the six kinds
  // dealt from a shuffled deck, so that every run of six faults or more has each.
  std::mt19937_64 rng(seed);
  std::vector<Fault> faults;
  std::vector<int> deck;
  const double faults_end = now_ms() + fault_seconds * 1000;
  std::this_thread::sleep_for(3s);
  while (now_ms() < faults_end) {
    if (deck.empty()) {
      deck = {0, 1, 2, 3, 4, 5};
      std::shuffle(deck.begin(), deck.end(), rng);
    }
    const int kind = deck.back();
    deck.pop_back();
    const double at = now_ms();
    Fault f;
    f.at = at;
    f.what = inject(c, rng, kind, kLeaseMs, f);
    faults.push_back(f);
    std::printf("  %6.1f s  %s\n", at / 1000, faults.back().what.c_str());
    std::fflush(stdout);
    std::this_thread::sleep_for(Ms(3000 + static_cast<int>(rng() % 5000)));
  }
  faults_on = false;
  for (auto& th : threads) th.join();
  draining = false;
  drainer.join();

  // The checker.
  int games = 0, finished = 0, acked = 0, sent = 0, refused = 0, unknown = 0, rejoins = 0,
      states = 0, failed_opens = 0;
  double longest_away = 0, worst_overcharge = -1e9;
  int late_on_hung_node = 0, up_to_a_lease = 0;
  std::vector<std::string> findings;
  std::map<std::string, int> errors;
  for (auto& t : tables) {
    failed_opens += t->failed_opens();
    for (const auto& h : t->games()) {
      ++games;
      finished += h.finished;
      acked += static_cast<int>(h.acked.size());
      sent += h.sent;
      refused += h.refused;
      unknown += h.unknown;
      rejoins += h.rejoins;
      states += static_cast<int>(h.seen.size());
      longest_away = std::max(longest_away, h.longest_away);
      worst_overcharge = std::max(worst_overcharge, h.worst_overcharge);
      for (const auto& [code, n] : h.errors) errors[code] += n;
      // A turn charged more than its client's time: an outage charged to the mover, unless its
      // connection's node was stopped meanwhile for less than the others need to notice (a
      // lease and a renewal): its messages were then late as on a slow network, and no node
      // can tell that from a slow network. Those are printed, not findings (docs/CLUSTER.md).
      for (const auto& o : h.overcharges) {
        std::string text = "version " + std::to_string(o.version) + ": charged " +
                           std::to_string(static_cast<int>(o.charged)) +
                           " ms for a turn its client took " +
                           std::to_string(static_cast<int>(o.took)) + " ms over, on node " + o.node;
        const bool hung = std::any_of(faults.begin(), faults.end(), [&](const Fault& f) {
          return !f.paused.empty() && f.paused == o.node && f.paused_from < o.to &&
                 o.from < f.paused_to && o.charged - o.took <= f.paused_to - f.paused_from + 1500;
        });
        if (hung) {
          ++late_on_hung_node;
          std::printf("  late behind a stopped node (not a finding): room %s, %s\n", h.room.c_str(),
                      text.c_str());
        } else if (o.charged - o.took <= kLeaseMs + 1500) {
          // Open (docs/CLUSTER.md, "Not done yet"): about a lease charged now and then, cause
          // not found yet. Printed and counted; a finding above a lease.
          ++up_to_a_lease;
          std::printf("  OPEN charged up to a lease: room %s, %s\n", h.room.c_str(), text.c_str());
        } else {
          findings.push_back("table " + std::to_string(h.table) + ", room " + h.room + " (" +
                             h.variant + "): " + text);
        }
      }
      for (const auto& p : check(port, h))
        findings.push_back("table " + std::to_string(h.table) + ", room " + h.room + " (" +
                           h.variant + "): " + p);
    }
  }
  std::printf(
      "%zu faults; %d games (%d finished), %d acts sent, %d acknowledged, %d refused, %d with no "
      "answer (connection lost); %d states seen; %d rejoins with a token, the longest time "
      "away %.0f ms; clocks: the worst charge over the client's own time %.0f ms; %d rooms not "
      "opened (outages)\n",
      faults.size(), games, finished, sent, acked, refused, unknown, states, rejoins, longest_away,
      worst_overcharge, failed_opens);
  std::printf(
      "clock charges over the client's own time and 1.5 s: %d behind a stopped node, %d "
      "up to a lease otherwise (open)\n",
      late_on_hung_node, up_to_a_lease);
  std::string error_text;
  for (const auto& [code, n] : errors) error_text += " " + code + " " + std::to_string(n);
  std::printf("errors the clients were sent:%s\n",
              error_text.empty() ? " none" : error_text.c_str());
  for (const auto& f : findings) std::printf("  FINDING %s\n", f.c_str());
  // What the nodes said of each room with a finding (and their restarts), for the reader of CI's
  // output.
  std::set<std::string> told;
  for (const auto& f : findings) {
    const auto at = f.find(", room ");
    if (at == std::string::npos) continue;
    const std::string room = f.substr(at + 7, 6);
    if (told.insert(room).second)
      std::printf("  the nodes' log of room %s:\n%s", room.c_str(), c.room_log(room).c_str());
  }
  EXPECT_TRUE(findings.empty()) << findings.size() << " findings; seed " << seed;
  EXPECT_GE(games, kTables) << "every table played";
  EXPECT_GT(acked, 200) << "the clients played through the faults";
  // The nodes stop cleanly; one that does not shows the end of its log (a sanitizer's report).
  for (auto& n : c.nodes) {
    n.proc->signal(SIGTERM);
    const int status = n.proc->wait(15s);
    n.proc->drain_stderr();
    // A sanitizer's report from its start (what leaked or broke comes first), else the log's end.
    const std::string& log = n.proc->stderr_text();
    const auto report = log.find("==ERROR: ");
    const std::string shown = report != std::string::npos
                                  ? log.substr(log.rfind('\n', report) + 1, 12000)
                                  : log.substr(log.size() > 12000 ? log.size() - 12000 : 0);
    EXPECT_EQ(status, 0) << "its log:\n" << shown;
  }
  c.write_logs();
}

}  // namespace
}  // namespace bc::test
