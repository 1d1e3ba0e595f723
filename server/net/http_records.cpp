// The game records of GET /api/games/{room}[.pdn|/positions][?game=N]: the current game from a
// room in memory, or a stored one, prepared on the record threads (server/host/records.hpp) and
// cached.
#include <spdlog/spdlog.h>

#include "server/host/records.hpp"
#include "server/net/http_responses.hpp"
#include "server/net/http_session.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"

namespace bc::server {

namespace {

// The cache key of a live room's record: everything a record shows that can change.
std::string live_record_key(const Room& room, RecordFormat format) {
  const RoomSummary s = room.summary();
  std::string key = "live/" + s.id + "/" + std::to_string(s.game_number) + "/" +
                    std::to_string(s.version) + "/" + std::to_string(static_cast<int>(s.status)) +
                    "/" + std::to_string(static_cast<int>(format));
  for (const auto& seat : s.seats) {
    key += seat ? "/" + std::to_string(seat->connected) + std::to_string(seat->ai.value_or(0)) +
                      std::to_string(seat->name.size()) + ":" + seat->name
                : std::string("/-");
  }
  return key;
}

}  // namespace

// GET /api/games/{room}[.pdn|/positions][?game=N]: the current game from memory; a room that is
// not loaded, or an earlier game of a rematch series, from the store.
void HttpSession::handle_game(Request req, std::string_view rest, const std::string& target) {
  std::string id(rest);
  auto strip = [&id](std::string_view suffix) {
    if (id.size() <= suffix.size() ||
        id.compare(id.size() - suffix.size(), suffix.size(), suffix) != 0) {
      return false;
    }
    id.resize(id.size() - suffix.size());
    return true;
  };
  const bool notation = strip(".pdn");
  const bool positions = !notation && strip("/positions");
  const RecordFormat format = notation    ? RecordFormat::Notation
                              : positions ? RecordFormat::Positions
                                          : RecordFormat::Json;
  int game_no = 0;
  if (auto q = target.find('?'); q != std::string::npos) {
    std::string_view query = std::string_view(target).substr(q + 1);
    while (!query.empty()) {
      const auto amp = query.find('&');
      std::string_view param = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      if (param.rfind("game=", 0) != 0) continue;
      std::string_view v = param.substr(5);
      int n = 0;
      bool ok = !v.empty() && v.size() <= 6;
      for (char c : v) {
        if (c < '0' || c > '9') ok = false;
        n = ok ? n * 10 + (c - '0') : 0;
      }
      if (!ok || n < 1) {
        return send(json_error(req, http::status::bad_request, "bad_request",
                               "`game` must be a game number: 1 for the room's first game"));
      }
      game_no = n;
    }
  }
  const auto type = notation ? std::string_view(kNotationContentType) : kJson;
  auto host = state_->registry.find(id);
  if (host && game_no != 0) {
    // An earlier game comes from the store; the current one from memory.
    if (game_no == host->summary().game_number) game_no = 0;
  }
  // Replays and store reads run on the record threads, a bounded number at a time.
  RecordWorks::Refusal why = RecordWorks::Refusal::None;
  auto ticket = state_->records.admit(address(), why);
  if (!ticket) {
    state_->metrics.records_refused.fetch_add(1, std::memory_order_relaxed);
    if (why == RecordWorks::Refusal::AddressBusy) {
      return send(try_later(req, http::status::too_many_requests, "rate_limited",
                            "your address has " +
                                std::to_string(state_->limits.record_jobs_per_address) +
                                " game records being prepared; wait for them"));
    }
    return send(try_later(req, http::status::service_unavailable, "busy",
                          "the server is preparing as many game records as it can; try again"));
  }
  auto self = shared_from_this();
  if (host && game_no == 0) {
    // On the room's strand: the cached record of this very state, else a copy of the room, from
    // which a record thread makes it.
    host->with_room([self, req = std::move(req), type, format,
                     ticket = std::move(ticket)](const Room* waiting) mutable {
      if (!waiting) {
        return net::post(self->executor(), [self, req = std::move(req)] {
          self->send(try_later(req, http::status::service_unavailable, "store_unavailable",
                               "the server cannot reach its store just now; try again in a few "
                               "seconds"));
        });
      }
      const Room& room = *waiting;
      std::string key = live_record_key(room, format);
      if (auto text = self->state_->records.cached(key))
        return self->answer(std::move(req), type, std::move(text));
      self->state_->records.post(
          ticket, [self, req = std::move(req), type, format, key = std::move(key),
                   copy = std::make_shared<const Room>(room)]() mutable {
            auto text = std::make_shared<const std::string>(record_of(*copy, format));
            self->state_->records.cache(key, text);
            self->answer(std::move(req), type, std::move(text));
          });
    });
    return;
  }
  state_->records.post(ticket, [self, req = std::move(req), type, format, id, game_no,
                                live = host != nullptr]() mutable {
    self->answer_stored(std::move(req), type, format, id, game_no, live);
  });
}

// On a record thread. A stored game never changes (a room not in memory is never loaded again
// while the server runs, and an earlier game of a rematch series is over), so it is cached; but in
// a cluster a room's current game may be in play on another node: that one is read every time.
void HttpSession::answer_stored(Request req, std::string_view type, RecordFormat format,
                                const std::string& id, int game_no, bool live) {
  auto key = normalize_room_id(id);
  const std::string cache_key =
      key ? *key + "/" + std::to_string(game_no) + "/" + std::to_string(static_cast<int>(format))
          : std::string();
  const bool cacheable = key && !(state_->cluster && game_no == 0);
  if (cacheable) {
    if (auto text = state_->records.cached(cache_key)) return answer(std::move(req), type, text);
  }
  // Read before the store is: a prune that deletes this game meanwhile keeps it out of the cache.
  const std::uint64_t generation = state_->records.generation();
  StoredRecord r;
  if (key && state_->store) r = stored_record(*state_->store, *key, game_no, format);
  auto fail = [this, &req](http::status status, std::string_view code, std::string message) {
    net::post(executor(), [self = shared_from_this(), req = std::move(req), status,
                           code = std::string(code), message = std::move(message)] {
      self->send(json_error(req, status, code, message));
    });
  };
  if (!r.found) {
    if (game_no != 0 && (live || (key && state_->store && state_->store->has_room(*key)))) {
      return fail(http::status::not_found, "unknown_game",
                  "room " + id + " has no game " + std::to_string(game_no));
    }
    return fail(http::status::not_found, "unknown_room", "there is no room '" + id + "'");
  }
  if (!r.error.empty()) {
    spdlog::error("room {}: the stored game does not replay: {}", *key, r.error);
    return fail(http::status::internal_server_error, "server_error",
                "the stored game does not replay: " + r.error);
  }
  auto text = std::make_shared<const std::string>(std::move(r.body));
  if (cacheable) state_->records.cache(cache_key, text, generation);
  answer(std::move(req), type, std::move(text));
}

// Any thread: sends a record from this session's strand.
void HttpSession::answer(Request req, std::string_view type, Text body) {
  net::post(executor(), [self = shared_from_this(), req = std::move(req), type,
                         body = std::move(body)]() mutable {
    self->send(shared_response(req, type, std::move(body)));
  });
}

}  // namespace bc::server
