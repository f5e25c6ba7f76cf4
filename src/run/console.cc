#include "run/console.h"

#include <unistd.h>

#include <cstdio>

namespace jointdyn::run {

ProgressLine::ProgressLine(std::string label, int total, double interval_seconds)
    : label_(std::move(label)),
      total_(total),
      interval_(interval_seconds),
      terminal_(isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ProgressLine::Update(int done) {
  const auto now = std::chrono::steady_clock::now();
  const bool last = done >= total_;
  if (!last && std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "%s%s: %d/%d (%.0f%%), %.1f s%s", terminal_ ? "\r" : "", label_.c_str(),
               done, total_, total_ > 0 ? 100.0 * done / total_ : 100.0, elapsed,
               terminal_ && !last ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace jointdyn::run
