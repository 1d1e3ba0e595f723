#include "server/bots/bots.hpp"

#include <cmath>

#include "server/game/clock.hpp"
#include "server/room/seats.hpp"  // random_token
#include "server/wire/json.hpp"
#include "server/wire/setup.hpp"

namespace bc::server {

namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

AccountAnswer answer(int status, const ojson& body) {
  // Bytes that are not UTF-8 (from a request's path) are replaced, never thrown on.
  return AccountAnswer{status, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                       std::nullopt, 0};
}

AccountAnswer error(int status, std::string_view code, std::string message) {
  return answer(status, ojson{{"error", code}, {"message", std::move(message)}});
}

int status_of(std::string_view code) {
  if (code == "not_found" || code == "unknown_room") return 404;
  if (code == "not_your_turn" || code == "game_over" || code == "not_started" ||
      code == "stale_version" || code == "seat_taken") {
    return 409;
  }
  if (code == "rate_limited") return 429;
  if (code == "server_error" || code == "server_full") return 503;
  if (code == "not_a_player") return 403;
  return 400;
}

std::string_view status_name(int s) {
  constexpr std::string_view kNames[] = {"created", "accepted", "declined", "canceled", "expired"};
  return kNames[s];
}

// The game a challenge asks for, read as `create` reads it: the same checks and the same words.
// `color` is the challenger's side (random, first or second).
struct AskedGame {
  CreateMsg create;
  std::string color = "random";
  int level = 0;  // a game against the computer: its level
};
std::variant<AskedGame, BotRefusal> read_game(std::string_view body, bool against_computer) {
  const auto j = json::parse(body.begin(), body.end(), nullptr, false);
  if (!j.is_object()) {
    return BotRefusal{"bad_request", "send a JSON object {\"variant\":..., \"clock\":..., ...}"};
  }
  json create{{"type", "create"}};
  for (const char* key : {"variant", "options", "clock", "rated"}) {
    if (auto it = j.find(key); it != j.end() && !it->is_null()) create[key] = *it;
  }
  AskedGame out;
  if (auto c = j.find("color"); c != j.end() && !c->is_null()) {
    if (!c->is_string() || (*c != "random" && *c != "first" && *c != "second")) {
      return BotRefusal{"bad_request", "`color` is random, first or second"};
    }
    out.color = c->get<std::string>();
  }
  if (against_computer) {
    const auto l = j.find("level");
    const auto level = l == j.end() ? std::optional<int>(1) : as_small_int(*l);
    if (!level || *level < kComputerMinLevel || *level > kComputerMaxLevel) {
      return BotRefusal{"bad_options", "`level` is a whole number from 1 to 8"};
    }
    out.level = *level;
    if (create.value("rated", false)) {
      return BotRefusal{"bad_options", "a game against the computer is never rated"};
    }
  }
  auto parsed = parse_client_message(create.dump());
  if (auto* e = std::get_if<ParseError>(&parsed)) {
    return BotRefusal{std::string(error_code_name(e->error.code)), e->error.message};
  }
  out.create = std::get<CreateMsg>(std::get<ClientMessage>(parsed).body);
  auto setup = resolve_create(out.create);
  if (auto* e = std::get_if<Error>(&setup)) {
    return BotRefusal{std::string(error_code_name(e->code)), e->message};
  }
  if (out.create.rated && !out.create.clock) {
    return BotRefusal{"bad_options", "a rated game needs a clock"};
  }
  return out;
}

// The creator's `seat` for a side named by the bot API (first, second, random).
std::string seat_for(VariantId v, std::string_view side) {
  if (side == "first") return std::string(side_name(v, Side::First));
  if (side == "second") return std::string(side_name(v, Side::Second));
  return "random";
}

ojson who_json(const Identity& p, const std::string& perf) {
  return ojson{{"name", p.name}, {"bot", p.bot}, {"rating", std::lround(p.rating_in(perf).rating)}};
}

}  // namespace

AccountAnswer refusal_answer(const BotRefusal& r) {
  ojson body{{"error", r.code}, {"message", r.message}};
  if (r.code == "illegal_move") body["legal"] = r.legal;
  return answer(status_of(r.code), body);
}

