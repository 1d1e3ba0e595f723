// The web client's files gzipped once and kept: the page, its modules and its WebAssembly go out
// at about a third of their size to every browser that takes gzip (issue 32's 600 KB first load).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace bc::server {

// Whether a response of this content type is worth compressing (text, JSON, SVG, WebAssembly).
bool compressible(std::string_view content_type);

// Whether an Accept-Encoding header value takes gzip (and does not refuse it with q=0).
bool accepts_gzip(std::string_view accept_encoding);

// The gzip of `file`, made at the first request and kept while the file's size and time stay
// the same; null when the file cannot be read, is over 8 MiB, or does not shrink. Safe from any
// thread. At most 64 MiB of compressed files are kept (the oldest made go first).
std::shared_ptr<const std::string> gzipped_file(const std::filesystem::path& file);

// gzip (RFC 1952) of `data` at zlib's best compression; empty on failure.
std::string gzip(std::string_view data);

}  // namespace bc::server
