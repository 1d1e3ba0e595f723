#include "tls_client.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <deque>
#include <stdexcept>

namespace bc::test {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

namespace {

// ---------------------------------------------------------------------------------------------
// The certificate.

template <class T, void (*Free)(T*)>
struct Owned {
  T* p;
  explicit Owned(T* q) : p(q) {
    if (!p) throw std::runtime_error("OpenSSL: cannot allocate");
  }
  ~Owned() { Free(p); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
};
using Key = Owned<EVP_PKEY, EVP_PKEY_free>;
using Cert = Owned<X509, X509_free>;

EVP_PKEY* new_p256_key() {
  return EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", const_cast<char*>("P-256"));
}

void write_key(const std::filesystem::path& path, EVP_PKEY* key) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    if (f) std::fclose(f);
    throw std::runtime_error("cannot write " + path.string());
  }
  std::fclose(f);
}

// Runs handlers until `done()` or the deadline.
template <class Pred>
bool run_until(net::io_context& ioc, Pred done, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!done()) {
    const auto now = Clock::now();
    if (now >= deadline) return false;
    if (ioc.stopped()) ioc.restart();
    ioc.run_one_for(deadline - now);
  }
  return true;
}

// Starts an asynchronous operation with a completion handler and waits for it; its error code.
template <class Start>
beast::error_code await(net::io_context& ioc, const char* what, Start start) {
  bool done = false;
  beast::error_code result;
  start([&](beast::error_code ec, auto&&...) {
    result = ec;
    done = true;
  });
  if (!run_until(
          ioc, [&] { return done; }, kWait))
    throw std::runtime_error(std::string(what) + " timed out");
  return result;
}

// A TLS connection to 127.0.0.1:port with the handshake done.
void connect_tls(net::io_context& ioc, TlsStream& stream, std::uint16_t port) {
  auto ec = await(ioc, "connect", [&](auto h) {
    beast::get_lowest_layer(stream).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port), std::move(h));
  });
  if (ec) throw std::runtime_error("connect: " + ec.message());
  ec = await(ioc, "tls handshake",
             [&](auto h) { stream.async_handshake(ssl::stream_base::client, std::move(h)); });
  if (ec) throw std::runtime_error("tls handshake: " + ec.message());
}

ssl::context client_context(bool verify) {
  ssl::context ctx(ssl::context::tls_client);
  ctx.set_verify_mode(verify ? ssl::verify_peer : ssl::verify_none);
  return ctx;
}

}  // namespace

TestCertificate::TestCertificate() {
  static std::atomic<int> n{0};
  dir = std::filesystem::temp_directory_path() /
        ("bc-tls-" + std::to_string(::getpid()) + "-" + std::to_string(n.fetch_add(1)));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  cert = dir / "cert.pem";
  key = dir / "key.pem";
  other_key = dir / "other-key.pem";

  Key k(new_p256_key());
  Key other(new_p256_key());
  Cert x(X509_new());
  X509_set_version(x.p, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x.p), 1);
  X509_gmtime_adj(X509_getm_notBefore(x.p), -60);
  X509_gmtime_adj(X509_getm_notAfter(x.p), 2 * 24 * 3600);
  X509_set_pubkey(x.p, k.p);
  X509_NAME* name = X509_get_subject_name(x.p);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(x.p, name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, x.p, x.p, nullptr, nullptr, 0);
  if (X509_EXTENSION* san =
          X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "IP:127.0.0.1")) {
    X509_add_ext(x.p, san, -1);
    X509_EXTENSION_free(san);
  }
  if (X509_sign(x.p, k.p, EVP_sha256()) <= 0)
    throw std::runtime_error("cannot sign the test certificate");

  std::FILE* f = std::fopen(cert.c_str(), "wb");
  if (!f || PEM_write_X509(f, x.p) != 1) {
    if (f) std::fclose(f);
    throw std::runtime_error("cannot write " + cert.string());
  }
  std::fclose(f);
  write_key(key, k.p);
  write_key(other_key, other.p);
}

