// Socket-free parts of issue 7: the Origin policy, query decoding for /api/qr, LAN URLs, and the
// JSON log line escaping.
#include <gtest/gtest.h>
#include <spdlog/details/log_msg.h>

#include <nlohmann/json.hpp>

#include "server/net/lan.hpp"
#include "server/net/log_format.hpp"
#include "server/net/origin.hpp"

namespace bc::server {
namespace {

TEST(Origin, NormalizesFlagValues) {
  EXPECT_EQ(normalize_origin("HTTPS://Example.ORG/"), "https://example.org");
  EXPECT_EQ(normalize_origin("http://10.0.0.2:8080"), "http://10.0.0.2:8080");
  EXPECT_EQ(normalize_origin("null"), "null");
  EXPECT_FALSE(normalize_origin("example.org"));
  EXPECT_FALSE(normalize_origin("https://"));
  EXPECT_FALSE(normalize_origin("https://example.org/path"));
  EXPECT_FALSE(normalize_origin("https://user@example.org"));
  EXPECT_FALSE(normalize_origin("://x"));
}

TEST(Origin, Policy) {
  const std::vector<std::string> none;
  const std::vector<std::string> list{"https://a.example", "http://10.0.0.2:8080"};
  EXPECT_TRUE(origin_allowed("https://anything", "h:1", none));
  EXPECT_TRUE(origin_allowed("", "h:1", list));
  EXPECT_TRUE(origin_allowed("https://a.example", "h:1", list));
  EXPECT_TRUE(origin_allowed("https://A.example/", "h:1", list));
  EXPECT_TRUE(origin_allowed("http://my.host:8080", "My.Host:8080", list)) << "own host";
  EXPECT_FALSE(origin_allowed("http://my.host:9090", "my.host:8080", list));
  EXPECT_FALSE(origin_allowed("https://b.example", "h:1", list));
  EXPECT_FALSE(origin_allowed("null", "h:1", list));
  EXPECT_FALSE(origin_allowed("garbage", "h:1", list));
  EXPECT_FALSE(origin_allowed("http://x", "", list));
}

TEST(Lan, QueryParameters) {
  EXPECT_EQ(query_param("/api/qr?text=a%20b+c", "text"), "a b c");
  EXPECT_EQ(query_param("/api/qr?x=1&text=%2F%3a", "text"), "/:");
  EXPECT_EQ(query_param("/api/qr?text", "text"), "");
  EXPECT_FALSE(query_param("/api/qr", "text"));
  EXPECT_FALSE(query_param("/api/qr?texts=1", "text"));
  EXPECT_FALSE(query_param("/api/qr?text=%4", "text"));
  EXPECT_FALSE(query_param("/api/qr?text=%g0", "text"));
}

TEST(Lan, Urls) {
  EXPECT_TRUE(lan_urls("127.0.0.1", 8080).empty());
  EXPECT_TRUE(lan_urls("::1", 8080).empty());
  EXPECT_EQ(lan_urls("192.168.1.20", 8080), std::vector<std::string>{"http://192.168.1.20:8080/"});
  EXPECT_EQ(lan_urls("2001:db8::1", 81), std::vector<std::string>{"http://[2001:db8::1]:81/"});
  for (const auto& u : lan_urls("0.0.0.0", 8080)) {
    EXPECT_EQ(u.rfind("http://", 0), 0u);
    EXPECT_EQ(u.find('['), std::string::npos)
        << "an IPv4 listener lists IPv4 addresses only: " << u;
  }
  auto j = nlohmann::json::parse(server_info_json({"http://a:1/"}));
  EXPECT_EQ(j["lan_urls"], nlohmann::json::array({"http://a:1/"}));
  EXPECT_EQ(j["protocol"], 1);
  EXPECT_TRUE(qr_svg(std::string(256, 'x')));
  EXPECT_FALSE(qr_svg(std::string(257, 'x')));
  EXPECT_NE(qr_terminal("http://a:1/", false).find("\u2588"), std::string::npos);
}

TEST(JsonLogs, EscapesEverything) {
  EXPECT_EQ(json_log_escape("plain"), "\"plain\"");
  EXPECT_EQ(json_log_escape("a\"b\\c\nd\te\x01"), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
  EXPECT_EQ(json_log_escape("caf\xc3\xa9 \xe2\x9c\x93"), "\"caf\xc3\xa9 \xe2\x9c\x93\"");
  EXPECT_EQ(json_log_escape("bad \xff\xc3"), "\"bad \\ufffd\\ufffd\"");
  EXPECT_EQ(json_log_escape("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"") << "no surrogates";
}

TEST(JsonLogs, OneParsableObjectPerLine) {
  auto f = json_log_formatter();
  const std::string payload = "room K7QF2M: \"Ross\" joined\n\xff";
  spdlog::details::log_msg msg("bombcheckers", spdlog::level::warn,
                               spdlog::string_view_t(payload.data(), payload.size()));
  spdlog::memory_buf_t buf;
  f->format(msg, buf);
  const std::string line(buf.data(), buf.size());
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["level"], "warning");
  EXPECT_EQ(j["msg"], "room K7QF2M: \"Ross\" joined\n\xef\xbf\xbd");
  const std::string ts = j["ts"];
  EXPECT_EQ(ts.size(), 24u) << ts;
  EXPECT_EQ(ts.back(), 'Z');
}

}  // namespace
}  // namespace bc::server
