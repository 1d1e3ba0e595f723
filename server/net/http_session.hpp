// One HTTP connection: keep-alive requests one at a time; static files, the JSON API, /healthz,
// /metrics; hands `GET /ws` upgrades to a WebSocketSession.
//
// HttpSession holds everything that does not depend on the stream (limits, routing, the origin
// check) and is compiled once; a final class template in http_session.cpp adds the stream (plain
// TCP or TLS) through the virtual hooks below. Sessions are started by start_http_session and
// start_https_session.
#pragma once

#include <memory>
#include <optional>

#include "server/bots/line_sink.hpp"
#include "server/host/shared_state.hpp"
#include "server/net/beast.hpp"
#include "server/room/persist.hpp"

namespace boost::asio::ssl {
class context;
}

namespace bc::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  virtual ~HttpSession();
  // Reads the first request (after the TLS handshake on a TLS stream).
  virtual void run() = 0;

 protected:
  using Request = http::request<http::string_body>;

  // `buffer`: bytes already read from the connection (by TLS detection). With `redirect_to_https`
  // (a plain connection to a TLS server) requests are answered with a redirect to https://, except
  // the health and metrics endpoints.
  HttpSession(std::shared_ptr<SharedState> state, beast::flat_buffer buffer, bool redirect_to_https,
              AddressTicket slot);

  // The stream's half.
  virtual net::any_io_executor executor() = 0;
  virtual tcp::socket& socket() = 0;
  virtual void read() = 0;  // reads into parser_, then on_read
  virtual void write(http::message_generator msg, bool keep_alive) = 0;  // then on_write
  virtual void do_close() = 0;
  // Hands the stream to a WebSocketSession, with the connection's place in its address's count.
  virtual void upgrade(Request req, AddressTicket slot) = 0;
  // Turns the connection into a stream of lines (docs/BOTS.md), handed to `attach`; the session
  // reads no more requests.
  virtual void stream_lines(unsigned http_version,
                            std::function<void(std::shared_ptr<LineSink>)> attach) = 0;

  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);

  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  std::optional<http::request_parser<http::string_body>> parser_;
  AddressTicket slot_;  // this connection's place in its address's count; goes on to a WebSocket
  std::string client_;  // a trusted proxy's connection: the client of the request being handled

 private:
  void handle(Request req);
  void handle_game(Request req, std::string_view rest, const std::string& target);
  // The players' API (http_players.cpp): false if `path` is none of its paths.
  bool handle_players(Request& req, std::string_view path, const std::string& target);
  // The bots' API and tokens (http_bots.cpp): false if `path` is none of its paths.
  bool handle_bots(Request& req, std::string_view path);
  // Sends an answer of the accounts' or bots' API (from the session's executor).
  void send_answer(const Request& req, const AccountAnswer& out);
  void answer_stored(Request req, std::string_view type, RecordFormat format, const std::string& id,
                     int game_no, bool live);
  void answer(Request req, std::string_view type, Text body);
  // A trusted proxy's request: its client, from X-Forwarded-For, else the proxy's own address.
  void take_client(const Request& req);
  // The request's client's address, or empty.
  const std::string& address() const;
  void redirect_to_https(const Request& req);
  void send(http::message_generator msg);

  const bool redirect_to_https_;
};

// Serves HTTP (and ws://) on an accepted connection; `buffer` holds bytes already read from it.
void start_http_session(beast::tcp_stream stream, beast::flat_buffer buffer,
                        std::shared_ptr<SharedState> state, bool redirect_to_https,
                        AddressTicket slot);
// Serves HTTPS (and wss://): the TLS handshake first, with the bytes of `buffer` as its start.
void start_https_session(beast::tcp_stream stream, beast::flat_buffer buffer,
                         std::shared_ptr<SharedState> state, boost::asio::ssl::context& tls,
                         AddressTicket slot);

}  // namespace bc::server
