// Blocking test clients with a timeout on every operation, so a server bug fails a test instead of
// hanging it. Only test_client.cpp includes Boost.Beast.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bc::test {

using json = nlohmann::json;
using namespace std::chrono_literals;
inline constexpr std::chrono::milliseconds kWait = 5s;
// Extra request headers, sent in this order; a name may come more than once.
using Headers = std::vector<std::pair<std::string, std::string>>;

class WsClient {
 public:
  // Connects to ws://127.0.0.1:port/target; throws std::runtime_error on failure or timeout.
  // With read = false the client never reads (a peer that stops reading, for tests of the server's
  // send queue); recv() and expect() then find nothing.
  // A non-empty `origin` is sent as the handshake's Origin header; a refused handshake throws with
  // "(HTTP <status>)" in the message. A `local_address` (127.0.0.2, ...) is the client's source
  // address: another machine, as far as the server can tell. `headers` go with the handshake
  // (X-Forwarded-For, as a reverse proxy adds it).
  explicit WsClient(std::uint16_t port, const std::string& target = "/ws", bool read = true,
                    const std::string& origin = "", const std::string& local_address = "",
                    const Headers& headers = {});
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  void send(const json& msg);
  void send_text(const std::string& text);
  void send_binary(const std::string& data);
  // The next message, or nullopt on timeout or when the connection is closed.
  std::optional<json> recv(std::chrono::milliseconds timeout = kWait);
  // Skips messages until one of `type`; throws (failing the test) on timeout.
  json expect(const std::string& type, std::chrono::milliseconds timeout = kWait);
  // Skips messages until an error; returns its code.
  std::string expect_error(std::chrono::milliseconds timeout = kWait);
  // Messages that arrive within `window`, all of them.
  std::vector<json> drain(std::chrono::milliseconds window = 200ms);
  // Waits for the server to close; the close code, or nullopt on timeout.
  std::optional<int> wait_closed(std::chrono::milliseconds timeout = kWait);
  bool closed() const;
  void close();
  // A client made with read = false starts reading now (a slow link that catches up).
  void start_reading();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct HttpResponse {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// One keep-alive HTTP/1.1 connection.
class HttpClient {
 public:
  explicit HttpClient(std::uint16_t port, const std::string& local_address = "");
  ~HttpClient();
  // `target` is sent exactly as given (no normalization), so traversal attempts reach the server.
  // A non-empty `body` goes with a Content-Length (and the Content-Type the headers give).
  HttpResponse request(const std::string& method, const std::string& target,
                       std::chrono::milliseconds timeout = kWait, const Headers& headers = {},
                       const std::string& body = {});
  HttpResponse get(const std::string& target) { return request("GET", target); }
  bool open() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One request on a fresh connection.
HttpResponse http_get(std::uint16_t port, const std::string& target,
                      const std::string& method = "GET", const std::string& local_address = "",
                      const Headers& headers = {});

}  // namespace bc::test
