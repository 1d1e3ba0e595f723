// Boost.Beast for the network layer only. Included by listener, http_session, websocket_session
// and server.cpp, which CMake compiles as one unity translation unit (Beast is slow to compile).
#pragma once

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace bc::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

// Reports a failure, ignoring the ordinary ends of a connection.
void fail(beast::error_code ec, const char* what);

}  // namespace bc::server
