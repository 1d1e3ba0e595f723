// Accepts TCP connections and starts an HttpSession on each (its own strand).
#pragma once

#include <memory>

#include "server/beast.hpp"
#include "server/shared_state.hpp"

namespace bc::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, std::shared_ptr<SharedState> state);
  // Opens, binds and listens; false (and ec set) on failure.
  bool open(const tcp::endpoint& endpoint, beast::error_code& ec);
  std::uint16_t port() const { return port_; }
  void run();
  void stop();

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  std::shared_ptr<SharedState> state_;
  std::uint16_t port_ = 0;
};

}  // namespace bc::server
