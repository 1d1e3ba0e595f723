// The relay (docs/CLUSTER.md, "Relay"). On the connection's node a session forwards its frames to
// the owner; on the owner a relayed connection is a RemotePeer, a member like any other whose
// messages go back over its node's channel, batched per node.
#include <spdlog/spdlog.h>

#include "server/cluster/cluster.hpp"
#include "server/cluster/cluster_impl.hpp"
#include "server/game/clock.hpp"
#include "server/host/lobby.hpp"
#include "server/host/shared_state.hpp"

namespace bc::server {

// A member of a room here whose connection is on another node.
class RemotePeer final : public Peer {
 public:
  RemotePeer(Cluster& cluster, std::string node, MemberId conn, MemberId id, std::string address)
      : cluster_(cluster),
        node_(std::move(node)),
        conn_(conn),
        id_(id),
        address_(std::move(address)) {}
  MemberId member_id() const override { return id_; }
  std::string_view address() const override { return address_; }
  void deliver(Texts texts, bool handled) override {
    cluster_.send_out(node_, conn_, std::move(texts), handled, RelayEvent::None);
  }
  void join_answered(std::shared_ptr<RoomHost> room) override {
    std::shared_ptr<RoomHost> old;
    {
      std::lock_guard lock(mu_);
      if (room && room_ != room) old = std::exchange(room_, room);
    }
    if (old) old->disconnect(id_);
    cluster_.send_out(node_, conn_, {}, false, room ? RelayEvent::Joined : RelayEvent::Refused);
  }
  void detached(const RoomHost* room) override {
    {
      std::lock_guard lock(mu_);
      if (room_.get() == room) room_.reset();
    }
    cluster_.send_out(node_, conn_, {}, false, RelayEvent::Detached);
  }
  void moved() override { cluster_.send_out(node_, conn_, {}, false, RelayEvent::Moved); }

  std::shared_ptr<RoomHost> room() const {
    std::lock_guard lock(mu_);
    return room_;
  }
  // The connection is gone: out of its room. `outage`: with its node (RoomHost::disconnect).
  void gone(bool outage = false) {
    std::shared_ptr<RoomHost> r;
    {
      std::lock_guard lock(mu_);
      r = std::exchange(room_, nullptr);
    }
    if (r) r->disconnect(id_, outage);
  }

