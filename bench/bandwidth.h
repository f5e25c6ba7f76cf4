// The machine limit the benches compare with (sustained memory bandwidth of a triad) and
// the one timer of repeated runs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <vector>

#include "core/clock.h"

namespace jointdyn::bench {

// Sustained bandwidth of a triad a = b + s c over arrays far larger than the caches
// [bytes/s], counting the three streams (best of 5).
inline double TriadBandwidth() {
  const std::size_t n = std::size_t{1} << 24;  // 3 x 128 MiB
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  double best = 1e30;
  for (int repeat = 0; repeat < 5; ++repeat) {
    const Clock::time_point start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + 0.5 * c[i];
    best = std::min(best, Seconds(start));
    if (a[n / 2] != 2.0) std::abort();  // keeps the loop
  }
  return 3.0 * sizeof(double) * static_cast<double>(n) / best;
}

// The shortest wall time of `repeats` calls of f [s].
template <class F>
double BestSeconds(int repeats, F&& f) {
  double best = 1e300;
  for (int k = 0; k < repeats; ++k) {
    const Clock::time_point start = Clock::now();
    f();
    best = std::min(best, Seconds(start));
  }
  return best;
}

}  // namespace jointdyn::bench
