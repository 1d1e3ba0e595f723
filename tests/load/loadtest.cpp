// bc_loadtest: a load generator that plays real games over the wire protocol (docs/PROTOCOL.md)
// against a server on 127.0.0.1, or measures closed-loop round trips against bc_echo_server
// (--echo) with the same connection counts. The only translation unit of the tool, so Beast is
// compiled once. Shards (--threads) each own an io_context and a slice of the games; nothing is
// shared between them but a few atomics, and their statistics are merged at the end.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;
using namespace std::chrono_literals;

// ---------------------------------------------------------------------------------------------
// Options

struct Options {
  std::uint16_t port = 0;
  int games = 2;
  int spectators = 0;  // per game
  double duration = 10;
  long long max_actions = 0;  // 0: no limit
  bool rate_mode = false;
  double rate = 1000;  // actions per second, all games together (rate mode)
  std::string variant = "bomb";
  std::uint64_t seed = 1;
  double think_ms = 0;  // closed mode: mean randomized pause before each action
  int threads = 1;
  bool json_out = false;
  long server_pid = 0;
  bool echo = false;
  int echo_bytes = 100;
  bool pace = true;         // stay inside the server's per-connection rate limit (welcome.limits)
  bool check_scan = false;  // also fully parse every message and compare with the fast scan
  int compact = 0;          // `/ws?compact=N`: 1 deltas after the first state, 2 also short actions
  int connect_parallel = 200;
  double setup_timeout = 120;
};

[[noreturn]] void usage(const std::string& error) {
  if (!error.empty()) std::fprintf(stderr, "bc_loadtest: %s\n\n", error.c_str());
  std::fprintf(
      error.empty() ? stdout : stderr,
      "usage: bc_loadtest --port P [options]\n"
      "  --host 127.0.0.1      the only host accepted (loopback only)\n"
      "  --port P              the server's port (required)\n"
      "  --games N             concurrent games, two player connections each (default 2)\n"
      "  --spectators S        spectator connections per game (default 0)\n"
      "  --duration SEC        measured time (default 10)\n"
      "  --max-actions M       stop after M actions (default: no limit)\n"
      "  --mode closed|rate    closed loop (default) or a fixed total offered rate\n"
      "  --rate R              rate mode: actions per second over all games (Poisson)\n"
      "  --think-ms T          closed mode: randomized pause (0.5T..1.5T) before each action\n"
      "  --variant V           bomb (default), classic, triple_king, kaboom\n"
      "  --seed X              random seed (default 1)\n"
      "  --threads N           client threads, each with its own io_context (default 1)\n"
      "  --server-pid PID      report the server's VmRSS and CPU from /proc/PID\n"
      "  --echo                measure round trips against bc_echo_server instead\n"
      "  --echo-bytes B        echo payload size (default 100)\n"
      "  --no-pace             do not keep to the server's rate limit (expect rate_limited)\n"
      "  --check-scan          fully parse every message to check the fast field scan\n"
      "  --compact             ask for compact states: a delta per change after the first,\n"
      "                        actions written short (compact=2, what the web page asks for)\n"
      "  --compact-objects     the same with actions as objects (compact=1)\n"
      "  --connect-parallel K  handshakes in flight (default 200)\n"
      "  --json                print one JSON object instead of the table\n"
      "Exit status: 0 a clean run, 1 errors were seen, 2 bad usage.\n");
  std::exit(error.empty() ? 0 : 2);
}

template <class T>
T parse_num(std::string_view name, std::string_view s, T lo, T hi) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
    usage(std::string(name) + ": bad value '" + std::string(s) + "'");
  return v;
}

double parse_double(std::string_view name, const std::string& s, double lo, double hi) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !(v >= lo && v <= hi))
    usage(std::string(name) + ": bad value '" + s + "'");
  return v;
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool have_port = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h")
      usage("");
    else if (a == "--host") {
      const std::string h = value();
      if (h != "127.0.0.1")
        usage("--host " + h +
              ": only 127.0.0.1 is allowed (the load tool never leaves this machine)");
    } else if (a == "--port") {
      o.port = parse_num<std::uint16_t>(a, value(), 1, 65535);
      have_port = true;
    } else if (a == "--games")
      o.games = parse_num<int>(a, value(), 1, 100000);
    else if (a == "--spectators")
      o.spectators = parse_num<int>(a, value(), 0, 100);
    else if (a == "--duration")
      o.duration = parse_double(a, value(), 0.1, 86400);
    else if (a == "--max-actions")
      o.max_actions = parse_num<long long>(a, value(), 0, 1LL << 50);
    else if (a == "--mode") {
      const std::string m = value();
      if (m != "closed" && m != "rate") usage("--mode must be closed or rate");
      o.rate_mode = m == "rate";
    } else if (a == "--rate")
      o.rate = parse_double(a, value(), 0.001, 1e7);
    else if (a == "--think-ms")
      o.think_ms = parse_double(a, value(), 0, 600000);
    else if (a == "--variant")
      o.variant = value();
    else if (a == "--seed")
      o.seed = parse_num<std::uint64_t>(a, value(), 0, ~0ULL);
    else if (a == "--threads")
      o.threads = parse_num<int>(a, value(), 1, 64);
    else if (a == "--server-pid")
      o.server_pid = parse_num<long>(a, value(), 1, 1L << 30);
    else if (a == "--echo")
      o.echo = true;
    else if (a == "--echo-bytes")
      o.echo_bytes = parse_num<int>(a, value(), 16, 60000);
    else if (a == "--no-pace")
      o.pace = false;
    else if (a == "--check-scan")
      o.check_scan = true;
    else if (a == "--compact")
      o.compact = 2;
    else if (a == "--compact-objects")
      o.compact = 1;
    else if (a == "--connect-parallel")
      o.connect_parallel = parse_num<int>(a, value(), 1, 10000);
    else if (a == "--json")
      o.json_out = true;
    else
      usage("unknown option " + a);
  }
  if (!have_port) usage("--port is required");
  if (o.threads > o.games) o.threads = o.games;
  return o;
}

