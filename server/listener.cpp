#include "server/listener.hpp"

#include <spdlog/spdlog.h>

#include "server/http_session.hpp"

namespace bc::server {

void fail(beast::error_code ec, const char* what) {
  if (ec == net::error::operation_aborted || ec == websocket::error::closed ||
      ec == http::error::end_of_stream || ec == net::error::eof ||
      ec == net::error::connection_reset || ec == beast::error::timeout ||
      ec == net::error::broken_pipe || ec == net::error::not_connected) {
    return;
  }
  spdlog::debug("{}: {}", what, ec.message());
}

Listener::Listener(net::io_context& ioc, std::shared_ptr<SharedState> state)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), state_(std::move(state)) {}

bool Listener::open(const tcp::endpoint& endpoint, beast::error_code& ec) {
  acceptor_.open(endpoint.protocol(), ec);
  if (ec) return false;
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (ec) return false;
  acceptor_.bind(endpoint, ec);
  if (ec) return false;
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return false;
  port_ = acceptor_.local_endpoint(ec).port();
  return !ec;
}

void Listener::run() {
  net::dispatch(acceptor_.get_executor(), beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
}

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ec;
    self->acceptor_.close(ec);
  });
}

void Listener::do_accept() {
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    fail(ec, "accept");
  } else {
    state_->metrics.connections_total.fetch_add(1, std::memory_order_relaxed);
    const auto open = state_->metrics.ws_open.load() + state_->metrics.http_open.load();
    if (open >= static_cast<std::int64_t>(state_->limits.max_connections) || state_->stopping) {
      spdlog::warn("refusing a connection: {} open (limit {})", open, state_->limits.max_connections);
      socket.close(ec);
    } else {
      // Small turn messages must not wait for Nagle.
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<HttpSession>(std::move(socket), state_)->run();
    }
  }
  do_accept();
}

}  // namespace bc::server
