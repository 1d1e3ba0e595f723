#include "server/net/listener.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/ssl/error.hpp>

#include "server/host/serial.hpp"
#include "server/host/trusted_proxies.hpp"
#include "server/net/http_session.hpp"

namespace bc::server {

void fail(beast::error_code ec, const char* what) {
  if (ec == net::error::operation_aborted || ec == websocket::error::closed ||
      ec == http::error::end_of_stream || ec == net::error::eof ||
      ec == net::error::connection_reset || ec == beast::error::timeout ||
      ec == net::error::broken_pipe || ec == net::error::not_connected ||
      ec == net::ssl::error::stream_truncated) {  // a TLS peer that closed without close_notify
    return;
  }
  spdlog::debug("{}: {}", what, ec.message());
}

namespace {

// TLS on: reads the first bytes of a connection; a TLS ClientHello goes to an HTTPS session,
// anything else to a plain one that redirects to https://. Counted as an open HTTP connection
// meanwhile, so the connection limit and shutdown see it.
class TlsDetector : public std::enable_shared_from_this<TlsDetector> {
 public:
  TlsDetector(tcp::socket&& socket, std::shared_ptr<SharedState> state, net::ssl::context& tls,
              AddressTicket slot)
      : stream_(std::move(socket)), state_(std::move(state)), tls_(tls), slot_(std::move(slot)) {
    state_->metrics.http_open.fetch_add(1, std::memory_order_relaxed);
  }
  ~TlsDetector() { state_->metrics.http_open.fetch_sub(1, std::memory_order_relaxed); }

  void run() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      self->stream_.expires_after(self->state_->limits.handshake_timeout);
      beast::async_detect_ssl(self->stream_, self->buffer_,
                              beast::bind_front_handler(&TlsDetector::on_detect, self));
    });
  }

 private:
  void on_detect(beast::error_code ec, bool tls) {
    if (ec) return fail(ec, "tls detect");
    if (tls) {
      start_https_session(std::move(stream_), std::move(buffer_), state_, tls_, slot_);
    } else {
      start_http_session(std::move(stream_), std::move(buffer_), state_, true, slot_);
    }
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  net::ssl::context& tls_;
  AddressTicket slot_;
};

}  // namespace

Listener::Listener(net::io_context& ioc, std::shared_ptr<SharedState> state, net::ssl::context* tls)
    : ioc_(ioc),
      acceptor_(net::make_strand(ioc)),
      state_(std::move(state)),
      tls_(tls),
      retry_(acceptor_.get_executor()) {}

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
  net::dispatch(acceptor_.get_executor(),
                beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
}

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ec;
    self->acceptor_.close(ec);
    self->retry_.cancel();
  });
}

void Listener::do_accept() {
  // Each connection's handlers never run concurrently (its own strand, or the one I/O thread).
  acceptor_.async_accept(serial_executor(ioc_, state_->config.threads <= 1),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) return retry_later(ec);
  backoff_ = std::chrono::milliseconds(0);
  start_session(std::move(socket));
  do_accept();
}

void Listener::start_session(tcp::socket socket) {
  beast::error_code ec;
  state_->metrics.connections_total.fetch_add(1, std::memory_order_relaxed);
  const auto open = state_->metrics.ws_open.load() + state_->metrics.http_open.load();
  if (open >= static_cast<std::int64_t>(state_->limits.max_connections) || state_->stopping) {
    if (log_refusal()) {
      spdlog::warn("refusing connections: {} open (limit {}){}", open,
                   state_->limits.max_connections, unlogged_note());
    }
    socket.close(ec);
    return;
  }
  const auto remote = socket.remote_endpoint(ec);
  std::string address = ec ? std::string("?") : remote.address().to_string();
  // A trusted proxy's connection counts only against the limit above; the per-address limits
  // apply to its clients, request by request (HttpSession).
  const bool proxy = !ec && state_->config.trusted_proxies.contains(address);
  auto slot = proxy ? SharedState::admit_proxy(state_, address)
                    : SharedState::admit(state_, limit_key(address));
  if (!slot) {
    state_->metrics.address_refused.fetch_add(1, std::memory_order_relaxed);
    if (log_refusal()) {
      spdlog::info("refusing connections from {}: it has {} open (the limit per address){}",
                   address, state_->limits.max_connections_per_address, unlogged_note());
    }
    socket.close(ec);
    return;
  }
  // Small turn messages must not wait for Nagle.
  socket.set_option(tcp::no_delay(true), ec);
  if (tls_) {
    std::make_shared<TlsDetector>(std::move(socket), state_, *tls_, std::move(slot))->run();
  } else {
    start_http_session(beast::tcp_stream(std::move(socket)), {}, state_, false, std::move(slot));
  }
}

bool Listener::log_refusal() {
  const auto now = std::chrono::steady_clock::now();
  if (last_refusal_log_ != std::chrono::steady_clock::time_point{} &&
      now - last_refusal_log_ < std::chrono::seconds(10)) {
    ++refusals_unlogged_;
    return false;
  }
  last_refusal_log_ = now;
  return true;
}

std::string Listener::unlogged_note() {
  if (refusals_unlogged_ == 0) return {};
  std::string note =
      "; " + std::to_string(refusals_unlogged_) + " more refused since the last line";
  refusals_unlogged_ = 0;
  return note;
}

void Listener::retry_later(beast::error_code ec) {
  using std::chrono::milliseconds;
  // Retrying at once would spin: the error (EMFILE, ENFILE, ENOBUFS) lasts until something closes.
  state_->metrics.accept_errors.fetch_add(1, std::memory_order_relaxed);
  if (backoff_.count() == 0) {
    spdlog::warn("cannot accept connections: {}; retrying in 10 ms, then less often (up to 1 s)",
                 ec.message());
  }
  backoff_ = std::clamp(backoff_ * 2, milliseconds(10), milliseconds(1000));
  retry_.expires_after(backoff_);
  retry_.async_wait([self = shared_from_this()](beast::error_code e) {
    if (!e && self->acceptor_.is_open()) self->do_accept();
  });
}

}  // namespace bc::server