// ---------------------------------------------------------------------------------------------
// A fast look at the top level of one JSON object: a few scalar fields and the raw text of
// `legal`, without building a tree (the load tool must stay cheap next to the server it measures).

struct Scan {
  bool ok = false;
  std::string_view type, status, turn, legal;
  long long version = -1, game = -1;
  std::string_view set;                         // a delta's changed fields (an object)
  long long base_game = -1, base_version = -1;  // the state a delta applies to
};

// A position in a JSON text and the few steps the scans take: skip blanks, read a string's raw
// contents, skip a whole value. Nothing is copied or unescaped.
struct Cursor {
  std::string_view s;
  std::size_t i = 0;

  bool at_end() const { return i >= s.size(); }
  char peek() const { return s[i]; }
  void skip_ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  bool read_string(std::string_view& out) {  // at '"'
    const std::size_t start = ++i;
    while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
    if (i >= s.size()) return false;
    out = s.substr(start, i - start);
    ++i;
    return true;
  }
  bool skip_value() {
    if (i >= s.size()) return false;
    std::string_view dummy;
    if (s[i] == '"') return read_string(dummy);
    if (s[i] == '{' || s[i] == '[') {
      int depth = 0;
      while (i < s.size()) {
        const char c = s[i];
        if (c == '"') {
          if (!read_string(dummy)) return false;
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) {
          ++i;
          return true;
        }
        ++i;
      }
      return false;
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']') ++i;  // number, literal
    return true;
  }
  // Past a container's opening `open` (after blanks); false if the text does not start with it.
  bool enter(char open) {
    skip_ws();
    if (at_end() || s[i] != open) return false;
    ++i;
    return true;
  }
  // To a container's next member or item, past blanks and commas: More, one follows; Closed, its
  // `close` was reached and passed; Broken, the text ended first.
  enum class Next { More, Closed, Broken };
  Next next(char close) {
    while (true) {
      skip_ws();
      if (at_end()) return Next::Broken;
      if (s[i] == ',') {
        ++i;
        continue;
      }
      if (s[i] != close) return Next::More;
      ++i;
      return Next::Closed;
    }
  }
};

Scan scan_top(std::string_view text) {
  Scan r;
  Cursor c{text};
  const std::string_view s = text;
  const std::size_t n = s.size();
  if (!c.enter('{')) return r;
  while (true) {
    if (const auto next = c.next('}'); next != Cursor::Next::More) {
      r.ok = next == Cursor::Next::Closed;
      return r;
    }
    if (c.peek() != '"') return r;
    std::string_view key;
    if (!c.read_string(key)) return r;
    c.skip_ws();
    if (c.at_end() || c.peek() != ':') return r;
    ++c.i;
    c.skip_ws();
    if (c.at_end()) return r;
    if ((key == "version" || key == "game") && c.peek() != 'n') {
      long long v = 0;
      auto [p, ec] = std::from_chars(s.data() + c.i, s.data() + n, v);
      if (ec != std::errc()) return r;
      c.i = static_cast<std::size_t>(p - s.data());
      (key == "version" ? r.version : r.game) = v;
    } else if ((key == "type" || key == "status" || key == "turn") && c.peek() == '"') {
      if (!c.read_string(key == "type" ? r.type : key == "status" ? r.status : r.turn)) return r;
    } else if (key == "legal" || key == "set") {
      const std::size_t start = c.i;
      if (!c.skip_value()) return r;
      (key == "legal" ? r.legal : r.set) = s.substr(start, c.i - start);
    } else if (key == "base" && c.peek() == '[') {
      auto [p1, e1] = std::from_chars(s.data() + c.i + 1, s.data() + n, r.base_game);
      if (e1 != std::errc() || p1 >= s.data() + n || *p1 != ',') return r;
      auto [p2, e2] = std::from_chars(p1 + 1, s.data() + n, r.base_version);
      if (e2 != std::errc() || p2 >= s.data() + n || *p2 != ']') return r;
      c.i = static_cast<std::size_t>(p2 + 1 - s.data());
    } else if (!c.skip_value()) {
      return r;
    }
  }
}

