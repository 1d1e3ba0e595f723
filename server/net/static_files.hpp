// Mapping request paths to files of the web root, refusing anything that could leave it.
#pragma once

#include <filesystem>
#include <string_view>

namespace bc::server {

enum class StaticLookup { Found, Refused, NotFound };

struct StaticFile {
  StaticLookup status = StaticLookup::NotFound;
  std::filesystem::path path;  // when Found: a regular file inside the root
};

// `root` must be canonical. `target` is the request target (a query string is ignored). Refused:
// `..` or `.` segments, names starting with a dot, percent-encoded dots, slashes or backslashes,
// backslashes, NUL, malformed escapes, an empty segment (`//`), a path that leaves the root
// through a symlink. A directory serves its index.html.
StaticFile find_static_file(const std::filesystem::path& root, std::string_view target);

std::string_view content_type(const std::filesystem::path& file);

}  // namespace bc::server
