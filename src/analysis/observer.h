// What an analysis tells its caller while it runs, so that a long run shows that it is
// alive and its results can be written as they come (a run that fails or is stopped keeps
// what was written). The command line prints progress and notes on stderr and writes files
// from the per-step calls of the analyses' own observers (e.g. TransientObserver); the
// Python module and tests may listen or not. Every call has an empty default: an analysis
// computes the same with or without an observer.
#pragma once

#include <string>

#include "core/progress.h"

namespace jointdyn::analysis {

class Observer {
 public:
  virtual ~Observer() = default;
  // `task` ("Craig-Bampton", "run wpod_tvd_20 (36 coordinates)") has done `done` of `total`
  // units; called with done = 0 when it starts and done = total when it ends.
  virtual void Progress(const std::string& task, int done, int total) {}
  // A line the user should read: a stage's figures, a fallback taken, a warning.
  virtual void Note(const std::string& text) {}

  // Progress of `task` as a core::ProgressFn for the layers below (fe::BuildFeModel).
  ProgressFn ProgressOf(const std::string& task) {
    return [this, task](int done, int total) { Progress(task, done, total); };
  }
};

}  // namespace jointdyn::analysis
