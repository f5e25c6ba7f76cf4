// Running a model file: reads the top-level `analysis:` key, runs that analysis, and
// writes its results (CSV, summary.json, a plot) into the output directory.
#pragma once

#include <filesystem>
#include <string>

namespace jointdyn::io {

struct RunOutcome {
  bool ok = true;                 // false: numerical failure (results so far are written)
  std::string message;            // what failed, where
  std::filesystem::path summary;  // the summary.json written
};

// Throws InputError for a bad model file (nothing is written then).
RunOutcome RunModelFile(const std::filesystem::path& model, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
