#include "core/stop.h"

#include <atomic>
#include <csignal>

namespace jointdyn {
namespace {

std::atomic<int> requested{0};
static_assert(std::atomic<int>::is_always_lock_free, "RequestStop must be async-signal-safe");

}  // namespace

void RequestStop(int signal) { requested.store(signal, std::memory_order_relaxed); }

int StopRequested() { return requested.load(std::memory_order_relaxed); }

void ClearStopRequest() { requested.store(0, std::memory_order_relaxed); }

std::string StopReason() {
  const int signal = StopRequested();
  return std::string("interrupted by ") + (signal == SIGINT ? "SIGINT"
                                           : signal == SIGTERM
                                               ? "SIGTERM"
                                               : "signal " + std::to_string(signal));
}

}  // namespace jointdyn
