#include "test_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <stdexcept>

namespace bc::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

// Runs handlers until `done()` or the deadline.
template <class Pred>
bool run_until(net::io_context& ioc, Pred done, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!done()) {
    const auto now = Clock::now();
    if (now >= deadline) return false;
    if (ioc.stopped()) ioc.restart();
    ioc.run_one_for(deadline - now);
  }
  return true;
}

void connect_socket(net::io_context& ioc, beast::tcp_stream& stream, std::uint16_t port,
                    bool small_buffer = false, const std::string& local_address = "") {
  if (small_buffer || !local_address.empty()) stream.socket().open(tcp::v4());
  if (small_buffer) {
    // A small fixed receive window (no autotuning): a peer that does not read fills it quickly.
    stream.socket().set_option(net::socket_base::receive_buffer_size(4096));
  }
  // Another loopback address (127.0.0.2...): another client machine, as far as the server can tell.
  if (!local_address.empty())
    stream.socket().bind(tcp::endpoint(net::ip::make_address(local_address), 0));
  bool done = false;
  beast::error_code result;
  stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                       [&](beast::error_code ec) {
                         result = ec;
                         done = true;
                       });
  if (!run_until(
          ioc, [&] { return done; }, kWait))
    throw std::runtime_error("connect timed out");
  if (result) throw std::runtime_error("connect: " + result.message());
}

}  // namespace

struct WsClient::Impl {
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  std::deque<std::string> inbox;
  bool closed = false;
  bool reading = true;
  std::optional<int> close_code;

  void start_read() {
    ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
      if (ec) {
        closed = true;
        if (ec == websocket::error::closed) close_code = static_cast<int>(ws.reason().code);
        return;
      }
      inbox.push_back(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      start_read();
    });
  }

  void write(const std::string& data, bool text) {
    if (closed) return;
    bool done = false;
    beast::error_code result;
    ws.text(text);
    ws.async_write(net::buffer(data), [&](beast::error_code ec, std::size_t) {
      result = ec;
      done = true;
    });
    if (!run_until(
            ioc, [&] { return done; }, kWait))
      throw std::runtime_error("write timed out");
  }
};

WsClient::WsClient(std::uint16_t port, const std::string& target, bool read,
                   const std::string& origin, const std::string& local_address,
                   const Headers& headers)
    : impl_(std::make_unique<Impl>()) {
  connect_socket(impl_->ioc, beast::get_lowest_layer(impl_->ws), port, !read, local_address);
  if (!origin.empty() || !headers.empty()) {
    impl_->ws.set_option(
        websocket::stream_base::decorator([origin, headers](websocket::request_type& req) {
          if (!origin.empty()) req.set(http::field::origin, origin);
          for (const auto& [name, value] : headers) req.insert(name, value);
        }));
  }
  bool done = false;
  beast::error_code result;
  websocket::response_type response;
  impl_->ws.async_handshake(response, "127.0.0.1:" + std::to_string(port), target,
                            [&](beast::error_code ec) {
                              result = ec;
                              done = true;
                            });
  if (!run_until(
          impl_->ioc, [&] { return done; }, kWait))
    throw std::runtime_error("handshake timed out");
  if (result) {
    throw std::runtime_error("handshake: " + result.message() + " (HTTP " +
                             std::to_string(response.result_int()) + ")");
  }
  if (read) {
    impl_->start_read();
  } else {
    impl_->reading = false;
  }
}

WsClient::~WsClient() {
  if (!impl_->closed) {
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).socket().close(ec);
  }
  // Let the pending read complete with its error before the stream goes away.
  if (impl_->reading)
    run_until(
        impl_->ioc, [&] { return impl_->closed; }, 1s);
}

void WsClient::send(const json& msg) {
  impl_->write(msg.dump(), true);
}
void WsClient::send_text(const std::string& text) {
  impl_->write(text, true);
}
void WsClient::send_binary(const std::string& data) {
  impl_->write(data, false);
}

