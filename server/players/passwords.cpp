#include "server/players/passwords.hpp"

#include <sodium.h>

#include <stdexcept>

#include "server/room/seats.hpp"  // random_token

namespace bc::server {

Passwords::Passwords(PasswordCost cost) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
  if (cost == PasswordCost::Interactive) {
    ops_ = crypto_pwhash_OPSLIMIT_INTERACTIVE;
    mem_ = crypto_pwhash_MEMLIMIT_INTERACTIVE;
  } else {
    ops_ = crypto_pwhash_OPSLIMIT_MIN;
    mem_ = crypto_pwhash_MEMLIMIT_MIN;
  }
}

std::string Passwords::hash(std::string_view password) const {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), ops_, mem_,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return {};
  }
  return out;
}

bool Passwords::verify(const std::string& hash, std::string_view password) const {
  if (hash.empty()) return false;
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

void Passwords::verify_nothing(std::string_view password) const {
  std::call_once(decoy_once_, [this] { decoy_ = hash(random_token()); });
  // The answer is no whatever it says; only its cost matters.
  [[maybe_unused]] const int no =
      crypto_pwhash_str_verify(decoy_.c_str(), password.data(), password.size());
}

}  // namespace bc::server
