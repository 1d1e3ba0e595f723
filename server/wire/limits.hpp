// Every limit of the server, named in one place (docs/PROTOCOL.md lists them for clients). The
// defaults are the production values; tests shorten the times.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace bc::server {

struct Limits {
  // WebSocket
  std::size_t max_message_bytes = 8 * 1024;  // a larger frame closes the socket with 1009
  // A client that does not read is dropped when its queue passes any of these. The queue must
  // absorb bursts (a room's broadcasts arrive faster than writes complete), so the caps are large.
  std::size_t send_queue_max = 4096;                   // messages
  std::size_t send_queue_max_bytes = 4 * 1024 * 1024;  // bytes
  std::chrono::seconds send_stall_timeout{30};         // age of the oldest unsent message
  // Past either of these a connection is congested: a new state replaces its queued states (and
  // deltas) and chats to it are dropped, so a room's broadcasts never push it to the caps above.
  std::size_t send_queue_coalesce = 16;                // messages
  std::size_t send_queue_coalesce_bytes = 256 * 1024;  // bytes
  // Requests of one connection handed to its room and not yet handled; past this the connection
  // is not read until the room catches up (so a fast sender cannot queue unbounded work).
  std::size_t max_inflight_requests = 32;
  double rate_per_second = 20;  // token bucket refill
  double rate_burst = 40;       // token bucket size
  int flood_strikes = 100;      // rate-limited messages in flood_window -> close 1008
  std::chrono::seconds flood_window{10};
  std::chrono::seconds ws_idle_timeout{60};  // a peer that answers no ping for this long is dropped
  std::chrono::seconds handshake_timeout{30};

  // HTTP
  std::chrono::seconds http_timeout{30};  // per request read and write, keep-alive idle
  std::size_t http_header_max = 8 * 1024;
  std::size_t http_body_max = 2048;  // GET and HEAD, and the players' small JSON posts
  // /api/ requests of one client IP (all its connections together; /healthz and /metrics are not
  // counted): a token bucket. Past it: 429 with Retry-After.
  double api_rate_per_second = 10;
  double api_burst = 40;
  // /metrics of one client IP: a bucket of its own, so neither holds the other up. A scraper asks
  // every few seconds; a flood (2,966 a second from one address moved other players' p50 from 1.8
  // to 5.0 ms: issue 31) gets 429.
  double metrics_rate_per_second = 20;
  double metrics_burst = 100;
  // Game records (/api/games/...) are read from the store and replayed on threads of their own,
  // never on an I/O thread. At most this many at once in all (past it: 503), and per client IP
  // (past it: 429); finished games' records are cached up to record_cache_bytes.
  unsigned record_threads = 1;
  std::size_t record_jobs_max = 16;
  std::size_t record_jobs_per_address = 2;
  std::size_t record_cache_bytes = 32 * 1024 * 1024;

  // Rooms
  std::size_t chat_max_chars = 500;  // code points, after control characters are removed
  std::size_t name_max_chars = 32;
  // Chat: each member's own token bucket, and one shared by all the spectators of a room, so that
  // spectators together cannot flood the players (the players' chat does not take from it).
  double chat_per_second = 1;
  double chat_burst = 5;
  double spectator_chat_per_second = 3;
  double spectator_chat_burst = 10;
  // A spectator's join or leave changes only the `spectators` count: the room sends it at most this
  // often (with the next state, or a state of its own), not a state to everyone per join.
  std::chrono::milliseconds spectators_update{1000};
  // Clocked games: each side's first turn must come within this, or the game is aborted.
  std::chrono::milliseconds abort_after{30'000};
  // How long a player of a clocked game may be gone before the opponent may claim the game; 0:
  // by the time control (20 s under 8 estimated minutes, 60 s up to 25, then 120 s).
  std::chrono::milliseconds claim_after{0};
  // `presence` (players' lag) is sent at most this often, for a change of at least 20 ms.
  std::chrono::milliseconds presence_every{2'000};
  std::size_t max_rooms = 10000;
  std::size_t max_connections = 10000;
  // Per client IP address, 0 = no limit. Behind a reverse proxy every client has the proxy's
  // address, unless the proxy is trusted (serve --trusted-proxy): then each client has the address
  // the proxy's X-Forwarded-For gives, in these and every other per-address limit. Without that,
  // raise these there (serve --max-connections-per-address, --max-rooms-per-address).
  std::size_t max_connections_per_address = 128;
  // Rooms made by one address and not yet retired. At the limit, a create first retires that
  // address's oldest room with nobody in it and no game under way; only if there is none is it
  // refused (too_many_rooms).
  std::size_t max_rooms_per_address = 32;
  // Messages of all an address's connections together (a token bucket shared by them, on top of
  // each connection's own): a reconnect starts no fresh budget. 0 = no limit.
  double address_rate_per_second = 60;
  double address_rate_burst = 120;
  // `join`s of one address (re-joins with a token too), a token bucket of this many a minute.
  std::size_t joins_per_address_per_minute = 60;
  // `create`s of one address: this many a minute in bursts of 3x (a class behind one address can
  // start its games at once; a script cannot fill the disk with rooms). 0 = no limit.
  std::size_t creates_per_address_per_minute = 10;
  // `analyse` requests of one address, a token bucket of this many a minute (a history takes
  // kHistoryCost); each is up to a second of a computer thread. 0 = no limit.
  std::size_t analyses_per_address_per_minute = 30;
  // Values for watchers (docs/PROTOCOL.md): how many turns behind a live game; 0: none.
  int watch_lag = 4;
  // Spectators of one room from one address; a further spectator `join` gets too_many_spectators.
  std::size_t spectators_per_room_per_address = 16;
  std::chrono::seconds empty_room_ttl{15 * 60};          // nobody connected
  std::chrono::seconds finished_empty_room_ttl{2 * 60};  // game over and nobody connected
  std::chrono::seconds finished_room_ttl{60 * 60};       // game over, no rematch, people idle
  std::chrono::seconds sweep_interval{30};               // how often rooms are checked
  // How often the store is pruned by the retention policy (ServerConfig::retention) and measured
  // for the bc_store_* metrics; also once at start.
  std::chrono::milliseconds store_maintenance_interval{10 * 60 * 1000};

  // The computer's searches (server/host/computer_pool.hpp). Threads that run every level, 0 = half
  // the cores (at least 1); one more runs only the quick levels (1..4). Searches waiting for a
  // thread: past this the address with the most waiting has its newest put off, retried 2 s later.
  unsigned computer_threads = 0;
  std::size_t computer_queue_max = 1000;
};

// Requests refused by a per-address or per-room limit (metrics: bc_limited_total by limit; each is
// also counted in refusals by its error code).
enum class Limited : std::uint8_t {
  AddressMessages,  // the address's message bucket was empty (rate_limited)
  AddressJoins,     // the address's join bucket was empty (rate_limited)
  MemberChat,       // the member's (a player's: the seat's) chat bucket was empty (rate_limited)
  SpectatorChat,    // the room's spectators' chat bucket was empty (rate_limited)
  RoomSpectators,   // the address already has its spectators in the room (too_many_spectators)
  AddressCreates,   // the address's create bucket was empty (rate_limited)
  AddressAnalyses,  // the address's analyse bucket was empty (rate_limited)
};
inline constexpr std::size_t kLimitedCount = 7;

// What an `analyse` with `history` takes from its address's bucket (a plain one takes 1).
inline constexpr double kHistoryCost = 5.0;

}  // namespace bc::server