// The raw texts of a JSON array's items (appended to `out`); false if `text` is not an array.
bool array_items(std::string_view text, std::vector<std::string_view>& out) {
  Cursor c{text};
  if (!c.enter('[')) return false;
  while (true) {
    if (const auto next = c.next(']'); next != Cursor::Next::More)
      return next == Cursor::Next::Closed;
    const std::size_t start = c.i;
    if (!c.skip_value()) return false;
    out.push_back(text.substr(start, c.i - start));
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics of one shard; merged at the end.

struct Stats {
  std::uint64_t actions_sent = 0, actions_accepted = 0, games_started = 0, games_finished = 0;
  std::uint64_t paced = 0, late = 0, round_trips = 0, messages = 0, connect_failures = 0;
  std::uint64_t states = 0, state_bytes = 0, deltas = 0;  // state and delta messages received
  std::vector<std::uint32_t> lat_mover, lat_others;       // microseconds
  std::map<std::string, std::uint64_t> errors;

  void error(const std::string& code) { ++errors[code]; }
  void merge(Stats&& o) {
    actions_sent += o.actions_sent;
    actions_accepted += o.actions_accepted;
    games_started += o.games_started;
    games_finished += o.games_finished;
    paced += o.paced;
    late += o.late;
    round_trips += o.round_trips;
    messages += o.messages;
    connect_failures += o.connect_failures;
    states += o.states;
    state_bytes += o.state_bytes;
    deltas += o.deltas;
    lat_mover.insert(lat_mover.end(), o.lat_mover.begin(), o.lat_mover.end());
    lat_others.insert(lat_others.end(), o.lat_others.begin(), o.lat_others.end());
    for (auto& [k, v] : o.errors) errors[k] += v;
  }
};

struct Control {
  std::atomic<int> connected{0}, connect_done{0}, ready_games{0}, drained{0}, closed{0};
  std::atomic<long long> reserved_actions{0};
  std::atomic<bool> stop_requested{false};
};

std::uint32_t micros(Clock::duration d) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  return static_cast<std::uint32_t>(std::clamp<long long>(us, 0, 0xFFFFFFFFLL));
}

class Shard;
struct Game;

// ---------------------------------------------------------------------------------------------
// One WebSocket connection: a read loop, one write in flight, and an optional token bucket that
// keeps the client inside the server's per-connection rate limit.

struct Out {
  std::string text;
  long long act_game = -1, act_version = -1;  // an `act` chosen from this state
};

class Conn : public std::enable_shared_from_this<Conn> {
 public:
  Conn(Shard& shard, Game& game, int member, net::io_context& ioc)
      : shard_(shard), game_(game), member_(member), ws_(ioc), pace_timer_(ioc) {}

  void start();
  void send(Out out);
  void close();
  void force_close() {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().close(ec);
  }
  void set_limits(double rate, double burst) {
    rate_ = rate;
    burst_ = burst;
    tokens_ = burst;
    refilled_ = Clock::now();
  }
  void clear_paced() {
    paced_.clear();
    pace_timer_.cancel();
  }

  int member() const { return member_; }
  Game& game() { return game_; }
  bool open() const { return open_; }
  std::string side;
  // The state this connection holds (compact mode): what deltas apply to.
  struct Held {
    std::string status, turn, legal;
    long long version = -1, game = -1;
  } held;
  bool joined = false;
  bool welcomed = false;
  long long rematch_for = -1;

 private:
  void on_connect(beast::error_code ec);
  void on_handshake(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t);
  void write_now(Out out);
  void do_write();
  void pump_paced();
  bool take_token();

  Shard& shard_;
  Game& game_;
  int member_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> outq_;
  std::deque<Out> paced_;
  net::steady_timer pace_timer_;
  bool writing_ = false, open_ = false, closing_ = false, close_after_write_ = false,
       pace_armed_ = false;
  double rate_ = 0, burst_ = 0, tokens_ = 0;
  Clock::time_point refilled_;
};

struct Pending {
  long long game, version;  // the state the act should produce
  Clock::time_point sent;
  int mover;
  int remaining;
  bool accepted;
};

struct Game {
  Game(net::io_context& ioc, int idx, std::uint64_t seed)
      : index(idx), rng(seed), timer(ioc), think_timer(ioc) {}
  int index;
  std::mt19937_64 rng;
  std::vector<std::shared_ptr<Conn>> members;  // 0: creator, 1: joiner, then spectators
  std::string room;
  bool complete = true;  // every member connected
  bool counted_ready = false;
  bool seen_playing = false;
  long long started_game = 0, finished_game = 0;
  // The move in the works: the state the mover last received while it was its turn.
  int mover = -1;
  long long ready_game = -1, ready_version = -1;
  std::string legal;  // raw JSON array
  long long acted_game = -1, acted_version = -1;
  bool thinking = false;
  int due = 0;  // rate mode: arrivals that found the game not ready
  net::steady_timer timer, think_timer;
  std::deque<Pending> pending;
  // echo mode
  int echo_next = 0;
  Clock::time_point echo_sent;
};

// ---------------------------------------------------------------------------------------------

class Shard {
 public:
  Shard(const Options& opt, Control& ctl) : opt_(opt), ctl_(ctl), guard_(ioc_.get_executor()) {}

  net::io_context& ioc() { return ioc_; }
  const Options& opt() const { return opt_; }
  Stats& stats() { return stats_; }
  bool measuring() const { return go_ && !stopping_; }

  void add_game(int index) {
    auto g = std::make_unique<Game>(
        ioc_, index, opt_.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(index) + 1);
    const int members = 2 + opt_.spectators;
    for (int m = 0; m < members; ++m)
      g->members.push_back(std::make_shared<Conn>(*this, *g, m, ioc_));
    games_.push_back(std::move(g));
  }
  std::size_t connections() const {
    std::size_t n = 0;
    for (auto& g : games_) n += g->members.size();
    return n;
  }

  void run() { ioc_.run(); }

  // Phase 1: open every connection, a bounded number of handshakes at a time.
  void start_connect() {
    for (auto& g : games_)
      for (auto& c : g->members) to_connect_.push_back(c.get());
    connect_more();
  }
  void connect_more() {
    while (connecting_ < opt_.connect_parallel && next_connect_ < to_connect_.size()) {
      ++connecting_;
      to_connect_[next_connect_++]->start();
    }
  }
  void on_connected(Conn& c, bool ok) {
    --connecting_;
    if (ok) {
      ctl_.connected.fetch_add(1);
    } else {
      ++stats_.connect_failures;
      c.game().complete = false;
    }
    ctl_.connect_done.fetch_add(1);
    connect_more();
  }

  // Phase 2: every complete game creates its room; the others join it.
  void start_setup() {
    for (auto& g : games_) {
      if (!g->complete) continue;
      if (opt_.echo) {
        mark_ready(*g);
        continue;
      }
      json create = {
          {"type", "create"}, {"variant", opt_.variant}, {"seat", "random"}, {"name", "load-a"}};
      g->members[0]->send({create.dump()});
    }
  }
  int complete_games() const {
    int n = 0;
    for (auto& g : games_) n += g->complete ? 1 : 0;
    return n;
  }

  // Phase 3: play.
  void go() {
    go_ = true;
    for (auto& g : games_) {
      if (!g->complete) continue;
      if (opt_.echo) {
        echo_send(*g);
      } else if (opt_.rate_mode) {
        schedule_arrival(*g);
      } else {
        maybe_act(*g);
      }
    }
  }

  // Phase 4: stop acting, let the broadcasts of acts already sent arrive (up to 3 s).
  void stop() {
    stopping_ = true;
    for (auto& g : games_) {
      g->timer.cancel();
      g->think_timer.cancel();
      for (auto& c : g->members) c->clear_paced();
    }
    drain_deadline_ = Clock::now() + 3s;
    check_drained();
  }

  // Phase 5: close every connection (forcefully after 3 s).
  void close_all() {
    closing_ = true;
    for (auto& g : games_)
      for (auto& c : g->members) c->close();
    close_timer_ = std::make_unique<net::steady_timer>(ioc_, 3s);
    close_timer_->async_wait([this](beast::error_code ec) {
      if (ec) return;
      for (auto& g : games_)
        for (auto& c : g->members) c->force_close();
    });
    guard_.reset();
    check_closed();
  }
  void on_conn_finished() {
    ++finished_;
    check_closed();
  }
  void check_closed() {
    if (!closing_ || finished_ < started_) return;
    if (close_timer_) close_timer_->cancel();
  }
  void on_conn_started() { ++started_; }
  bool closing() const { return closing_; }

  void on_message(Conn& c, std::string_view text);
  void on_read_error(Conn&, const std::string& what) {
    if (closing_) return;
    stats_.error(what);
  }

  void register_send(Game& g, Conn& c, const Out& out) {
    if (out.act_version < 0) return;
    ++stats_.actions_sent;
    int live = 0;
    for (auto& m : g.members) live += m->open() ? 1 : 0;
    g.pending.push_back({out.act_game, out.act_version + 1, Clock::now(), c.member(), live, false});
    if (g.pending.size() > 256) g.pending.pop_front();
  }

 private:
  void mark_ready(Game& g) {
    if (g.counted_ready) return;
    g.counted_ready = true;
    ctl_.ready_games.fetch_add(1);
  }
  void check_setup(Game& g) {
    if (g.counted_ready || !g.seen_playing) return;
    for (auto& c : g.members)
      if (!c->joined) return;
    mark_ready(g);
  }
  void check_drained() {
    bool empty = true;
    for (auto& g : games_) empty = empty && g->pending.empty();
    if (empty || Clock::now() >= drain_deadline_) {
      ctl_.drained.fetch_add(1);
      return;
    }
    drain_timer_ = std::make_unique<net::steady_timer>(ioc_, 10ms);
    drain_timer_->async_wait([this](beast::error_code ec) {
      if (!ec) check_drained();
    });
  }

  void on_state(Game& g, Conn& c, const Scan& s);
  void on_delta(Game& g, Conn& c, const Scan& d);
  static void hold(Conn& c, const Scan& s);
  void maybe_act(Game& g);
  void act_now(Game& g);
  void schedule_arrival(Game& g);
  void echo_send(Game& g);

  const Options& opt_;
  Control& ctl_;
  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> guard_;
  std::vector<std::unique_ptr<Game>> games_;
  Stats stats_;
  std::vector<std::string_view> items_;  // act_now's scratch: the legal actions' texts
  std::vector<Conn*> to_connect_;
  std::size_t next_connect_ = 0;
  int connecting_ = 0;
  bool go_ = false, stopping_ = false, closing_ = false;
  Clock::time_point drain_deadline_;
  std::unique_ptr<net::steady_timer> drain_timer_, close_timer_;
  long long started_ = 0, finished_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Conn

void Conn::start() {
  shard_.on_conn_started();
  ws_.set_option(websocket::stream_base::timeout{10s, websocket::stream_base::none(), false});
  ws_.read_message_max(1 << 20);
  beast::get_lowest_layer(ws_).expires_after(30s);
  beast::get_lowest_layer(ws_).async_connect(
      tcp::endpoint(net::ip::make_address_v4("127.0.0.1"), shard_.opt().port),
      [self = shared_from_this()](beast::error_code ec) { self->on_connect(ec); });
}

void Conn::on_connect(beast::error_code ec) {
  if (ec) {
    shard_.stats().error("connect: " + ec.message());
    shard_.on_connected(*this, false);
    shard_.on_conn_finished();
    return;
  }
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
  ws_.async_handshake(
      "127.0.0.1:" + std::to_string(shard_.opt().port),
      shard_.opt().compact ? "/ws?compact=" + std::to_string(shard_.opt().compact) : "/ws",
      [self = shared_from_this()](beast::error_code e) { self->on_handshake(e); });
}

void Conn::on_handshake(beast::error_code ec) {
  beast::get_lowest_layer(ws_).expires_never();
  if (ec) {
    shard_.stats().error("handshake: " + ec.message());
    shard_.on_connected(*this, false);
    shard_.on_conn_finished();
    return;
  }
  open_ = true;
  if (shard_.opt().echo) shard_.on_connected(*this, true);  // the game server says welcome first
  do_read();
}

void Conn::do_read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    self->on_read(ec, n);
  });
}

