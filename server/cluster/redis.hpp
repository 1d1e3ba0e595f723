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

// Where a Redis is, and the login it asks for (AUTH; none when the password is empty).
struct RedisAddress {
  std::string host;
  int port = 6379;
  std::string user;  // Redis 6 ACL user; empty: the default user
  std::string password;
};
// redis://[[user]:password@]host[:port][/] (no database number, no TLS: Debian's hiredis 0.14 has
// none); nullopt if it is not one. The password is taken as written (no %-escapes): one with an
// '@' or a '/' comes from a file (serve --redis-password-file).
std::optional<RedisAddress> redis_address(std::string_view url);
// The URL as logs may show it: the password replaced by "***".
std::string redis_url_for_log(std::string_view url);

class Redis {
 public:
  using Command = std::vector<std::string>;
  Redis(std::string host, int port, std::chrono::milliseconds timeout);
  Redis(RedisAddress where, std::chrono::milliseconds timeout);
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
  RedisAddress where_;
  std::chrono::milliseconds timeout_;
  redisContext* ctx_ = nullptr;
  std::string error_;
};

}  // namespace bc::server
