#include "server/cluster/relay_codec.hpp"

#include <nlohmann/json.hpp>

namespace bc::server {

using json = nlohmann::json;

std::string encode_relay(const RelayMessage& m) {
  json j;
  if (const auto* r = std::get_if<RelayRequest>(&m)) {
    j = {{"k", "req"},      {"from", r->from},       {"conn", r->conn}, {"addr", r->address},
         {"form", r->form}, {"ms", r->sent_unix_ms}, {"text", r->text}};
    if (!r->who.empty()) j["who"] = r->who;
  } else if (const auto* b = std::get_if<RelayBye>(&m)) {
    j = {{"k", "bye"}, {"from", b->from}, {"conn", b->conn}};
  } else {
    const auto& o = std::get<RelayOut>(m);
    json items = json::array();
    for (const auto& it : o.items) {
      json t = json::array();
      for (const auto& [text, full] : it.texts) t.push_back(json::array({text, full}));
      items.push_back({{"c", it.conn},
                       {"t", std::move(t)},
                       {"h", it.handled},
                       {"e", static_cast<int>(it.event)}});
    }
    j = {{"k", "out"}, {"from", o.from}, {"texts", o.texts}, {"items", std::move(items)}};
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<RelayMessage> decode_relay(std::string_view text) {
  json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("k") || !j["k"].is_string()) return std::nullopt;
  try {
    const auto k = j["k"].get<std::string>();
    if (k == "req") {
      RelayRequest r;
      r.from = j.at("from").get<std::string>();
      r.conn = j.at("conn").get<std::uint64_t>();
      r.address = j.at("addr").get<std::string>();
      r.form = j.at("form").get<int>();
      r.sent_unix_ms = j.at("ms").get<std::int64_t>();
      r.text = j.at("text").get<std::string>();
      if (auto w = j.find("who"); w != j.end() && w->is_string()) r.who = w->get<std::string>();
      return r;
    }
    if (k == "bye")
      return RelayBye{j.at("from").get<std::string>(), j.at("conn").get<std::uint64_t>()};
    if (k == "out") {
      RelayOut o;
      o.from = j.at("from").get<std::string>();
      o.texts = j.at("texts").get<std::vector<std::string>>();
      const int n = static_cast<int>(o.texts.size());
      for (const auto& it : j.at("items")) {
        RelayItem item;
        item.conn = it.at("c").get<std::uint64_t>();
        item.handled = it.at("h").get<bool>();
        const int e = it.at("e").get<int>();
        if (e < 0 || e > static_cast<int>(RelayEvent::Moved)) return std::nullopt;
        item.event = static_cast<RelayEvent>(e);
        for (const auto& p : it.at("t")) {
          const int a = p.at(0).get<int>(), b = p.at(1).get<int>();
          if (a < 0 || a >= n || b < -1 || b >= n) return std::nullopt;
          item.texts.emplace_back(a, b);
        }
        o.items.push_back(std::move(item));
      }
      return o;
    }
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace bc::server
