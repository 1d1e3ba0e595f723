// --log-format json: every log record as one JSON object on one line,
// {"ts":"2026-11-22T03:04:05.678Z","level":"info","msg":"..."}, the message JSON-escaped (bytes
// that are not UTF-8 become U+FFFD), for log collectors that parse lines.
#pragma once

#include <spdlog/formatter.h>

#include <memory>
#include <string>
#include <string_view>

namespace bc::server {

std::unique_ptr<spdlog::formatter> json_log_formatter();

// The JSON string literal of `s` (with the quotes).
std::string json_log_escape(std::string_view s);

}  // namespace bc::server