void Conn::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    const bool was_open = open_;
    open_ = false;
    if (!welcomed && !shard_.opt().echo && !closing_) shard_.on_connected(*this, false);
    if (!closing_ && was_open) {
      std::string what = "closed by server: " + ec.message();
      if (ec == websocket::error::closed)
        what = "closed by server: code " + std::to_string(ws_.reason().code);
      shard_.on_read_error(*this, what);
    }
    shard_.on_conn_finished();
    return;
  }
  // Handled in place: nothing below reads into this connection's buffer before it is consumed.
  shard_.on_message(
      *this, std::string_view(static_cast<const char*>(buffer_.cdata().data()), buffer_.size()));
  buffer_.consume(buffer_.size());
  do_read();
}

bool Conn::take_token() {
  if (rate_ <= 0) return true;
  const auto now = Clock::now();
  tokens_ =
      std::min(burst_, tokens_ + std::chrono::duration<double>(now - refilled_).count() * rate_);
  refilled_ = now;
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

void Conn::send(Out out) {
  if (!open_ || closing_) return;
  if (paced_.empty() && take_token()) return write_now(std::move(out));
  ++shard_.stats().paced;
  paced_.push_back(std::move(out));
  pump_paced();
}

void Conn::pump_paced() {
  while (!paced_.empty() && take_token()) {
    write_now(std::move(paced_.front()));
    paced_.pop_front();
  }
  if (paced_.empty() || pace_armed_) return;
  pace_armed_ = true;
  const double wait = (1.0 - tokens_) / rate_;
  pace_timer_.expires_after(
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait)));
  pace_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    self->pace_armed_ = false;
    if (!ec) self->pump_paced();
  });
}

