// One HTTP connection: keep-alive requests one at a time; static files, the JSON API, /healthz,
// /metrics; hands `GET /ws` upgrades to a WebSocketSession.
#pragma once

#include <memory>
#include <optional>

#include "server/beast.hpp"
#include "server/shared_state.hpp"

namespace bc::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<SharedState> state);
  ~HttpSession();
  void run();

 private:
  using Request = http::request<http::string_body>;

  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void handle(Request req);
  void handle_game(Request req, std::string_view rest, const std::string& target);
  void send(http::message_generator msg);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace bc::server
