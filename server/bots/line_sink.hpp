// Where a bot's stream goes (docs/BOTS.md): a long HTTP response of JSON lines, written as things
// happen. The network layer implements it (server/net/line_stream.hpp); the bots' service only
// pushes lines, from any thread, and learns when the client has gone.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace bc::server {

class LineSink {
 public:
  virtual ~LineSink() = default;
  // Queues one line (without its newline); nothing once the stream has ended. Any thread.
  virtual void push(std::shared_ptr<const std::string> line) = 0;
  // Ends the stream (the token was revoked, the server stops). Any thread.
  virtual void close() = 0;
  bool closed() const { return closed_.load(std::memory_order_acquire); }
  // `f` runs once when the stream ends, on whichever thread ends it (at once, here, if it has
  // ended: call it holding no lock that `f` takes).
  void on_close(std::function<void()> f) {
    std::unique_lock lock(mu_);
    if (!closed()) {
      on_close_.push_back(std::move(f));
      return;
    }
    lock.unlock();
    if (f) f();
  }

 protected:
  // The implementation's: the stream has ended (once).
  void ended() {
    std::vector<std::function<void()>> fs;
    {
      std::lock_guard lock(mu_);
      if (closed_.exchange(true, std::memory_order_acq_rel)) return;
      fs.swap(on_close_);
    }
    for (auto& f : fs) {
      if (f) f();
    }
  }

 private:
  std::mutex mu_;
  std::vector<std::function<void()>> on_close_;
  std::atomic<bool> closed_{false};
};

}  // namespace bc::server