void Conn::write_now(Out out) {
  shard_.register_send(game_, *this, out);
  outq_.push_back(std::move(out.text));
  if (!writing_) do_write();
}

void Conn::do_write() {
  writing_ = true;
  ws_.text(true);
  ws_.async_write(net::buffer(outq_.front()),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    self->writing_ = false;
                    self->outq_.pop_front();
                    if (ec) {
                      self->outq_.clear();
                      return;
                    }
                    if (self->close_after_write_) {
                      self->outq_.clear();
                      self->close_after_write_ = false;
                      self->close();
                      return;
                    }
                    if (!self->outq_.empty()) self->do_write();
                  });
}

void Conn::close() {
  if (!open_) return;
  closing_ = true;
  paced_.clear();
  if (writing_) {
    close_after_write_ = true;
    return;
  }
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
}

// ---------------------------------------------------------------------------------------------
// The protocol

void Shard::on_message(Conn& c, std::string_view text) {
  ++stats_.messages;
  Game& g = c.game();
  if (opt_.echo) {
    if (c.member() != g.echo_next || !go_) return stats_.error("echo: unexpected message");
    stats_.lat_mover.push_back(micros(Clock::now() - g.echo_sent));
    ++stats_.round_trips;
    g.echo_next = g.echo_next == 0 ? 1 : 0;
    if (!stopping_) echo_send(g);
    return;
  }
  const Scan s = scan_top(text);
  if (!s.ok) return stats_.error("bad_json");
  if (opt_.check_scan) {
    json j = json::parse(text, nullptr, false);
    auto str = [&](const char* k) {
      return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
    };
    auto num = [&](const char* k) {
      return j.contains(k) && j[k].is_number_integer() ? j[k].get<long long>() : -1LL;
    };
    if (j.is_discarded() || str("type") != s.type || str("status") != s.status ||
        str("turn") != s.turn || num("version") != s.version || num("game") != s.game ||
        (j.contains("legal") && json::parse(s.legal, nullptr, false) != j["legal"]))
      stats_.error("scan_mismatch");
  }
  if (s.type == "state" || s.type == "delta") {
    ++stats_.states;
    stats_.state_bytes += text.size();
    if (s.type == "delta") return on_delta(g, c, s);
    if (opt_.compact) hold(c, s);
    return on_state(g, c, s);
  }
  if (s.type == "welcome") {
    if (c.welcomed) return;
    c.welcomed = true;
    json j = json::parse(text, nullptr, false);
    if (opt_.pace && j.is_object() && j.contains("limits") && j["limits"].is_object()) {
      const json& l = j["limits"];
      const double rate = l.value("rate_per_second", 0.0), burst = l.value("rate_burst", 0.0);
      // A margin under the server's bucket: the server reads in bursts, so arrival gaps shrink.
      if (rate > 0 && burst >= 4) c.set_limits(rate * 0.95, burst - 3);
    }
    on_connected(c, true);
    return;
  }
  if (s.type == "joined") {
    json j = json::parse(text, nullptr, false);
    if (!j.is_object()) return stats_.error("bad_json");
    c.joined = true;
    c.side = j.value("seat", "");
    if (c.side == "spectator") c.side.clear();
    if (c.member() == 0 && g.room.empty()) {
      g.room = j.value("room", "");
      for (std::size_t m = 1; m < g.members.size(); ++m) {
        json join = {{"type", "join"},
                     {"room", g.room},
                     {"seat", m == 1 ? "any" : "spectator"},
                     {"name", m == 1 ? "load-b" : "load-s"}};
        g.members[m]->send({join.dump()});
      }
    }
    return check_setup(g);
  }
  if (s.type == "error") {
    json j = json::parse(text, nullptr, false);
    const std::string code = j.is_object() ? j.value("code", "?") : "?";
    stats_.error(code);
    if (g.mover == c.member() || (c.member() < 2 && g.acted_game >= 0)) {
      // The act was refused: forget it and ask for the current state to pick up from.
      g.acted_game = g.acted_version = -1;
      c.send({R"({"type":"sync"})"});
    }
    return;
  }
  if (s.type == "notice") {
    json j = json::parse(text, nullptr, false);
    stats_.error("notice: " + (j.is_object() ? j.value("code", "?") : std::string("?")));
  }
  // chat, draw_offer, ok, rematch_offer, draw_declined: nothing to do.
}

// Keeps what a later delta may leave out.
void Shard::hold(Conn& c, const Scan& s) {
  auto& h = c.held;
  if (s.version >= 0) h.version = s.version;
  if (s.game >= 0) h.game = s.game;
  if (!s.status.empty()) h.status.assign(s.status);
  if (!s.turn.empty()) h.turn.assign(s.turn);
  if (!s.legal.empty()) h.legal.assign(s.legal);
}

// A delta of the state the connection holds: its changed fields over the held ones, then played
// like a full state. One for another state (never expected) asks for the full state again.
void Shard::on_delta(Game& g, Conn& c, const Scan& d) {
  ++stats_.deltas;
  if (d.base_game != c.held.game || d.base_version != c.held.version) {
    stats_.error("delta_for_another_state");
    return c.send({R"({"type":"sync"})"});
  }
  const Scan set = scan_top(d.set);
  if (!set.ok) return stats_.error("bad_delta");
  hold(c, set);
  Scan s;
  s.ok = true;
  s.type = "state";
  s.version = c.held.version;
  s.game = c.held.game;
  s.status = c.held.status;
  s.turn = c.held.turn;
  s.legal = c.held.legal;
  on_state(g, c, s);
}