Bots::Bots(Registry& registry, const Limits& limits, std::atomic<MemberId>& next_member,
           Settings settings)
    : registry_(registry),
      limits_(limits),
      next_member_(next_member),
      settings_(settings),
      requests_(30, std::chrono::milliseconds(100)) {}

bool Bots::admit(const std::string& token_id, int* wait) {
  return requests_.take(token_id, Attempts::Clock::now(), wait);
}

ojson Bots::challenge_json(const Challenge& c) {
  const CreateMsg& m = c.create;
  ojson options = ojson::object();
  for (const auto& [name, value] : m.options) {
    if (const auto* i = std::get_if<std::int64_t>(&value)) options[name] = *i;
    if (const auto* b = std::get_if<bool>(&value)) options[name] = *b;
  }
  ojson clock = nullptr;
  if (m.clock) clock = ojson::parse(clock_json(*m.clock));
  return ojson{
      {"id", c.id},
      {"url", "/api/challenge/" + c.id},
      {"status", status_name(static_cast<int>(c.status))},
      {"challenger", who_json(c.from, c.perf)},
      {"dest", who_json(c.dest, c.perf)},
      {"variant", m.variant},
      {"options", std::move(options)},
      {"clock", std::move(clock)},
      {"rated", m.rated},
      {"perf", c.perf},
      {"color", c.color},
      {"room", c.room.empty() ? ojson(nullptr) : ojson(c.room)},
      {"decline_reason", c.decline_reason.empty() ? ojson(nullptr) : ojson(c.decline_reason)},
      {"created_ms", c.created_ms}};
}

void Bots::tell(const std::string& bot, const ojson& event) {
  auto it = bots_.find(bot);
  if (it == bots_.end()) return;
  const auto line = std::make_shared<const std::string>(event.dump());
  for (const auto& s : it->second.events) s->push(line);
}

void Bots::sweep() {
  const auto now = std::chrono::steady_clock::now();
  for (auto it = challenges_.begin(); it != challenges_.end();) {
    Challenge& c = it->second;
    if (c.status == Status::Created && !c.accepting && now >= c.expires) {
      c.status = Status::Expired;
      const ojson event{{"type", "challengeCanceled"}, {"challenge", challenge_json(c)}};
      tell(c.dest.id, event);
      if (c.from.bot) tell(c.from.id, event);
    }
    // An answered challenge is kept a while for its challenger's page to read, then forgotten.
    if (c.status != Status::Created && now >= c.expires + settings_.challenge_ttl) {
      it = challenges_.erase(it);
    } else {
      ++it;
    }
  }
}

bool Bots::open_events(const Identity& bot, const std::shared_ptr<LineSink>& sink) {
  std::vector<std::shared_ptr<BotSeat>> seats;
  {
    std::lock_guard lock(mu_);
    sweep();
    Bot& b = bots_[bot.id];
    std::erase_if(b.events, [](const auto& s) { return s->closed(); });
    if (b.events.size() >= settings_.event_streams) return false;
    b.events.push_back(sink);
    for (const auto& [room, seat] : b.seats) seats.push_back(seat);
    for (const auto& [id, c] : challenges_) {
      if (c.status == Status::Created && c.dest.id == bot.id) {
        sink->push(std::make_shared<const std::string>(
            ojson{{"type", "challenge"}, {"challenge", challenge_json(c)}}.dump()));
      }
    }
  }
  sink->on_close([this, id = bot.id, raw = sink.get()] {
    std::lock_guard lock(mu_);
    auto it = bots_.find(id);
    if (it != bots_.end()) {
      std::erase_if(it->second.events, [raw](const auto& s) { return s.get() == raw; });
    }
  });
  // The games in progress come first in the bot's eyes, but a seat is read outside mu_; the
  // challenges above are queued already, which changes nothing a bot needs.
  for (const auto& seat : seats) {
    if (seat->over()) continue;
    sink->push(std::make_shared<const std::string>(
        ojson{{"type", "gameStart"}, {"game", seat->summary()}}.dump()));
  }
  return true;
}

