// Wall-clock timing of stages (the `*_seconds` figures of results and summaries).
#pragma once

#include <chrono>

namespace jointdyn {

using Clock = std::chrono::steady_clock;

// Seconds elapsed since `since`.
inline double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

}  // namespace jointdyn
