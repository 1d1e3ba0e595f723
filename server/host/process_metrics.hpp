// The process_* series of the Prometheus conventions, read from /proc/self (Linux): resident
// memory, virtual memory, open and maximum file descriptors, CPU seconds, start time, threads.
#pragma once

#include <string>

namespace bc::server {

// Appends the series it can read (none where /proc is missing) in the Prometheus text format.
void append_process_metrics(std::string& out);

}  // namespace bc::server
