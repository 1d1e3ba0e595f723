// The server-wide state every connection shares: live sessions and connections per address.
#include "server/host/shared_state.hpp"

#include "server/wire/views.hpp"

namespace bc::server {

SharedState::SharedState(net::io_context& ioc, ServerConfig cfg)
    : config(std::move(cfg)),
      limits(config.limits),
      registry(ioc, limits, metrics, config.threads <= 1),
      records(limits),
      address_limits(limits),
      welcome(std::make_shared<const std::string>(
          welcome_json(limits, {}, config.accounts ? players_welcome_json() : std::string()))) {
  std::error_code ec;
  web_root = std::filesystem::weakly_canonical(std::filesystem::absolute(config.web_root, ec), ec);
  if (ec) web_root = config.web_root;
}

void SharedState::add(MemberId id, std::weak_ptr<WebSocketPeer> s) {
  std::lock_guard lock(mu_);
  sessions_[id] = std::move(s);
}

void SharedState::remove(MemberId id) {
  std::lock_guard lock(mu_);
  sessions_.erase(id);
}

AddressTicket SharedState::admit(const std::shared_ptr<SharedState>& self, std::string address) {
  const std::size_t limit = self->limits.max_connections_per_address;
  if (limit > 0) {
    std::lock_guard lock(self->mu_);
    auto& n = self->connections_by_address_[address];
    if (n >= limit) return nullptr;
    ++n;
  }
  return std::make_shared<const AddressSlot>(self, std::move(address));
}

AddressTicket SharedState::admit_proxy(const std::shared_ptr<SharedState>& self,
                                       std::string address) {
  return std::make_shared<const AddressSlot>(self, std::move(address), true);
}

AddressSlot::~AddressSlot() {
  if (proxy_ || state_->limits.max_connections_per_address == 0) return;
  std::lock_guard lock(state_->mu_);
  auto it = state_->connections_by_address_.find(address_);
  if (it != state_->connections_by_address_.end() && --it->second == 0) {
    state_->connections_by_address_.erase(it);
  }
}

std::shared_ptr<WebSocketPeer> SharedState::session(MemberId id) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second.lock();
}

void SharedState::close_all_sessions() {
  std::vector<std::shared_ptr<WebSocketPeer>> live;
  {
    std::lock_guard lock(mu_);
    for (auto& [id, w] : sessions_) {
      if (auto s = w.lock()) live.push_back(std::move(s));
    }
  }
  for (auto& s : live) s->shutdown();
}

}  // namespace bc::server