std::shared_ptr<BotSeat> Bots::seat_of(const std::string& bot, const std::string& room) {
  std::lock_guard lock(mu_);
  auto b = bots_.find(bot);
  if (b == bots_.end()) return nullptr;
  auto s = b->second.seats.find(room);
  return s == b->second.seats.end() ? nullptr : s->second;
}

std::optional<AccountAnswer> Bots::game_refusal(const Identity& bot, const std::string& room) {
  if (!seat_of(bot.id, room)) return error(404, "not_found", "this bot plays no game " + room);
  std::lock_guard lock(mu_);
  if (bots_[bot.id].game_streams >= settings_.game_streams) {
    return error(429, "too_many_streams",
                 "a bot has at most " + std::to_string(settings_.game_streams) +
                     " game streams open at once");
  }
  return std::nullopt;
}

void Bots::open_game(const Identity& bot, const std::string& room,
                     const std::shared_ptr<LineSink>& sink) {
  auto seat = seat_of(bot.id, room);
  if (!seat) return sink->close();
  {
    std::lock_guard lock(mu_);
    ++bots_[bot.id].game_streams;
  }
  sink->on_close([this, id = bot.id] {
    std::lock_guard lock(mu_);
    auto& n = bots_[id].game_streams;
    if (n > 0) --n;
  });
  seat->attach(sink);
}

std::shared_ptr<BotSeat> Bots::new_seat(const Identity& bot) {
  BotSeat::Hooks hooks;
  hooks.started = [this, id = bot.id](const ojson& game) {
    std::lock_guard lock(mu_);
    tell(id, ojson{{"type", "gameStart"}, {"game", game}});
  };
  hooks.finished = [this, id = bot.id](const ojson& game) {
    std::lock_guard lock(mu_);
    tell(id, ojson{{"type", "gameFinish"}, {"game", game}});
    // A bot's finished games are kept for their streams, the latest 20.
    auto& seats = bots_[id].seats;
    if (seats.size() > 20) {
      std::erase_if(seats, [](const auto& s) { return s.second->over(); });
    }
  };
  return std::make_shared<BotSeat>(next_member_.fetch_add(1, std::memory_order_relaxed), bot,
                                   std::move(hooks));
}

void Bots::seated(const std::string& bot, const std::shared_ptr<BotSeat>& seat) {
  std::lock_guard lock(mu_);
  bots_[bot].seats[seat->room_id()] = seat;
}

AccountAnswer Bots::challenge(const Identity& from, const Identity& dest, std::string_view body) {
  if (!dest.bot) {
    return error(400, "not_a_bot",
                 dest.name + " is not a bot: to play a person, share a room's link with them");
  }
  if (from.id == dest.id) return error(400, "bad_request", "a bot cannot challenge itself");
  if (from.bot && !settings_.bots_challenge_bots) {
    return error(403, "bots_challenge_off",
                 "this server does not let bots challenge bots (serve --bots-challenge-bots)");
  }
  if (!from.account()) {
    return error(403, "sign_in_required", "sign up (or sign in) to challenge a bot");
  }
  auto asked = read_game(body, false);
  if (auto* r = std::get_if<BotRefusal>(&asked)) return refusal_answer(*r);
  auto& game = std::get<AskedGame>(asked);
  std::lock_guard lock(mu_);
  sweep();
  std::size_t open = 0;
  for (const auto& [id, c] : challenges_) {
    if (c.status == Status::Created && c.from.id == from.id) ++open;
  }
  if (open >= settings_.open_challenges) {
    return error(429, "too_many_challenges",
                 "at most " + std::to_string(settings_.open_challenges) +
                     " challenges wait for an answer at once: cancel one first");
  }
  Challenge c;
  c.id = random_token().substr(0, 10);
  c.from = from;
  c.dest = dest;
  c.perf = perf_of(std::get<GameSetup>(resolve_create(game.create)));
  c.create = std::move(game.create);
  c.color = game.color;
  c.created_ms = real_time().unix_ms();
  c.expires = std::chrono::steady_clock::now() + settings_.challenge_ttl;
  const ojson j = challenge_json(c);
  tell(dest.id, ojson{{"type", "challenge"}, {"challenge", j}});
  challenges_.emplace(c.id, std::move(c));
  return answer(200, ojson{{"challenge", j}});
}

