// HTTP responses shared by the session (http_session.cpp) and the game records it serves
// (http_records.cpp): the common headers, text and JSON errors, and a body that shares its text.
// Internal to the network layer: only its Beast translation units include it.
#pragma once

#include <string>
#include <string_view>

#include "server/host/records.hpp"
#include "server/net/beast.hpp"
#include "server/wire/errors.hpp"
#include "server/wire/http.hpp"

namespace bc::server {

using HttpRequest = http::request<http::string_body>;
inline constexpr std::string_view kJson = "application/json";

// The status of the response being built on this thread, for the status-class counters (every
// response goes through set_common and is sent on the thread that built it).
inline thread_local unsigned t_http_status = 0;

template <class Body>
void set_common(http::response<Body>& res, const HttpRequest& req, std::string_view type) {
  t_http_status = res.result_int();
  res.set(http::field::server, kServerHeader);
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-cache");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(req.keep_alive());
}

inline http::message_generator text_response(const HttpRequest& req, http::status status,
                                             std::string_view type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  set_common(res, req, type);
  res.content_length(body.size());
  if (req.method() != http::verb::head) res.body() = std::move(body);
  return res;
}

inline http::message_generator json_error(const HttpRequest& req, http::status status,
                                          std::string_view code, std::string_view message) {
  return text_response(req, status, kJson, http_error_json(code, message));
}

// A response body that shares its text: a cached record goes to every reader without a copy, so
// slow readers of one large record cost its size once, not once each.
struct SharedTextBody {
  using value_type = Text;
  static std::uint64_t size(const value_type& v) { return v ? v->size() : 0; }
  class writer {
   public:
    using const_buffers_type = boost::asio::const_buffer;
    template <bool isRequest, class Fields>
    writer(const http::header<isRequest, Fields>&, const value_type& body) : body_(body) {}
    void init(beast::error_code& ec) { ec = {}; }
    boost::optional<std::pair<const_buffers_type, bool>> get(beast::error_code& ec) {
      ec = {};
      if (sent_ || !body_ || body_->empty()) return boost::none;
      sent_ = true;
      return {{const_buffers_type(body_->data(), body_->size()), false}};
    }

   private:
    const value_type& body_;
    bool sent_ = false;
  };
};

inline http::message_generator shared_response(const HttpRequest& req, std::string_view type,
                                               Text body) {
  http::response<SharedTextBody> res{http::status::ok, req.version()};
  set_common(res, req, type);
  res.content_length(body ? body->size() : 0);
  if (req.method() != http::verb::head) res.body() = std::move(body);
  return res;
}

// 429 or 503 with the seconds after which to try again.
inline http::message_generator try_later(const HttpRequest& req, http::status status,
                                         std::string_view code, std::string_view message) {
  http::response<http::string_body> res{status, req.version()};
  set_common(res, req, kJson);
  res.set(http::field::retry_after, "1");
  if (req.method() != http::verb::head) res.body() = http_error_json(code, message);
  res.prepare_payload();
  return res;
}

}  // namespace bc::server