 private:
  Cluster& cluster_;
  const std::string node_;
  const MemberId conn_;
  const MemberId id_;
  const std::string address_;
  mutable std::mutex mu_;
  std::shared_ptr<RoomHost> room_;
};

// ---------------------------------------------------------------------------------------------
// Sending

void Cluster::publish(const std::string& node, const RelayMessage& m) {
  auto& i = *impl_;
  const Redis::Command c{"PUBLISH", node_key(node), encode_relay(m)};
  auto r = i.relay_commands.command(c);
  // A connection Redis dropped (a restart) fails once and is made anew: try again once, or a
  // join sent just after the restart would wait for an answer that never comes.
  if (!r) r = i.relay_commands.command(c);
  if (!r || r->error()) {
    ++i.redis_errors;
    return;
  }
  ++i.publishes;
  // No node listened: the owner is down, or between a crash and its next run. A request (a join
  // above all) would wait for an answer forever: its client reconnects and finds the room anew.
  const auto* request = std::get_if<RelayRequest>(&m);
  if (request && r->kind == RedisReply::Kind::Integer && r->integer == 0) {
    {
      std::lock_guard lock(i.relay_mu);
      if (auto it = i.relayed.find(node); it != i.relayed.end()) {
        it->second.erase(request->conn);
        if (it->second.empty()) i.relayed.erase(it);
      }
    }
    ++i.unheard;
    if (auto s = state_.session(request->conn)) s->moved();
  }
}

void Cluster::forward(const std::string& owner, RelayRequest r) {
  {
    std::lock_guard lock(impl_->relay_mu);
    impl_->relayed[owner].insert(r.conn);
  }
  r.from = cfg_.node_id;
  ++impl_->relayed_in;
  impl_->relay.post([this, owner, r = std::move(r)] { publish(owner, r); });
}

void Cluster::bye(const std::string& owner, MemberId conn) {
  {
    std::lock_guard lock(impl_->relay_mu);
    if (auto it = impl_->relayed.find(owner); it != impl_->relayed.end()) {
      it->second.erase(conn);
      if (it->second.empty()) impl_->relayed.erase(it);
    }
  }
  if (impl_->stopping) return;
  impl_->relay.post([this, owner, conn] { publish(owner, RelayBye{cfg_.node_id, conn}); });
}

void Cluster::send_out(const std::string& node, MemberId conn, Peer::Texts texts, bool handled,
                       RelayEvent event) {
  auto& i = *impl_;
  bool post = false;
  {
    std::lock_guard lock(i.out_mu);
    auto& p = i.outs[node];
    RelayItem item;
    item.conn = conn;
    item.handled = handled;
    item.event = event;
    // A broadcast's text goes once per node, however many of its connections get it.
    auto index_of = [&p](const Peer::Text& t) -> int {
      if (!t) return -1;
      auto [it, fresh] = p.index.emplace(t.get(), static_cast<int>(p.out.texts.size()));
      if (fresh) {
        p.out.texts.push_back(*t);
        p.keep.push_back(t);
      }
      return it->second;
    };
    for (const auto& m : texts) {
      if (m.text) item.texts.emplace_back(index_of(m.text), index_of(m.full()));
    }
    p.out.items.push_back(std::move(item));
    post = !std::exchange(i.flush_posted, true);
  }
  ++i.relayed_out;
  if (post) i.relay.post([this] { flush_outs(); });
}

void Cluster::flush_outs() {
  auto& i = *impl_;
  std::map<std::string, Impl::PendingOut> outs;
  {
    std::lock_guard lock(i.out_mu);
    outs.swap(i.outs);
    i.flush_posted = false;
  }
  for (auto& [node, p] : outs) {
    p.out.from = cfg_.node_id;
    publish(node, std::move(p.out));
  }
}

// ---------------------------------------------------------------------------------------------
// Receiving: the subscriber thread

void Cluster::read_loop() {
  auto& i = *impl_;
  bool subscribed = true;
  while (!i.stopping) {
    if (!subscribed) {
      subscribed = i.subscriber.subscribe(node_key(cfg_.node_id));
      if (!subscribed) {
        std::this_thread::sleep_for(cfg_.redis_timeout);
        continue;
      }
      spdlog::info("cluster: subscribed again to {}", node_key(cfg_.node_id));
      // What was published to this node meanwhile is lost (Redis keeps no backlog): states for
      // its relayed connections, requests of its remote members. Both ends start afresh: the
      // clients reconnect and join again, and find their rooms as they are.
      i.worker.post([this] {
        nodes_gone(watched_nodes(), "may have lost relayed messages (Redis subscription broke)");
      });
    }
    bool broken = false;
    auto m = i.subscriber.next_message(broken);
    if (broken) {
      subscribed = false;
      continue;
    }
    if (m) handle(*m);
  }
}

void Cluster::handle(const std::string& text) {
  auto m = decode_relay(text);
  if (!m) {
    spdlog::warn("cluster: a message on this node's channel is not a relay message; ignored");
    return;
  }
  if (auto* r = std::get_if<RelayRequest>(&*m)) return handle_request(std::move(*r));
  if (auto* b = std::get_if<RelayBye>(&*m)) return handle_bye(*b);
  handle_out(std::get<RelayOut>(*m));
}

// The owner: a relayed client's frame, parsed and routed here as if the client were connected.
void Cluster::handle_request(RelayRequest r, bool asked) {
  std::shared_ptr<RemotePeer> peer;
  {
    std::lock_guard lock(impl_->remote_mu);
    auto& slot = impl_->remotes[{r.from, r.conn}];
    if (!slot) {
      slot = std::make_shared<RemotePeer>(*this, r.from, r.conn, state_.next_member.fetch_add(1),
                                          r.address);
    }
    peer = slot;
  }
  // The frame's receive time on its node, on this node's steady clock.
  const auto late = std::max<std::int64_t>(0, real_time().unix_ms() - r.sent_unix_ms);
  const auto received = Clock::now() - std::chrono::milliseconds(late);
  auto parsed = parse_client_message(r.text);
  if (auto* e = std::get_if<ParseError>(&parsed)) {
    Peer::Texts texts;
    texts.emplace_back(std::make_shared<const std::string>(error_json(e->id, e->error, e->type)));
    peer->deliver(std::move(texts), true);
    return;
  }
  auto& msg = std::get<ClientMessage>(parsed);
  const auto form = static_cast<StateForm>(std::clamp(r.form, 0, 2));
  if (auto* j = std::get_if<JoinMsg>(&msg.body)) {
    j->compact = std::max(j->compact, form);
    if (!r.who.empty()) j->who = parse_identity_json(r.who);
    if (!state_.registry.find(j->room)) {
      // Not here: this node may be loading it (it took the lease just before the joining node
      // asked who owns it), or it left. Ask as a local join does: on the cluster's thread a load
      // under way has ended by then. Still not here: the client reconnects and finds it again.
      if (asked) return peer->moved();
      std::string room = j->room;
      resolve(std::move(room), [this, r = std::move(r), peer](Placement p) mutable {
        if (p.where != Placement::Where::Local) return peer->moved();
        handle_request(std::move(r), true);
      });
      return;
    }
  }
  if (const auto* ping = std::get_if<PingMsg>(&msg.body)) {
    if (auto room = peer->room(); room && ping->lag)
      room->report_lag(peer->member_id(), *ping->lag);
    return;
  }
  const bool join = std::holds_alternative<JoinMsg>(msg.body);
  auto current = peer->room();
  // A relayed connection whose room is not here (lost with a lease, or this node restarted, and
  // the news lost with a Redis restart): it reconnects and finds the room again.
  if (!join && !current) return peer->moved();
  std::shared_ptr<Peer> as_peer = peer;
  auto routed = route_request(state_.registry, state_.limits,
                              LobbyRequest{as_peer, std::move(msg), received, current, r.address});
  if (auto* no = std::get_if<LobbyRefusal>(&routed)) {
    state_.metrics.refused(no->error.code);
    Peer::Texts texts;
    texts.emplace_back(
        std::make_shared<const std::string>(error_json(no->id, no->error, no->request)));
    if (join) {
      send_out(r.from, r.conn, std::move(texts), false, RelayEvent::Refused);
    } else {
      peer->deliver(std::move(texts), true);
    }
  }
}

void Cluster::handle_bye(const RelayBye& b) {
  std::shared_ptr<RemotePeer> peer;
  {
    std::lock_guard lock(impl_->remote_mu);
    auto it = impl_->remotes.find({b.from, b.conn});
    if (it == impl_->remotes.end()) return;
    peer = std::move(it->second);
    impl_->remotes.erase(it);
  }
  peer->gone();
}

namespace {

// A relayed text's kind: the relay carries texts (the owner's own messages, in the protocol), so
// it is read from the text's first bytes, as a client would read it.
MessageKind relayed_kind(const std::string& text) {
  if (text.starts_with(R"({"type":"state")")) return MessageKind::State;
  if (text.starts_with(R"({"type":"delta")")) return MessageKind::Delta;
  if (text.starts_with(R"({"type":"chat")")) return MessageKind::Chat;
  return MessageKind::Other;
}

}  // namespace

// The connection's node: what the owner's room said, into the connections' own queues.
void Cluster::handle_out(const RelayOut& o) {
  std::vector<Peer::Text> texts;
  std::vector<MessageKind> kinds;
  texts.reserve(o.texts.size());
  kinds.reserve(o.texts.size());
  for (const auto& t : o.texts) {
    texts.push_back(std::make_shared<const std::string>(t));
    kinds.push_back(relayed_kind(t));
  }
  for (const auto& item : o.items) {
    auto s = state_.session(item.conn);
    if (!s) continue;
    Peer::Texts batch;
    for (const auto& [t, f] : item.texts) {
      batch.emplace_back(texts[t], kinds[t], f < 0 ? nullptr : texts[f]);
    }
    if (!batch.empty() || item.handled) s->deliver(std::move(batch), item.handled);
    switch (item.event) {
      case RelayEvent::None:
        break;
      case RelayEvent::Joined:
      case RelayEvent::Refused:
        s->relay_answered(item.event == RelayEvent::Joined);
        break;
      case RelayEvent::Detached:
        s->relay_detached();
        break;
      case RelayEvent::Moved:
        s->moved();
        break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Nodes that died

std::vector<std::string> Cluster::watched_nodes() {
  std::set<std::string> nodes;
  {
    std::lock_guard lock(impl_->relay_mu);
    for (const auto& [n, conns] : impl_->relayed) nodes.insert(n);
  }
  {
    std::lock_guard lock(impl_->remote_mu);
    for (const auto& [key, p] : impl_->remotes) nodes.insert(key.first);
  }
  return {nodes.begin(), nodes.end()};
}

void Cluster::nodes_gone(const std::vector<std::string>& nodes, std::string_view why) {
  for (const auto& n : nodes) {
    std::set<MemberId> conns;
    {
      std::lock_guard lock(impl_->relay_mu);
      if (auto it = impl_->relayed.find(n); it != impl_->relayed.end()) {
        conns = std::move(it->second);
        impl_->relayed.erase(it);
      }
    }
    // Their rooms' owner is gone: the clients reconnect and their joins take the rooms over.
    for (MemberId c : conns) {
      if (auto s = state_.session(c)) s->moved();
    }
    std::vector<std::shared_ptr<RemotePeer>> peers;
    {
      std::lock_guard lock(impl_->remote_mu);
      for (auto it = impl_->remotes.begin(); it != impl_->remotes.end();) {
        if (it->first.first == n) {
          peers.push_back(std::move(it->second));
          it = impl_->remotes.erase(it);
        } else {
          ++it;
        }
      }
    }
    // Out of their rooms here; and their node, should it be alive after all (its heartbeat lost
    // with a Redis restart) or back (a new run), closes their connections with 1012 so that they
    // join again, instead of waiting for states this node no longer sends them.
    for (auto& p : peers) {
      p->moved();
      p->gone(true);
    }
    spdlog::warn(
        "cluster: node {} {}: {} relayed connection(s) told to reconnect, {} "
        "member(s) from it disconnected",
        n, why, conns.size(), peers.size());
  }
}

// ---------------------------------------------------------------------------------------------
// The room list: the hash bc:rooms, room id -> "owner node\n" + the room's summary (JSON)

void Cluster::publish_summaries() {
  auto& i = *impl_;
  if (i.owned.empty()) return;
  Redis::Command c{"HSET", "bc:rooms"};
  for (const auto& room : i.owned) {
    auto host = state_.registry.find(room);
    if (!host) continue;
    std::string text = rooms_json({host->summary()});
    // rooms_json gives an array: its one element.
    c.push_back(room);
    c.push_back(cfg_.node_id + "\n" + text.substr(1, text.size() - 2));
  }
  if (c.size() > 2 && !i.commands.command(c)) ++i.redis_errors;
}

void Cluster::forget_summaries(const std::vector<std::string>& rooms) {
  if (rooms.empty()) return;
  Redis::Command c{"HDEL", "bc:rooms"};
  for (const auto& r : rooms) c.push_back(r);
  impl_->commands.command(c);
}

std::optional<Cluster::RoomList> Cluster::read_room_list() {
  auto& i = *impl_;
  auto all = i.commands.command({"HGETALL", "bc:rooms"});
  if (!all || all->kind != RedisReply::Kind::Array) {
    ++i.redis_errors;
    return std::nullopt;
  }
  RoomList list;
  std::set<std::string> nodes;
  for (std::size_t k = 0; k + 1 < all->elements.size(); k += 2) {
    const auto& v = all->elements[k + 1].str;
    const auto nl = v.find('\n');
    if (nl == std::string::npos) continue;
    list.rooms[all->elements[k].str] = {v.substr(0, nl), v.substr(nl + 1)};
    nodes.insert(v.substr(0, nl));
  }
  std::vector<std::string> order(nodes.begin(), nodes.end());
  std::vector<Redis::Command> checks;
  for (const auto& n : order) checks.push_back({"EXISTS", node_key(n)});
  auto alive = checks.empty() ? std::optional<std::vector<RedisReply>>(std::vector<RedisReply>{})
                              : i.commands.pipeline(checks);
  if (!alive) {
    ++i.redis_errors;
    return std::nullopt;
  }
  for (std::size_t k = 0; k < order.size(); ++k) {
    if ((*alive)[k].integer != 1) list.dead.insert(order[k]);
  }
  return list;
}

void Cluster::list_rooms(std::function<void(std::optional<std::string>)> done) {
  impl_->worker.post([this, done = std::move(done)] {
    auto list = read_room_list();
    if (!list) return done(std::nullopt);
    std::string out = "[";
    for (const auto& [id, entry] : list->rooms) {
      // A dead node's room is left out until another node takes it (adopt_orphans).
      if (list->dead.count(entry.first)) continue;
      if (out.size() > 1) out += ',';
      out += entry.second;
    }
    out += ']';
    done(std::move(out));
  });
}

std::string Cluster::prometheus() const {
  const auto& i = *impl_;
  std::string out;
  auto line = [&out](const char* name, const char* type, const char* help, auto value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" +
           name + " " + std::to_string(value) + "\n";
  };
  line("bc_cluster_redis_up", "gauge", "1 if the last lease renewal reached Redis",
       redis_ok_ ? 1 : 0);
  line("bc_cluster_nodes", "gauge", "live nodes of the cluster (heartbeats)", live_nodes_.load());
  line("bc_cluster_rooms_owned", "gauge", "rooms this node runs by lease", i.owned_count.load());
  line("bc_cluster_lease_acquired_total", "counter", "leases taken (new rooms, takeovers)",
       i.acquired.load());
  line("bc_cluster_lease_lost_total", "counter", "leases lost (expired or taken elsewhere)",
       i.lost.load());
  line("bc_cluster_lease_released_total", "counter", "leases given back (retired, clean stop)",
       i.released.load());
  line("bc_cluster_renew_seconds", "gauge", "duration of the last heartbeat and renewal",
       static_cast<double>(i.renew_us.load()) / 1e6);
  line("bc_cluster_relayed_requests_total", "counter",
       "client frames forwarded from this node to rooms' owners", i.relayed_in.load());
  line("bc_cluster_relayed_messages_total", "counter",
       "messages (and events) of rooms here for members on other nodes", i.relayed_out.load());
  line("bc_cluster_publishes_total", "counter", "relay publishes", i.publishes.load());
  line("bc_cluster_unheard_requests_total", "counter",
       "relayed requests no node received (the owner was down): their clients reconnect",
       i.unheard.load());
  line("bc_cluster_redis_errors_total", "counter", "failed or unanswered Redis calls",
       i.redis_errors.load());
  return out;
}

}  // namespace bc::server
