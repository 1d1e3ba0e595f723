// Passwords as Argon2id hashes (libsodium's crypto_pwhash_str: its own salt and parameters in the
// string). A check against a name that does not exist costs the same as one that does.
#pragma once

#include <mutex>
#include <string>
#include <string_view>

namespace bc::server {

// Argon2id's cost: libsodium's "interactive" limits (2 passes over 64 MiB), or the smallest it
// allows, for tests that make many accounts.
enum class PasswordCost : unsigned char { Interactive, Minimal };

class Passwords {
 public:
  explicit Passwords(PasswordCost cost = PasswordCost::Interactive);
  // The hash to keep, "" if libsodium could not make one (out of memory).
  std::string hash(std::string_view password) const;
  bool verify(const std::string& hash, std::string_view password) const;
  // A check as long as verify()'s against a hash of this cost, whose answer is always no.
  void verify_nothing(std::string_view password) const;

 private:
  unsigned long long ops_;
  std::size_t mem_;
  // A hash of a random password, for verify_nothing: made at its first use, not at every start of
  // a server (tests start hundreds).
  mutable std::once_flag decoy_once_;
  mutable std::string decoy_;
};

}  // namespace bc::server