void Shard::on_state(Game& g, Conn& c, const Scan& s) {
  const auto now = Clock::now();
  for (auto it = g.pending.begin(); it != g.pending.end(); ++it) {
    if (it->game != s.game || it->version != s.version) continue;
    (it->mover == c.member() ? stats_.lat_mover : stats_.lat_others)
        .push_back(micros(now - it->sent));
    if (!it->accepted) {
      it->accepted = true;
      ++stats_.actions_accepted;
    }
    if (--it->remaining <= 0) g.pending.erase(it);
    break;
  }
  if (s.status == "playing") {
    g.seen_playing = true;
    if (s.version == 0 && s.game > g.started_game) {
      g.started_game = s.game;
      ++stats_.games_started;
    }
  }
  if (!g.counted_ready) check_setup(g);
  if (c.member() >= 2 || c.side.empty()) return;  // a spectator
  if (s.status == "finished") {
    if (s.game > g.finished_game) {
      g.finished_game = s.game;
      ++stats_.games_finished;
    }
    if (c.rematch_for < s.game && !stopping_) {
      c.rematch_for = s.game;
      c.send({R"({"type":"rematch"})"});
    }
    return;
  }
  if (s.status != "playing" || s.turn != c.side) return;
  g.mover = c.member();
  g.ready_game = s.game;
  g.ready_version = s.version;
  g.legal.assign(s.legal);
  maybe_act(g);
}

void Shard::maybe_act(Game& g) {
  if (!measuring() || g.mover < 0) return;
  if (g.ready_game == g.acted_game && g.ready_version == g.acted_version) return;  // already sent
  if (opt_.rate_mode) {
    if (g.due > 0) {
      --g.due;
      act_now(g);
    }
    return;
  }
  if (opt_.think_ms <= 0) return act_now(g);
  if (g.thinking) return;
  g.thinking = true;
  std::uniform_real_distribution<double> pause(0.5 * opt_.think_ms, 1.5 * opt_.think_ms);
  g.think_timer.expires_after(std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double, std::milli>(pause(g.rng))));
  g.think_timer.async_wait([this, &g](beast::error_code ec) {
    g.thinking = false;
    if (!ec) act_now(g);
  });
}

// The action a short form stands for (docs/PROTOCOL.md, "Short actions") as JSON text, or "" if
// it is none. Written here from the protocol, not taken from the server, as any other client would.
std::string long_action(const std::string& s) {
  int a = 0, b = 0, c = 0, d = 0, n = 0;
  char sep = 0;
  char out[96];
  if (s == "end") return R"({"kind":"end_turn"})";
  if (std::sscanf(s.c_str(), "d%d%n", &a, &n) == 1 && (s.substr(n) == "" || s.substr(n) == "b")) {
    std::snprintf(out, sizeof out, R"({"kind":"drop","column":%d,"piece":"%s"})", a,
                  s.ends_with('b') ? "bomb" : "normal");
    return out;
  }
  if (std::sscanf(s.c_str(), "*%d,%d%n", &a, &b, &n) == 2 && n == static_cast<int>(s.size())) {
    std::snprintf(out, sizeof out, R"({"kind":"detonate","at":[%d,%d]})", a, b);
    return out;
  }
  if (std::sscanf(s.c_str(), "%d,%d%c%d,%d%n", &a, &b, &sep, &c, &d, &n) == 5 &&
      n == static_cast<int>(s.size()) && (sep == '-' || sep == 'x')) {
    std::snprintf(out, sizeof out, R"({"kind":"%s","from":[%d,%d],"to":[%d,%d]})",
                  sep == '-' ? "step" : "jump", a, b, c, d);
    return out;
  }
  return "";
}

// Picks one of the state's legal actions and sends it. The actions are cut out of the state's
// text and sent as they are (short ones written long): no JSON tree, so the tool stays cheap
// next to the server it measures. --check-scan compares the cut with a full parse.
void Shard::act_now(Game& g) {
  if (!measuring() || g.mover < 0) return;
  if (g.ready_game == g.acted_game && g.ready_version == g.acted_version) return;
  if (opt_.max_actions > 0 && ctl_.reserved_actions.fetch_add(1) >= opt_.max_actions) {
    ctl_.stop_requested = true;
    return;
  }
  items_.clear();
  if (!array_items(g.legal, items_) || items_.empty()) return stats_.error("no_legal_actions");
  if (opt_.check_scan) {
    const json legal = json::parse(g.legal, nullptr, false);
    bool same = legal.is_array() && legal.size() == items_.size();
    for (std::size_t k = 0; same && k < items_.size(); ++k)
      same = json::parse(items_[k], nullptr, false) == legal[k];
    if (!same) stats_.error("scan_mismatch");
  }
  std::uniform_int_distribution<std::size_t> pick(0, items_.size() - 1);
  const std::string_view item = items_[pick(g.rng)];
  std::string text = R"({"type":"act","action":)";
  if (item.starts_with('"')) {
    const std::string action = long_action(std::string(item.substr(1, item.size() - 2)));
    if (action.empty()) return stats_.error("bad_short_action");
    text += action;
  } else {
    text += item;
  }
  text += R"(,"version":)";
  text += std::to_string(g.ready_version);
  text += '}';
  g.acted_game = g.ready_game;
  g.acted_version = g.ready_version;
  g.members[static_cast<std::size_t>(g.mover)]->send(
      {std::move(text), g.ready_game, g.ready_version});
}

void Shard::schedule_arrival(Game& g) {
  // Each game's arrivals are a Poisson process of rate R / games; together they are one of rate R.
  std::exponential_distribution<double> gap(opt_.rate / opt_.games);
  g.timer.expires_after(
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(gap(g.rng))));
  g.timer.async_wait([this, &g](beast::error_code ec) {
    if (ec || !measuring()) return;
    const bool ready =
        g.mover >= 0 && !(g.ready_game == g.acted_game && g.ready_version == g.acted_version);
    if (ready) {
      act_now(g);
    } else {
      ++g.due;
      ++stats_.late;
    }
    schedule_arrival(g);
  });
}

