// A LineSink on an HTTP connection (docs/BOTS.md, "Streams"): a 200 response of JSON lines, sent
// chunked (HTTP/1.1) and never finished while its subject lasts. One write at a time; an empty
// line after `keepalive` without one; the client's close (or a write stuck for kWriteTimeout, or a
// queue past kMaxQueued lines: a reader that does not read) ends it. Included by http_session.cpp
// only, for its two streams (plain and TLS).
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <string>

#include "server/bots/line_sink.hpp"
#include "server/host/shared_state.hpp"
#include "server/net/beast.hpp"

namespace bc::server {

template <class Stream>
class LineStream final : public LineSink, public std::enable_shared_from_this<LineStream<Stream>> {
 public:
  static constexpr std::size_t kMaxQueued = 512;
  static constexpr std::chrono::seconds kWriteTimeout{30};

  LineStream(Stream&& stream, AddressTicket slot, std::chrono::milliseconds keepalive)
      : stream_(std::move(stream)),
        slot_(std::move(slot)),
        keepalive_(keepalive),
        idle_(stream_.get_executor()),
        stuck_(stream_.get_executor()) {}

  // Writes the response's head, then hands the sink to `attach` (which pushes the first lines).
  void start(unsigned http_version, const std::function<void(std::shared_ptr<LineSink>)>& attach) {
    beast::get_lowest_layer(stream_).expires_never();
    chunked_ = http_version >= 11;
    std::string head = http_version >= 11 ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.0 200 OK\r\n";
    head +=
        "Content-Type: application/x-ndjson\r\nCache-Control: no-store\r\n"
        "X-Content-Type-Options: nosniff\r\nConnection: close\r\n";
    if (chunked_) head += "Transfer-Encoding: chunked\r\n";
    head += "\r\n";
    queue_.push_back(std::move(head));
    write_next();
    read_until_closed();
    attach(this->shared_from_this());
  }

  void push(std::shared_ptr<const std::string> line) override {
    if (closed()) return;
    net::post(stream_.get_executor(), [self = this->shared_from_this(), line = std::move(line)] {
      self->queue_line(*line);
    });
  }

  void close() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] { self->finish(); });
  }

 private:
  void queue_line(const std::string& line) {
    if (done_) return;
    if (queue_.size() >= kMaxQueued) return finish();
    std::string text = line + "\n";
    if (chunked_) {
      char size[20];
      std::snprintf(size, sizeof size, "%zx\r\n", text.size());
      text = size + text + "\r\n";
    }
    queue_.push_back(std::move(text));
    write_next();
  }

  void write_next() {
    if (writing_ || done_ || queue_.empty()) return;
    writing_ = true;
    idle_.cancel();
    stuck_.expires_after(kWriteTimeout);
    stuck_.async_wait([weak = this->weak_from_this()](beast::error_code ec) {
      if (auto self = weak.lock(); self && !ec) self->finish();
    });
    net::async_write(stream_, net::buffer(queue_.front()),
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                       self->on_write(ec);
                     });
  }

  void on_write(beast::error_code ec) {
    writing_ = false;
    stuck_.cancel();
    if (ec) return finish();
    queue_.pop_front();
    if (!queue_.empty()) return write_next();
    if (done_) return;
    idle_.expires_after(keepalive_);
    idle_.async_wait([weak = this->weak_from_this()](beast::error_code e) {
      auto self = weak.lock();
      if (!self || e || self->done_) return;
      static const std::string kEmpty;
      self->queue_line(kEmpty);
    });
  }

  // The client sends nothing after its request; a read ends only when it closes (or errs).
  void read_until_closed() {
    stream_.async_read_some(net::buffer(scratch_),
                            [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                              if (ec) return self->finish();
                              self->read_until_closed();
                            });
  }

  void finish() {
    if (done_) return;
    done_ = true;
    idle_.cancel();
    stuck_.cancel();
    beast::error_code ec;
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(stream_).close();
    ended();  // first: its callbacks use the bots' service, which the slot keeps alive
    // The slot holds the server's shared state, which holds the bots' service, which may hold
    // this stream until it next looks: let go of it.
    slot_.reset();
  }

  Stream stream_;
  AddressTicket slot_;  // the connection's place in its address's count, held while it streams
  std::chrono::milliseconds keepalive_;
  net::steady_timer idle_;   // the keep-alive line's
  net::steady_timer stuck_;  // a write's deadline
  std::deque<std::string> queue_;
  std::array<char, 256> scratch_{};
  bool chunked_ = true;
  bool writing_ = false;
  bool done_ = false;
};

}  // namespace bc::server