AccountAnswer Bots::show(const std::string& player, const std::string& id) {
  std::lock_guard lock(mu_);
  sweep();
  auto it = challenges_.find(id);
  if (it == challenges_.end() || (it->second.from.id != player && it->second.dest.id != player)) {
    return error(404, "not_found", "no challenge " + id + " of yours");
  }
  return answer(200, ojson{{"challenge", challenge_json(it->second)}});
}

void Bots::accept(const Identity& bot, const std::string& id, Reply reply) {
  CreateMsg create;
  Identity challenger;
  {
    std::lock_guard lock(mu_);
    sweep();
    auto it = challenges_.find(id);
    if (it == challenges_.end() || it->second.dest.id != bot.id) {
      return reply(error(404, "not_found", "no challenge " + id + " to this bot"));
    }
    Challenge& c = it->second;
    if (c.status != Status::Created || c.accepting) {
      return reply(error(409, "not_open",
                         std::string("the challenge is ") +
                             std::string(c.accepting ? "being accepted"
                                                     : status_name(static_cast<int>(c.status)))));
    }
    // Accepted, with its room, in one step once the room is made: a reader never sees one
    // without the other.
    c.accepting = true;
    create = c.create;
    challenger = c.from;
    const VariantId v = std::get<GameSetup>(resolve_create(create)).variant;
    // `color` is the challenger's side: the bot, which makes the room, takes the other.
    create.seat = seat_for(v, c.color == "first"    ? "second"
                              : c.color == "second" ? "first"
                                                    : "random");
    create.keep_for = challenger.id;
  }
  auto seat = new_seat(bot);
  seat->create(registry_, limits_, std::move(create),
               [this, seat, id, bot, challenger, reply](std::optional<BotRefusal> refused) {
                 std::string room;
                 {
                   std::lock_guard lock(mu_);
                   auto it = challenges_.find(id);
                   if (it != challenges_.end()) {
                     it->second.accepting = false;
                     if (refused) {
                       it->second.status = Status::Canceled;
                       it->second.decline_reason = refused->message;
                     } else {
                       it->second.status = Status::Accepted;
                       it->second.room = room = seat->room_id();
                     }
                     const ojson event = refused ? ojson{{"type", "challengeCanceled"},
                                                         {"challenge", challenge_json(it->second)}}
                                                 : ojson();
                     if (refused && challenger.bot) tell(challenger.id, event);
                   }
                 }
                 if (refused) return reply(refusal_answer(*refused));
                 seated(bot.id, seat);
                 if (challenger.bot) {
                   // The other bot takes the seat kept for it.
                   auto other = new_seat(challenger);
                   other->join(registry_, limits_, room,
                               [this, other, challenger](std::optional<BotRefusal> r) {
                                 if (!r) seated(challenger.id, other);
                               });
                 }
                 reply(answer(200, ojson{{"ok", true}, {"game", seat->summary()}}));
               });
}

AccountAnswer Bots::decline(const Identity& bot, const std::string& id, std::string_view body) {
  std::string reason = "declined";
  const auto j = json::parse(body.begin(), body.end(), nullptr, false);
  if (j.is_object() && j.contains("reason") && j["reason"].is_string()) {
    reason = clean_name(j["reason"].get<std::string>(), 200);
    if (reason.empty()) reason = "declined";
  }
  std::lock_guard lock(mu_);
  sweep();
  auto it = challenges_.find(id);
  if (it == challenges_.end() || it->second.dest.id != bot.id) {
    return error(404, "not_found", "no challenge " + id + " to this bot");
  }
  Challenge& c = it->second;
  if (c.status != Status::Created || c.accepting) {
    return error(409, "not_open", "the challenge is answered");
  }
  c.status = Status::Declined;
  c.decline_reason = reason;
  if (c.from.bot)
    tell(c.from.id, ojson{{"type", "challengeDeclined"}, {"challenge", challenge_json(c)}});
  return answer(200, ojson{{"ok", true}});
}