void Shard::echo_send(Game& g) {
  if (opt_.max_actions > 0 && ctl_.reserved_actions.fetch_add(1) >= opt_.max_actions) {
    ctl_.stop_requested = true;
    return;
  }
  std::string payload =
      R"({"type":"act","action":{"kind":"step","from":[2,2],"to":[3,3]},"version":)" +
      std::to_string(stats_.round_trips) + R"(,"pad":")";
  const std::size_t want = static_cast<std::size_t>(opt_.echo_bytes);
  if (payload.size() + 2 < want) payload.append(want - payload.size() - 2, 'x');
  payload += "\"}";
  g.echo_sent = Clock::now();
  g.members[static_cast<std::size_t>(g.echo_next)]->send({std::move(payload)});
}

// ---------------------------------------------------------------------------------------------
// The server process, from /proc

std::optional<long long> vm_rss_bytes(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
  }
  return std::nullopt;
}

std::optional<double> proc_cpu_seconds(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = all.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(all.substr(close + 2));
  std::string field;
  double utime = 0, stime = 0;
  for (int f = 3; f <= 15 && rest >> field; ++f) {  // field 3 is the state
    if (f == 14) utime = std::atof(field.c_str());
    if (f == 15) stime = std::atof(field.c_str());
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double self_cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto sec = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

void raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

json percentiles(std::vector<std::uint32_t>& v) {
  json j = {{"count", v.size()}};
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  auto at = [&](double p) {
    const std::size_t rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return static_cast<double>(v[std::clamp<std::size_t>(rank, 1, v.size()) - 1]) / 1000.0;
  };
  j["p50_ms"] = at(0.50);
  j["p99_ms"] = at(0.99);
  j["p999_ms"] = at(0.999);
  j["max_ms"] = static_cast<double>(v.back()) / 1000.0;
  return j;
}

template <class Pred>
bool wait_for(Pred done, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(seconds));
  while (!done()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

std::string fmt_ms(const json& p, const char* k) {
  if (!p.contains(k)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", p[k].get<double>());
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  raise_fd_limit();
  Control ctl;
  std::vector<std::unique_ptr<Shard>> shards;
  for (int t = 0; t < opt.threads; ++t) shards.push_back(std::make_unique<Shard>(opt, ctl));
  for (int i = 0; i < opt.games; ++i)
    shards[static_cast<std::size_t>(i % opt.threads)]->add_game(i);
  std::size_t conns = 0;
  for (auto& s : shards) conns += s->connections();
  const int total_conns = static_cast<int>(conns);

  json out = {{"mode", opt.echo        ? "echo"
                       : opt.rate_mode ? "rate"
                                       : "closed"},
              {"games", opt.games},
              {"spectators_per_game", opt.spectators},
              {"connections", total_conns},
              {"threads", opt.threads},
              {"load_average_start", load_average()}};
  if (opt.rate_mode) out["offered_rate"] = opt.rate;
  if (opt.think_ms > 0) out["think_ms"] = opt.think_ms;
  std::vector<std::string> problems;

  const auto rss0 = opt.server_pid ? vm_rss_bytes(opt.server_pid) : std::nullopt;
  std::vector<std::thread> threads;
  for (auto& s : shards) threads.emplace_back([&s] { s->run(); });
  auto post_all = [&](auto f) {
    for (auto& s : shards) net::post(s->ioc(), [&s, f] { f(*s); });
  };

  // 1. connect
  post_all([](Shard& s) { s.start_connect(); });
  if (!wait_for([&] { return ctl.connect_done.load() >= total_conns; }, 60 + total_conns / 50.0))
    problems.push_back("connect phase timed out");
  const auto rss1 = opt.server_pid ? vm_rss_bytes(opt.server_pid) : std::nullopt;

  // 2. rooms
  std::atomic<int> complete{0}, counted{0};
  post_all([&complete, &counted](Shard& s) {
    complete.fetch_add(s.complete_games());
    counted.fetch_add(1);
    s.start_setup();
  });
  wait_for([&] { return counted.load() >= opt.threads; }, 60);
  if (!wait_for([&] { return ctl.ready_games.load() >= complete.load(); }, opt.setup_timeout))
    problems.push_back("room setup timed out (" + std::to_string(ctl.ready_games.load()) + " of " +
                       std::to_string(complete.load()) + " games ready)");
  const auto rss2 = opt.server_pid ? vm_rss_bytes(opt.server_pid) : std::nullopt;

  // 3. measure
  const double cpu0 = self_cpu_seconds();
  const auto scpu0 = opt.server_pid ? proc_cpu_seconds(opt.server_pid) : std::nullopt;
  const auto t0 = Clock::now();
  post_all([](Shard& s) { s.go(); });
  const auto deadline =
      t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.duration));
  while (Clock::now() < deadline && !ctl.stop_requested.load()) std::this_thread::sleep_for(2ms);
  const auto t1 = Clock::now();
  const double cpu1 = self_cpu_seconds();
  const auto scpu1 = opt.server_pid ? proc_cpu_seconds(opt.server_pid) : std::nullopt;
  post_all([](Shard& s) { s.stop(); });
  wait_for([&] { return ctl.drained.load() >= opt.threads; }, 10);
  const auto rss3 = opt.server_pid ? vm_rss_bytes(opt.server_pid) : std::nullopt;

  // 4. close
  post_all([](Shard& s) { s.close_all(); });
  for (auto& t : threads) t.join();

  Stats st;
  for (auto& s : shards) st.merge(std::move(s->stats()));
  const double secs = std::chrono::duration<double>(t1 - t0).count();
  const double tool_cpu = cpu1 - cpu0;
  std::uint64_t errors_total = 0;
  for (auto& [k, v] : st.errors) errors_total += v;
  if (!problems.empty()) errors_total += problems.size();

  out["connected"] = ctl.connected.load();
  out["connect_failures"] = st.connect_failures;
  out["games_ready"] = ctl.ready_games.load();
  out["seconds"] = secs;
  if (opt.echo) {
    out["round_trips"] = st.round_trips;
    out["round_trips_per_s"] = static_cast<double>(st.round_trips) / secs;
    out["rtt"] = percentiles(st.lat_mover);
  } else {
    out["games_started"] = st.games_started;
    out["games_finished"] = st.games_finished;
    out["actions_sent"] = st.actions_sent;
    out["actions_accepted"] = st.actions_accepted;
    out["actions_per_s"] = static_cast<double>(st.actions_accepted) / secs;
    std::vector<std::uint32_t> all = st.lat_mover;
    all.insert(all.end(), st.lat_others.begin(), st.lat_others.end());
    out["latency_mover"] = percentiles(st.lat_mover);
    out["latency_others"] = percentiles(st.lat_others);
    out["latency_all"] = percentiles(all);
    out["paced_sends"] = st.paced;
    if (opt.rate_mode) out["late_arrivals"] = st.late;
  }
  out["messages_received"] = st.messages;
  out["states_received"] = st.states;  // full states and deltas
  out["deltas_received"] = st.deltas;
  if (st.states > 0) out["bytes_per_state"] = static_cast<double>(st.state_bytes) / st.states;
  out["errors"] = st.errors;
  out["problems"] = problems;
  out["errors_total"] = errors_total;
  out["tool_cpu_s"] = tool_cpu;
  out["tool_cpu_pct"] = 100.0 * tool_cpu / secs;
  out["load_average_end"] = load_average();
  if (opt.server_pid) {
    json sv = {{"pid", opt.server_pid}};
    auto put = [&](const char* k, const std::optional<long long>& v) {
      if (v) sv[k] = *v;
    };
    put("rss_before", rss0);
    put("rss_connected", rss1);
    put("rss_rooms", rss2);
    put("rss_end", rss3);
    if (rss0 && rss1 && ctl.connected.load() > 0)
      sv["bytes_per_connection"] = (*rss1 - *rss0) / ctl.connected.load();
    if (rss0 && rss2 && ctl.ready_games.load() > 0 && ctl.connected.load() > 0)
      sv["bytes_per_connection_in_room"] = (*rss2 - *rss0) / ctl.connected.load();
    if (scpu0 && scpu1) {
      const double server_cpu = scpu1.value_or(0.0) - scpu0.value_or(0.0);
      sv["cpu_s"] = server_cpu;
      sv["cpu_pct"] = 100.0 * server_cpu / secs;
    }
    out["server"] = sv;
  }

  if (opt.json_out) {
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf(
        "bc_loadtest: %s, %d games, %d spectators/game, %d connections (%d connected), %d "
        "thread(s)\n",
        out["mode"].get<std::string>().c_str(), opt.games, opt.spectators, total_conns,
        ctl.connected.load(), opt.threads);
    std::printf("  measured          %.2f s   load average %s -> %s\n", secs,
                out["load_average_start"].get<std::string>().c_str(),
                out["load_average_end"].get<std::string>().c_str());
    if (opt.echo) {
      std::printf("  round trips       %llu  (%.0f/s)\n",
                  static_cast<unsigned long long>(st.round_trips),
                  out["round_trips_per_s"].get<double>());
      const json& r = out["rtt"];
      std::printf("  rtt ms            p50 %s  p99 %s  p99.9 %s  max %s\n",
                  fmt_ms(r, "p50_ms").c_str(), fmt_ms(r, "p99_ms").c_str(),
                  fmt_ms(r, "p999_ms").c_str(), fmt_ms(r, "max_ms").c_str());
    } else {
      std::printf("  games             %llu started, %llu finished (rematches)\n",
                  static_cast<unsigned long long>(st.games_started),
                  static_cast<unsigned long long>(st.games_finished));
      std::printf("  actions           %llu sent, %llu accepted, %.0f/s%s\n",
                  static_cast<unsigned long long>(st.actions_sent),
                  static_cast<unsigned long long>(st.actions_accepted),
                  out["actions_per_s"].get<double>(),
                  opt.rate_mode
                      ? (" (offered " + std::to_string(static_cast<int>(opt.rate)) + "/s)").c_str()
                      : "");
      std::printf("  paced sends       %llu (client kept to the server's rate limit)\n",
                  static_cast<unsigned long long>(st.paced));
      for (const char* k : {"latency_mover", "latency_others", "latency_all"}) {
        const json& r = out[k];
        std::printf("  %-17s p50 %s  p99 %s  p99.9 %s  max %s ms  (n=%llu)\n", k,
                    fmt_ms(r, "p50_ms").c_str(), fmt_ms(r, "p99_ms").c_str(),
                    fmt_ms(r, "p999_ms").c_str(), fmt_ms(r, "max_ms").c_str(),
                    static_cast<unsigned long long>(r["count"].get<std::size_t>()));
      }
    }
    std::printf("  tool CPU          %.2f s (%.0f%% of one core)\n", tool_cpu,
                100.0 * tool_cpu / secs);
    if (out.contains("server")) {
      const json& sv = out["server"];
      if (sv.contains("bytes_per_connection"))
        std::printf(
            "  server memory     %.1f MB -> %.1f MB connected -> %.1f MB in rooms; %lld "
            "B/connection (%lld in a room)\n",
            sv.value("rss_before", 0LL) / 1e6, sv.value("rss_connected", 0LL) / 1e6,
            sv.value("rss_rooms", 0LL) / 1e6, sv.value("bytes_per_connection", 0LL),
            sv.value("bytes_per_connection_in_room", 0LL));
      if (sv.contains("cpu_s"))
        std::printf("  server CPU        %.2f s (%.0f%% of one core)\n", sv["cpu_s"].get<double>(),
                    sv["cpu_pct"].get<double>());
    }
    std::printf("  errors            %llu", static_cast<unsigned long long>(errors_total));
    for (auto& [k, v] : st.errors)
      std::printf("  %s=%llu", k.c_str(), static_cast<unsigned long long>(v));
    for (auto& p : problems) std::printf("  [%s]", p.c_str());
    std::printf("\n");
  }
  return errors_total == 0 ? 0 : 1;
}