TestCertificate::~TestCertificate() {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

HttpResponse https_get(std::uint16_t port, const std::string& target) {
  net::io_context ioc;
  auto ctx = client_context(false);
  TlsStream stream(ioc, ctx);
  connect_tls(ioc, stream, port);
  http::request<http::string_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  auto ec =
      await(ioc, "https write", [&](auto h) { http::async_write(stream, req, std::move(h)); });
  if (ec) throw std::runtime_error("https write: " + ec.message());
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  ec = await(ioc, "https read",
             [&](auto h) { http::async_read(stream, buffer, res, std::move(h)); });
  if (ec) throw std::runtime_error("https read: " + ec.message());
  await(ioc, "tls shutdown", [&](auto h) { stream.async_shutdown(std::move(h)); });
  HttpResponse out;
  out.status = static_cast<int>(res.result_int());
  out.body = std::move(res.body());
  for (const auto& f : res) {
    std::string n(f.name_string());
    for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers[n] = std::string(f.value());
  }
  return out;
}

std::string verifying_tls_handshake_error(std::uint16_t port) {
  net::io_context ioc;
  auto ctx = client_context(true);
  TlsStream stream(ioc, ctx);
  try {
    connect_tls(ioc, stream, port);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------

struct WssClient::Impl {
  net::io_context ioc;
  ssl::context ctx = client_context(false);
  websocket::stream<TlsStream> ws{ioc, ctx};
  beast::flat_buffer buffer;
  std::deque<std::string> inbox;
  bool closed = false;
  std::optional<int> close_code;

  void start_read() {
    ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
      if (ec) {
        closed = true;
        if (ec == websocket::error::closed) close_code = static_cast<int>(ws.reason().code);
        return;
      }
      inbox.push_back(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      start_read();
    });
  }
};

WssClient::WssClient(std::uint16_t port, const std::string& target)
    : impl_(std::make_unique<Impl>()) {
  connect_tls(impl_->ioc, impl_->ws.next_layer(), port);
  websocket::response_type response;
  auto ec = await(impl_->ioc, "ws handshake", [&](auto h) {
    impl_->ws.async_handshake(response, "127.0.0.1:" + std::to_string(port), target, std::move(h));
  });
  if (ec) {
    throw std::runtime_error("ws handshake: " + ec.message() + " (HTTP " +
                             std::to_string(response.result_int()) + ")");
  }
  impl_->start_read();
}

WssClient::~WssClient() {
  if (!impl_->closed) {
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).socket().close(ec);
  }
  // Let the pending read complete with its error before the stream goes away.
  run_until(
      impl_->ioc, [&] { return impl_->closed; }, std::chrono::seconds(1));
}

void WssClient::send(const json& msg) {
  if (impl_->closed) return;
  const std::string text = msg.dump();
  impl_->ws.text(true);
  auto ec = await(impl_->ioc, "ws write",
                  [&](auto h) { impl_->ws.async_write(net::buffer(text), std::move(h)); });
  if (ec) throw std::runtime_error("ws write: " + ec.message());
}

std::optional<json> WssClient::recv(std::chrono::milliseconds timeout) {
  run_until(
      impl_->ioc, [&] { return !impl_->inbox.empty() || impl_->closed; }, timeout);
  if (impl_->inbox.empty()) return std::nullopt;
  std::string text = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("server sent invalid JSON: " + text);
  return j;
}

json WssClient::expect(const std::string& type, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string seen;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    auto m = recv(left);
    if (!m) break;
    if ((*m)["type"] == type) return *m;
    seen += (*m)["type"].get<std::string>() + " ";
  }
  throw std::runtime_error("no '" + type + "' message arrived (saw: " + seen + ")");
}

std::optional<int> WssClient::wait_closed(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!impl_->closed && Clock::now() < deadline) {
    recv(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
  }
  if (!impl_->closed) return std::nullopt;
  return impl_->close_code.value_or(-1);
}

}  // namespace bc::test
