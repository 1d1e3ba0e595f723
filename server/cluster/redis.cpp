#include "server/cluster/redis.hpp"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/time.h>

#include <charconv>

namespace bc::server {

namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

RedisReply convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.kind = RedisReply::Kind::String;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.kind = RedisReply::Kind::Status;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.kind = RedisReply::Kind::Error;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.kind = RedisReply::Kind::Integer;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.kind = RedisReply::Kind::Array;
      for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

}  // namespace

std::optional<RedisAddress> redis_address(std::string_view url) {
  constexpr std::string_view kScheme = "redis://";
  if (!url.starts_with(kScheme)) return std::nullopt;
  url.remove_prefix(kScheme.size());
  if (!url.empty() && url.back() == '/') url.remove_suffix(1);
  RedisAddress a;
  if (const auto at = url.rfind('@'); at != std::string_view::npos) {
    const auto login = url.substr(0, at);
    url = url.substr(at + 1);
    const auto colon = login.find(':');
    if (colon == std::string_view::npos) return std::nullopt;  // a user needs its password
    a.user = std::string(login.substr(0, colon));
    a.password = std::string(login.substr(colon + 1));
    if (a.password.empty()) return std::nullopt;
  }
  if (url.empty() || url.find_first_of("/@?") != std::string_view::npos) return std::nullopt;
  if (const auto colon = url.rfind(':'); colon != std::string_view::npos) {
    const auto digits = url.substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), a.port);
    if (ec != std::errc() || end != digits.data() + digits.size() || a.port < 1 || a.port > 65535)
      return std::nullopt;
    url = url.substr(0, colon);
  }
  if (url.empty()) return std::nullopt;
  a.host = std::string(url);
  return a;
}

std::string redis_url_for_log(std::string_view url) {
  const auto at = url.rfind('@');
  const auto colon = url.find(':', std::string_view("redis://").size());
  if (at == std::string_view::npos || colon == std::string_view::npos || colon > at) {
    return std::string(url);
  }
  return std::string(url.substr(0, colon + 1)) + "***" + std::string(url.substr(at));
}

Redis::Redis(std::string host, int port, std::chrono::milliseconds timeout)
    : Redis(RedisAddress{std::move(host), port, {}, {}}, timeout) {}

Redis::Redis(RedisAddress where, std::chrono::milliseconds timeout)
    : where_(std::move(where)), timeout_(timeout) {}

Redis::~Redis() {
  drop();
}

void Redis::drop() {
  if (ctx_) redisFree(ctx_);
  ctx_ = nullptr;
}

bool Redis::connect() {
  if (ctx_) return true;
  ctx_ = redisConnectWithTimeout(where_.host.c_str(), where_.port, to_timeval(timeout_));
  if (!ctx_ || ctx_->err) {
    error_ = ctx_ ? ctx_->errstr : "cannot allocate a Redis connection";
    drop();
    return false;
  }
  redisSetTimeout(ctx_, to_timeval(timeout_));
  // An idle connection to a Redis that vanished is found by TCP keepalives (every 15 s).
  redisEnableKeepAlive(ctx_);
  if (!where_.password.empty()) {
    auto* r = static_cast<redisReply*>(
        where_.user.empty()
            ? redisCommand(ctx_, "AUTH %b", where_.password.data(), where_.password.size())
            : redisCommand(ctx_, "AUTH %b %b", where_.user.data(), where_.user.size(),
                           where_.password.data(), where_.password.size()));
    const bool ok = r != nullptr && r->type == REDIS_REPLY_STATUS;
    error_ = ok             ? ""
             : r != nullptr ? "Redis refused the login: " +
                                  (r->str != nullptr ? std::string(r->str, r->len) : "")
             : ctx_->err != 0 ? std::string(ctx_->errstr)
                              : "no answer to AUTH";
    if (r != nullptr) freeReplyObject(r);
    if (!ok) {
      drop();
      return false;
    }
  }
  return true;
}

std::optional<std::vector<RedisReply>> Redis::pipeline(const std::vector<Command>& commands) {
  if (!connect()) return std::nullopt;
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (const auto& c : commands) {
    argv.clear();
    lens.clear();
    for (const auto& a : c) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    if (redisAppendCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lens.data()) !=
        REDIS_OK) {
      error_ = ctx_->errstr;
      drop();
      return std::nullopt;
    }
  }
  std::vector<RedisReply> out;
  out.reserve(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) {
      error_ = ctx_->errstr;
      drop();
      return std::nullopt;
    }
    auto* r = static_cast<redisReply*>(raw);
    out.push_back(convert(r));
    freeReplyObject(r);
  }
  return out;
}

std::optional<RedisReply> Redis::command(const Command& c) {
  auto r = pipeline({c});
  if (!r) return std::nullopt;
  return std::move(r->front());
}

bool Redis::subscribe(const std::string& channel) {
  drop();
  auto r = command({"SUBSCRIBE", channel});
  return r && r->kind == RedisReply::Kind::Array;
}

std::optional<std::string> Redis::next_message(bool& broken) {
  broken = false;
  if (!ctx_) {
    broken = true;
    return std::nullopt;
  }
  // A read timeout would leave a hiredis context unusable: wait with poll() instead, and read
  // only what has come.
  for (;;) {
    void* raw = nullptr;
    if (redisReaderGetReply(ctx_->reader, &raw) != REDIS_OK) {
      error_ = "bad reply from Redis";
      drop();
      broken = true;
      return std::nullopt;
    }
    if (raw != nullptr) {
      auto* r = static_cast<redisReply*>(raw);
      std::optional<std::string> out;
      if (r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
          r->element[2]->type == REDIS_REPLY_STRING)
        out.emplace(r->element[2]->str, r->element[2]->len);
      freeReplyObject(r);
      if (out) return out;
      continue;
    }
    pollfd p{ctx_->fd, POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(timeout_.count()));
    if (n == 0) return std::nullopt;
    if (n < 0 || redisBufferRead(ctx_) != REDIS_OK) {
      error_ = ctx_->errstr[0] ? ctx_->errstr : "the subscription broke";
      drop();
      broken = true;
      return std::nullopt;
    }
  }
}

}  // namespace bc::server
