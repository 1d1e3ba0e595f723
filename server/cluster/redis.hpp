// One synchronous hiredis connection (Debian's libhiredis), used by one thread at a time: the
// cluster's command thread or its subscriber thread (server/cluster/cluster.cpp), never an I/O
// thread. Commands go out pipelined; a broken connection is reopened at the next call.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;

namespace bc::server {

struct RedisReply {
  enum class Kind : std::uint8_t { Nil, String, Integer, Array, Status, Error };
  Kind kind = Kind::Nil;
  std::string str;  // String, Status, Error
  long long integer = 0;
  std::vector<RedisReply> elements;
  bool nil() const { return kind == Kind::Nil; }
  bool error() const { return kind == Kind::Error; }
};

// redis://host[:port][/] (no password, no database number yet); false if it is not one.
bool parse_redis_url(std::string_view url, std::string& host, int& port);

class Redis {
 public:
  using Command = std::vector<std::string>;
  Redis(std::string host, int port, std::chrono::milliseconds timeout);
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  // The commands in one pipeline, their replies in order; nullopt if the connection failed (it
  // is reopened at the next call) or timed out.
  std::optional<std::vector<RedisReply>> pipeline(const std::vector<Command>& commands);
  std::optional<RedisReply> command(const Command& c);
  // Subscriber side: SUBSCRIBE on a fresh connection; then next_message() waits up to the
  // timeout for a message on it: its payload, nullopt on a timeout (`broken` set when the
  // connection failed: subscribe again).
  bool subscribe(const std::string& channel);
  std::optional<std::string> next_message(bool& broken);
  const std::string& last_error() const { return error_; }

 private:
  bool connect();
  void drop();
  std::string host_;
  int port_;
  std::chrono::milliseconds timeout_;
  redisContext* ctx_ = nullptr;
  std::string error_;
};

}  // namespace bc::server