AccountAnswer Bots::cancel(const std::string& player, const std::string& id) {
  std::lock_guard lock(mu_);
  sweep();
  auto it = challenges_.find(id);
  if (it == challenges_.end() || it->second.from.id != player) {
    return error(404, "not_found", "no challenge " + id + " of yours");
  }
  Challenge& c = it->second;
  if (c.status != Status::Created || c.accepting) {
    return error(409, "not_open", "the challenge is answered");
  }
  c.status = Status::Canceled;
  tell(c.dest.id, ojson{{"type", "challengeCanceled"}, {"challenge", challenge_json(c)}});
  return answer(200, ojson{{"ok", true}});
}

void Bots::challenge_ai(const Identity& bot, std::string_view body, Reply reply) {
  auto asked = read_game(body, true);
  if (auto* r = std::get_if<BotRefusal>(&asked)) return reply(refusal_answer(*r));
  auto& game = std::get<AskedGame>(asked);
  const VariantId v = std::get<GameSetup>(resolve_create(game.create)).variant;
  game.create.seat = seat_for(v, game.color);
  game.create.opponent = Opponent{game.level, 0};
  auto seat = new_seat(bot);
  seat->create(registry_, limits_, std::move(game.create),
               [this, seat, bot, reply](std::optional<BotRefusal> refused) {
                 if (refused) return reply(refusal_answer(*refused));
                 seated(bot.id, seat);
                 reply(answer(200, ojson{{"game", seat->summary()}}));
               });
}

void Bots::game_call(const Identity& bot, const std::string& room, Call call, std::string arg,
                     Reply reply) {
  auto seat = seat_of(bot.id, room);
  if (!seat) return reply(error(404, "not_found", "this bot plays no game " + room));
  auto done = [reply](std::optional<BotRefusal> refused) {
    reply(refused ? refusal_answer(*refused) : answer(200, ojson{{"ok", true}}));
  };
  switch (call) {
    case Call::Move:
      return seat->play(std::move(arg), done);
    case Call::Resign:
      return seat->request(ResignMsg{}, done);
    case Call::DrawYes:
    case Call::DrawNo: {
      // Yes: accept the opponent's offer if there is one, else offer; no: decline the offer.
      const bool yes = call == Call::DrawYes;
      return seat->request(AnswerDrawMsg{yes}, [seat, yes, done](std::optional<BotRefusal> r) {
        if (r && r->code == "no_draw_offer" && yes) return seat->request(OfferDrawMsg{}, done);
        done(std::move(r));
      });
    }
    case Call::TakebackYes:
      return seat->request(AnswerTakebackMsg{true}, done);
    case Call::TakebackNo:
      return seat->request(AnswerTakebackMsg{false}, done);
    case Call::Chat: {
      const auto j = json::parse(arg.begin(), arg.end(), nullptr, false);
      if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) {
        return reply(error(400, "bad_request", "send a JSON object {\"text\":...}"));
      }
      return seat->request(ChatMsg{j["text"].get<std::string>()}, done);
    }
    case Call::ClaimVictory:
      return seat->request(ClaimMsg{false}, done);
    case Call::ClaimDraw:
      return seat->request(ClaimMsg{true}, done);
  }
}

void Bots::close_all() {
  std::vector<std::shared_ptr<LineSink>> events;
  std::vector<std::shared_ptr<BotSeat>> seats;
  {
    std::lock_guard lock(mu_);
    for (auto& [id, b] : bots_) {
      for (auto& s : b.events) events.push_back(s);
      for (auto& [room, seat] : b.seats) seats.push_back(seat);
    }
  }
  for (auto& s : events) s->close();
  for (auto& s : seats) s->close_streams();
  std::lock_guard lock(mu_);
  bots_.clear();  // nothing of a stopping server holds a stream or a seat any more
  challenges_.clear();
}

}  // namespace bc::server
