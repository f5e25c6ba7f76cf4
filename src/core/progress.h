// Progress of long runs on stderr: at most one line per interval (rewritten in place on a
// terminal), and always the last one, so a user sees that a long run is alive.
#pragma once

#include <chrono>
#include <string>

namespace jointdyn {

class Progress {
 public:
  Progress(std::string label, int total, double interval_seconds = 1.0);
  void Update(int done);  // done in [0, total]

 private:
  std::string label_;
  int total_;
  double interval_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace jointdyn
