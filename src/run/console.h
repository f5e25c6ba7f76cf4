// What the command line shows while an analysis runs: progress lines and notes on stderr,
// each prefixed with the analysis (e.g. "joint dynamics: Craig-Bampton: 1/1 (100%), 2.1 s").
// A progress line is written at most once a second (rewritten in place on a terminal) and
// always at the end of a task, so a long run is seen to be alive.
#pragma once

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include "analysis/observer.h"

namespace jointdyn::run {

// One task's progress line on stderr.
class ProgressLine {
 public:
  ProgressLine(std::string label, int total, double interval_seconds = 1.0);
  void Update(int done);  // done in [0, total]

 private:
  std::string label_;
  int total_;
  double interval_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_, last_;
};

// An analysis observer (analysis::Observer or one derived from it) that shows progress
// and notes on stderr; report writers derive from Console<TheirObserver>.
template <class Base = analysis::Observer>
class Console : public Base {
 public:
  explicit Console(std::string prefix) : prefix_(std::move(prefix)) {}

  void Progress(const std::string& task, int done, int total) override {
    if (!line_ || task != task_ || done == 0) {
      task_ = task;
      line_ = std::make_unique<ProgressLine>(prefix_ + ": " + task, total);
    }
    line_->Update(done);
  }
  void Note(const std::string& text) override { std::cerr << prefix_ << ": " << text << "\n"; }

 private:
  std::string prefix_;
  std::string task_;
  std::unique_ptr<ProgressLine> line_;
};

}  // namespace jointdyn::run
