// Seat tokens are stored as SHA-256 digests: OpenSSL's, which the server links for TLS anyway.
#include <openssl/evp.h>

#include <array>

#include "bc/store.hpp"

namespace bc::store {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1) {
    return {};  // cannot happen with the built-in SHA-256; an empty hash matches no token
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xF];
  }
  return out;
}

}  // namespace bc::store
