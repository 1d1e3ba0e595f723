// The executor that keeps one connection's or one room's handlers from overlapping.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

namespace bc::server {

// A strand when several threads run the io_context. When one thread does, the io_context's own
// executor already runs one handler at a time, and a strand would only add its lock and queue to
// every hand-off (a move makes several).
inline boost::asio::any_io_executor serial_executor(boost::asio::io_context& ioc, bool one_thread) {
  if (one_thread) return ioc.get_executor();
  return boost::asio::make_strand(ioc);
}

}  // namespace bc::server
