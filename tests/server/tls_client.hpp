// TLS for the server tests: a throwaway self-signed certificate made with the OpenSSL API, and
// blocking HTTPS and WSS clients (certificate verification off) with a timeout on every operation.
// Only tls_client.cpp includes Beast's TLS stream.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "test_client.hpp"

namespace bc::test {

// A P-256 key and a self-signed certificate for 127.0.0.1 valid for two days, plus a second key
// that matches no certificate, as PEM files in a fresh temporary directory (removed with the
// object).
struct TestCertificate {
  std::filesystem::path dir, cert, key, other_key;
  TestCertificate();
  ~TestCertificate();
  TestCertificate(const TestCertificate&) = delete;
  TestCertificate& operator=(const TestCertificate&) = delete;
};

// One request on a fresh TLS connection (Host: 127.0.0.1), then close_notify.
HttpResponse https_get(std::uint16_t port, const std::string& target);

// The handshake of a client that verifies the certificate (and so refuses the self-signed one);
// its error message.
std::string verifying_tls_handshake_error(std::uint16_t port);

class WssClient {
 public:
  // Connects to wss://127.0.0.1:port/target; throws std::runtime_error on failure or timeout.
  explicit WssClient(std::uint16_t port, const std::string& target = "/ws");
  ~WssClient();
  WssClient(const WssClient&) = delete;
  WssClient& operator=(const WssClient&) = delete;

  void send(const json& msg);
  // The next message, or nullopt on timeout or when the connection is closed.
  std::optional<json> recv(std::chrono::milliseconds timeout = kWait);
  // Skips messages until one of `type`; throws (failing the test) on timeout.
  json expect(const std::string& type, std::chrono::milliseconds timeout = kWait);
  // Waits for the server to close; the close code, or nullopt on timeout.
  std::optional<int> wait_closed(std::chrono::milliseconds timeout = kWait);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bc::test
