// What every report writer holds: the options of its run (as the model file gave them),
// the model file's path (for summary.json) and the output folder; and the console that
// shows the run's progress and notes under the analysis's name ("joint dynamics: ..").
// A report writer is the observer of its analysis (Observer: analysis::Observer or the
// analysis's own, e.g. analysis::TransientObserver) and writes its files in Finish().
#pragma once

#include <algorithm>
#include <string>
#include <utility>

#include "run/console.h"
#include "run/output_folder.h"

namespace jointdyn::run {

template <class Options, class Observer = analysis::Observer>
class Report : public Console<Observer> {
 public:
  // `analysis`: the model-file name of the analysis ("joint_dynamics").
  Report(std::string analysis, const Options& options, std::string model_file, OutputFolder& folder)
      : Console<Observer>(Spaced(analysis)),
        analysis_(std::move(analysis)),
        options_(options),
        model_file_(std::move(model_file)),
        folder_(folder) {}

 protected:
  const std::string analysis_;
  const Options& options_;
  const std::string model_file_;
  OutputFolder& folder_;

 private:
  static std::string Spaced(std::string name) {
    std::replace(name.begin(), name.end(), '_', ' ');
    return name;
  }
};

}  // namespace jointdyn::run
