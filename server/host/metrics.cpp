#include "server/host/metrics.hpp"

#include <cstdio>

#include "server/host/process_metrics.hpp"

namespace bc::server {

namespace {

void line(std::string& out, std::string_view text) {
  out += text;
  out += '\n';
}

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

template <class T>
void value(std::string& out, std::string_view name, std::string_view labels, T v) {
  out += name;
  if (!labels.empty()) {
    out += '{';
    out += labels;
    out += '}';
  }
  out += ' ';
  out += std::to_string(v);
  out += '\n';
}

std::string fmt_double(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

void counter(std::string& out, std::string_view name, std::string_view help,
             const std::atomic<std::uint64_t>& v) {
  header(out, name, "counter", help);
  value(out, name, "", v.load(std::memory_order_relaxed));
}

}  // namespace

void Histogram::observe(std::chrono::nanoseconds d) {
  const double s = std::chrono::duration<double>(d).count();
  std::size_t i = 0;
  while (i < kBounds.size() && s > kBounds[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(d.count() < 0 ? 0 : d.count()),
                    std::memory_order_relaxed);
}

void Histogram::render(std::string& out, std::string_view name, std::string_view help) const {
  header(out, name, "histogram", help);
  std::uint64_t cumulative = 0;
  const std::string bucket = std::string(name) + "_bucket";
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    value(out, bucket, "le=\"" + fmt_double(kBounds[i]) + "\"", cumulative);
  }
  cumulative += buckets_[kBounds.size()].load(std::memory_order_relaxed);
  value(out, bucket, "le=\"+Inf\"", cumulative);
  out += std::string(name) + "_sum " +
         fmt_double(static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9) + "\n";
  value(out, std::string(name) + "_count", "", cumulative);
}

std::string Metrics::prometheus(const RoomCounts& rooms) const {
  std::string out;
  out.reserve(4096);
  header(out, "bc_connections_open", "gauge", "Open connections by protocol.");
  value(out, "bc_connections_open", "protocol=\"websocket\"",
        ws_open.load(std::memory_order_relaxed));
  value(out, "bc_connections_open", "protocol=\"http\"", http_open.load(std::memory_order_relaxed));
  counter(out, "bc_connections_total", "Accepted TCP connections.", connections_total);

  header(out, "bc_rooms", "gauge", "Rooms by status.");
  constexpr std::array<std::string_view, 3> kStatus{"waiting", "playing", "finished"};
  for (std::size_t i = 0; i < 3; ++i) {
    value(out, "bc_rooms", "status=\"" + std::string(kStatus[i]) + "\"", rooms.by_status[i]);
  }
  counter(out, "bc_rooms_created_total", "Rooms created.", rooms_created);
  counter(out, "bc_rooms_retired_total", "Rooms retired after emptying or finishing.",
          rooms_retired);
  counter(out, "bc_games_finished_total", "Games that reached a result.", games_finished);
  counter(out, "bc_messages_received_total", "WebSocket messages received.", messages_received);
  counter(out, "bc_actions_accepted_total", "Game actions accepted.", actions_accepted);

  header(out, "bc_refusals_total", "counter", "Refused client requests by error code.");
  for (std::size_t i = 0; i < kErrorCodeCount; ++i) {
    value(out, "bc_refusals_total",
          "code=\"" + std::string(error_code_name(static_cast<ErrorCode>(i))) + "\"",
          refusals_[i].load(std::memory_order_relaxed));
  }
  header(out, "bc_limited_total", "counter",
         "Requests refused by a per-address or per-room limit, by limit.");
  constexpr std::array<std::string_view, kLimitedCount> kLimited{
      "address_messages", "address_joins",   "member_chat",     "spectator_chat",
      "room_spectators",  "address_creates", "address_analyses"};
  for (std::size_t i = 0; i < kLimitedCount; ++i) {
    value(out, "bc_limited_total", "limit=\"" + std::string(kLimited[i]) + "\"",
          limited_[i].load(std::memory_order_relaxed));
  }
  header(
      out, "bc_messages_shed_total", "counter",
      "Messages not sent to congested connections: states replaced by a newer one, chats dropped.");
  value(out, "bc_messages_shed_total", "kind=\"state\"", shed_[0].load(std::memory_order_relaxed));
  value(out, "bc_messages_shed_total", "kind=\"chat\"", shed_[1].load(std::memory_order_relaxed));
  counter(
      out, "bc_spectator_updates_coalesced_total",
      "Spectator joins and leaves whose state went to the joiner alone; the count follows within "
      "spectators_update.",
      spectator_updates_coalesced);
  counter(out, "bc_http_requests_total", "HTTP requests answered.", http_requests);
  counter(out, "bc_slow_clients_dropped_total", "Connections dropped for a full send queue.",
          slow_clients_dropped);
  counter(out, "bc_flooders_closed_total", "Connections closed with 1008 for flooding.",
          flooders_closed);
  counter(out, "bc_oversized_closed_total", "Connections closed with 1009 for a too large frame.",
          oversized_closed);
  move_to_broadcast.render(out, "bc_move_broadcast_seconds",
                           "From an act frame read to its new state queued for every member.");
  header(out, "bc_http_responses_total", "counter", "HTTP responses by status class.");
  for (std::size_t i = 0; i < http_responses.size(); ++i) {
    value(out, "bc_http_responses_total", "class=\"" + std::to_string(i + 1) + "xx\"",
          http_responses[i].load(std::memory_order_relaxed));
  }
  counter(out, "bc_api_rate_limited_total",
          "/api/ and /metrics requests refused with 429: their address's request rate was spent.",
          api_rate_limited);
  counter(out, "bc_records_refused_total",
          "Game record requests refused with 429 or 503: too many were being prepared.",
          records_refused);
  counter(out, "bc_origin_refused_total", "WebSocket upgrades refused with 403 for their Origin.",
          origin_refused);
  counter(out, "bc_accept_errors_total",
          "Accepts that failed (out of descriptors, say); each is retried after a growing pause.",
          accept_errors);
  counter(out, "bc_address_refused_total",
          "Connections closed at accept, or WebSocket upgrades via a trusted proxy refused with "
          "429: their address had max_connections_per_address open.",
          address_refused);
  counter(out, "bc_forwarded_requests_total",
          "HTTP requests and WebSocket upgrades of a trusted proxy (serve --trusted-proxy) whose "
          "client address came from X-Forwarded-For.",
          forwarded_requests);
  counter(out, "bc_rooms_evicted_total",
          "Idle rooms retired early because their address made a new one at its room limit.",
          rooms_evicted);
  counter(out, "bc_shutdown_notices_total", "server_restarting notices sent at shutdown.",
          shutdown_notices);
  counter(out, "bc_tls_handshake_failures_total", "TLS handshakes that failed (serve --tls-cert).",
          tls_handshake_failures);
  header(out, "bc_computer_queue_depth", "gauge", "Computer searches waiting for a thread.");
  value(out, "bc_computer_queue_depth", "", computer_queued.load(std::memory_order_relaxed));
  header(out, "bc_computer_searches_running", "gauge", "Computer searches under way.");
  value(out, "bc_computer_searches_running", "", computer_running.load(std::memory_order_relaxed));
  counter(out, "bc_computer_searches_total", "Computer searches started.", computer_searches);
  header(out, "bc_computer_searches_dropped_total", "counter",
         "Computer searches put off: nobody was in the room, or the queue was full (retried).");
  value(out, "bc_computer_searches_dropped_total", "reason=\"unwatched\"",
        computer_dropped_unwatched.load(std::memory_order_relaxed));
  value(out, "bc_computer_searches_dropped_total", "reason=\"queue_full\"",
        computer_dropped_full.load(std::memory_order_relaxed));
  computer_wait.render(out, "bc_computer_queue_wait_seconds",
                       "From a computer search queued to a thread starting it.");
  header(out, "bc_build_info", "gauge", "The server's version (always 1).");
  value(out, "bc_build_info", "version=\"" + std::string(kServerVersion) + "\"", 1);
  append_process_metrics(out);
  line(out, "");
  return out;
}

std::string store_prometheus(const store::Store& store) {
  std::string out;
  const auto [db, wal] = store.file_bytes();
  const store::Stats st = store.stats();
  header(out, "bc_store_file_bytes", "gauge",
         "The database's files on disk (0 for an in-memory store), by file; PostgreSQL: its "
         "tables as last measured, as file=database.");
  value(out, "bc_store_file_bytes", "file=\"database\"", db);
  value(out, "bc_store_file_bytes", "file=\"wal\"", wal);
  header(out, "bc_store_free_bytes", "gauge",
         "Pages of the database file that hold nothing, as last measured (compact gives them "
         "back); 0 on PostgreSQL, not measured.");
  value(out, "bc_store_free_bytes", "", st.size.free_bytes);
  header(out, "bc_store_rows", "gauge", "Rows in the store as last measured, by table.");
  value(out, "bc_store_rows", "table=\"rooms\"", st.size.rooms);
  value(out, "bc_store_rows", "table=\"games\"", st.size.games);
  value(out, "bc_store_rows", "table=\"actions\"", st.size.actions);
  header(out, "bc_store_pruned_total", "counter",
         "Rows deleted by the retention policy since the start, by table.");
  value(out, "bc_store_pruned_total", "table=\"rooms\"", st.pruned.rooms);
  value(out, "bc_store_pruned_total", "table=\"games\"", st.pruned.games);
  value(out, "bc_store_pruned_total", "table=\"actions\"", st.pruned.actions);
  header(out, "bc_store_prunes_total", "counter", "Retention passes run.");
  value(out, "bc_store_prunes_total", "", st.prunes);
  header(out, "bc_store_prune_failures_total", "counter",
         "Retention transactions that failed (their rows are tried again next pass).");
  value(out, "bc_store_prune_failures_total", "", st.prune_failures);
  header(out, "bc_store_writes_total", "counter", "Rows written (group commit).");
  value(out, "bc_store_writes_total", "", st.writes);
  header(out, "bc_store_commits_total", "counter",
         "Batches the writer ran (one transaction each; failed ones count in write failures).");
  value(out, "bc_store_commits_total", "", st.commits);
  header(out, "bc_store_write_failures_total", "counter", "Submissions whose writes failed.");
  value(out, "bc_store_write_failures_total", "", st.failures);
  return out;
}

}  // namespace bc::server
