#include "server/cluster/lease.hpp"

namespace bc::server {

namespace {

// KEYS: owner keys; ARGV: node id, ttl ms. 1 per key still ours (and extended), else 0.
constexpr const char* kRenew = R"(local r = {}
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then
    redis.call('PEXPIRE', k, ARGV[2])
    r[i] = 1
  else
    r[i] = 0
  end
end
return r)";

constexpr const char* kRelease = R"(local n = 0
for _, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then n = n + redis.call('DEL', k) end
end
return n)";

// Scripts take their keys in one call; a few hundred keys a call keeps each one short.
constexpr std::size_t kKeysPerCall = 500;

Redis::Command script(const char* body, const std::vector<std::string>& rooms, std::size_t from,
                      std::size_t to, const std::string& node, const std::string& ttl) {
  Redis::Command c{"EVAL", body, std::to_string(to - from)};
  for (std::size_t i = from; i < to; ++i) c.push_back(owner_key(rooms[i]));
  c.push_back(node);
  if (!ttl.empty()) c.push_back(ttl);
  return c;
}

}  // namespace

std::string owner_key(const std::string& room) {
  return "bc:owner:" + room;
}

std::string node_key(const std::string& node) {
  return "bc:node:" + node;
}

std::optional<Leases::Owner> Leases::owner(const std::string& room) {
  auto got = redis_.command({"GET", owner_key(room)});
  if (!got || got->error()) return std::nullopt;
  Owner o;
  if (got->nil()) return o;
  o.node = got->str;
  if (*o.node == node_) {
    o.alive = true;
    return o;
  }
  auto alive = redis_.command({"EXISTS", node_key(*o.node)});
  if (!alive || alive->error()) return std::nullopt;
  o.alive = alive->integer == 1;
  return o;
}

std::optional<bool> Leases::acquire(const std::string& room) {
  auto r =
      redis_.pipeline({{"SET", owner_key(room), node_, "NX", "PX", std::to_string(ttl_.count())},
                       {"GET", owner_key(room)}});
  if (!r || (*r)[0].error() || (*r)[1].error()) return std::nullopt;
  return !(*r)[1].nil() && (*r)[1].str == node_;
}

std::optional<std::vector<std::string>> Leases::renew(const std::vector<std::string>& rooms) {
  std::vector<Redis::Command> calls;
  const std::string ttl = std::to_string(ttl_.count());
  for (std::size_t i = 0; i < rooms.size(); i += kKeysPerCall)
    calls.push_back(script(kRenew, rooms, i, std::min(rooms.size(), i + kKeysPerCall), node_, ttl));
  if (calls.empty()) return std::vector<std::string>{};
  auto r = redis_.pipeline(calls);
  if (!r) return std::nullopt;
  std::vector<std::string> lost;
  std::size_t i = 0;
  for (const auto& reply : *r) {
    if (reply.kind != RedisReply::Kind::Array) return std::nullopt;
    for (const auto& e : reply.elements) {
      if (i < rooms.size() && e.integer != 1) lost.push_back(rooms[i]);
      ++i;
    }
  }
  return lost;
}

bool Leases::release(const std::vector<std::string>& rooms) {
  std::vector<Redis::Command> calls;
  for (std::size_t i = 0; i < rooms.size(); i += kKeysPerCall)
    calls.push_back(
        script(kRelease, rooms, i, std::min(rooms.size(), i + kKeysPerCall), node_, ""));
  if (calls.empty()) return true;
  auto r = redis_.pipeline(calls);
  return r.has_value();
}

std::optional<std::vector<std::string>> Leases::heartbeat(const std::vector<std::string>& others) {
  std::vector<Redis::Command> calls{
      {"SET", node_key(node_), incarnation_, "PX", std::to_string(ttl_.count())}};
  for (const auto& n : others) calls.push_back({"GET", node_key(n)});
  auto r = redis_.pipeline(calls);
  if (!r || (*r)[0].error()) return std::nullopt;
  std::vector<std::string> runs;
  for (std::size_t i = 1; i < r->size(); ++i) runs.push_back((*r)[i].nil() ? "" : (*r)[i].str);
  return runs;
}

bool Leases::leave() {
  return redis_.command({"DEL", node_key(node_)}).has_value();
}

}  // namespace bc::server