std::optional<json> WsClient::recv(std::chrono::milliseconds timeout) {
  run_until(
      impl_->ioc, [&] { return !impl_->inbox.empty() || impl_->closed; }, timeout);
  if (impl_->inbox.empty()) return std::nullopt;
  std::string text = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("server sent invalid JSON: " + text);
  return j;
}

json WsClient::expect(const std::string& type, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string seen;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    auto m = recv(left);
    if (!m) break;
    if ((*m)["type"] == type) return *m;
    seen += (*m)["type"].get<std::string>() + " ";
  }
  throw std::runtime_error("no '" + type + "' message arrived (saw: " + seen + ")");
}

std::string WsClient::expect_error(std::chrono::milliseconds timeout) {
  return expect("error", timeout)["code"].get<std::string>();
}

std::vector<json> WsClient::drain(std::chrono::milliseconds window) {
  std::vector<json> out;
  const auto deadline = Clock::now() + window;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    auto m = recv(left);
    if (!m) break;
    out.push_back(std::move(*m));
  }
  return out;
}

std::optional<int> WsClient::wait_closed(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!impl_->closed && Clock::now() < deadline) {
    recv(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
  }
  if (!impl_->closed) return std::nullopt;
  return impl_->close_code.value_or(-1);
}

bool WsClient::closed() const {
  return impl_->closed;
}

void WsClient::start_reading() {
  if (impl_->reading || impl_->closed) return;
  impl_->reading = true;
  impl_->start_read();
}

void WsClient::close() {
  if (impl_->closed) return;
  bool done = false;
  impl_->ws.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
  run_until(
      impl_->ioc, [&] { return done && impl_->closed; }, kWait);
}

// ---------------------------------------------------------------------------------------------

struct HttpClient::Impl {
  net::io_context ioc;
  beast::tcp_stream stream{ioc};
  beast::flat_buffer buffer;
  bool open = true;
};

HttpClient::HttpClient(std::uint16_t port, const std::string& local_address)
    : impl_(std::make_unique<Impl>()) {
  connect_socket(impl_->ioc, impl_->stream, port, false, local_address);
}

HttpClient::~HttpClient() {
  beast::error_code ec;
  impl_->stream.socket().shutdown(tcp::socket::shutdown_both, ec);
}

bool HttpClient::open() const {
  return impl_->open;
}

HttpResponse HttpClient::request(const std::string& method, const std::string& target,
                                 std::chrono::milliseconds timeout, const Headers& headers,
                                 const std::string& body) {
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  if (req.method() == http::verb::unknown) req.method_string(method);
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.insert(name, value);
  req.keep_alive(true);
  if (!body.empty()) {
    req.body() = body;
    req.prepare_payload();
  }
  bool done = false;
  beast::error_code result;
  http::async_write(impl_->stream, req, [&](beast::error_code ec, std::size_t) {
    result = ec;
    done = true;
  });
  if (!run_until(
          impl_->ioc, [&] { return done; }, timeout))
    throw std::runtime_error("http write timed out");
  if (result) throw std::runtime_error("http write: " + result.message());

  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  if (method == "HEAD") parser.skip(true);
  done = false;
  http::async_read(impl_->stream, impl_->buffer, parser, [&](beast::error_code ec, std::size_t) {
    result = ec;
    done = true;
  });
  if (!run_until(
          impl_->ioc, [&] { return done; }, timeout))
    throw std::runtime_error("http read timed out");
  if (result) throw std::runtime_error("http read: " + result.message());
  auto res = parser.release();
  HttpResponse out;
  out.status = static_cast<int>(res.result_int());
  out.body = std::move(res.body());
  for (const auto& f : res) {
    std::string name(f.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers[name] = std::string(f.value());
  }
  impl_->open = res.keep_alive();
  return out;
}

HttpResponse http_get(std::uint16_t port, const std::string& target, const std::string& method,
                      const std::string& local_address, const Headers& headers) {
  HttpClient c(port, local_address);
  return c.request(method, target, kWait, headers);
}

}  // namespace bc::test
