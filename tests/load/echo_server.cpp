// bc_echo_server: a bare Boost.Beast WebSocket echo server on 127.0.0.1, the baseline the game
// server's throughput is compared with (bc_loadtest --echo). Async, one thread by default; every
// message is written back as it came, one read and one write per connection at a time.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(tcp::socket&& socket) : ws_(std::move(socket)) {}

  void run() {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ec);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept(beast::bind_front_handler(&Session::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (!ec) do_read();
  }
  void do_read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }
  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return;
    ws_.text(ws_.got_text());
    ws_.async_write(buffer_.data(),
                    beast::bind_front_handler(&Session::on_write, shared_from_this()));
  }
  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return;
    buffer_.consume(buffer_.size());
    do_read();
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, tcp::endpoint ep) : ioc_(ioc), acceptor_(ioc) {
    acceptor_.open(ep.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen(net::socket_base::max_listen_connections);
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void run() { do_accept(); }

 private:
  void do_accept() {
    acceptor_.async_accept(net::make_strand(ioc_),
                           beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }
  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<Session>(std::move(socket))->run();
    do_accept();
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
};

int parse_int(std::string_view s, int lo, int hi, const char* what) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) {
    std::fprintf(stderr, "bc_echo_server: bad %s '%.*s'\n", what, static_cast<int>(s.size()),
                 s.data());
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0, threads = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--port" && i + 1 < argc) {
      port = parse_int(argv[++i], 0, 65535, "port");
    } else if (a == "--threads" && i + 1 < argc) {
      threads = parse_int(argv[++i], 1, 64, "thread count");
    } else {
      std::fprintf(stderr,
                   "usage: bc_echo_server [--port P (0: any free port)] [--threads N (default 1)]\n"
                   "Listens on 127.0.0.1 only; every WebSocket message is sent back.\n");
      return a == "--help" ? 0 : 2;
    }
  }
  net::io_context ioc(threads);
  std::shared_ptr<Listener> listener;
  try {
    listener = std::make_shared<Listener>(ioc, tcp::endpoint(net::ip::make_address_v4("127.0.0.1"),
                                                             static_cast<std::uint16_t>(port)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bc_echo_server: %s\n", e.what());
    return 1;
  }
  listener->run();
  net::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });
  std::printf("listening on http://127.0.0.1:%u\n", static_cast<unsigned>(listener->port()));
  std::fflush(stdout);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
  return 0;
}
