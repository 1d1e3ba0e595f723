// Accepts TCP connections and starts an HttpSession on each (its own strand); with TLS on, looks
// at the first bytes to tell a TLS client from a plain one.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "server/host/shared_state.hpp"
#include "server/net/beast.hpp"

namespace boost::asio::ssl {
class context;
}

namespace bc::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // `tls`: the server's TLS context (outlives the listener), or null for plain HTTP only.
  Listener(net::io_context& ioc, std::shared_ptr<SharedState> state, net::ssl::context* tls);
  // Opens, binds and listens; false (and ec set) on failure.
  bool open(const tcp::endpoint& endpoint, beast::error_code& ec);
  std::uint16_t port() const { return port_; }
  void run();
  void stop();

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);
  // Closes it at once over the connection limits, else hands it to an HTTP session.
  void start_session(tcp::socket socket);
  // An accept failed (out of descriptors, say): try again after a pause that doubles each time.
  void retry_later(beast::error_code ec);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  std::shared_ptr<SharedState> state_;
  net::ssl::context* tls_;
  std::uint16_t port_ = 0;
  net::steady_timer retry_;
  std::chrono::milliseconds backoff_{0};  // 0 after a good accept
  // Refusals are logged at most every 10 s, with how many there were: a flood of connections
  // must not become a flood of log lines.
  bool log_refusal();
  std::string unlogged_note();  // "; N more refused since the last line", then counts again
  std::chrono::steady_clock::time_point last_refusal_log_{};
  std::uint64_t refusals_unlogged_ = 0;
};

}  // namespace bc::server
