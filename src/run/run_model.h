// Running a model file: reads the top-level `analysis:` key, reads the options of that
// analysis (src/model), runs it (src/analysis) with its report writer as the observer, and
// writes the results (CSV, HDF5, VTU, SVG and summary.json) into the output folder
// (run/output_folder.h: one run at a time; a rerun first removes the earlier run's files).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/model_node.h"

namespace jointdyn::run {

struct RunOutcome {
  bool ok = true;                 // false: numerical failure (results so far are written)
  std::string message;            // what failed, where
  std::filesystem::path summary;  // the summary.json written
};

// The analyses a model file can name, with one line each (for `jointdyn run --help`).
struct AnalysisEntry {
  const char* name;
  const char* summary;
};
const std::vector<AnalysisEntry>& Analyses();

// Locks the output folder for the run (run/output_folder.h) and writes summary.json with
// status "running" once the model file has been read. Throws InputError for a bad model
// file or output folder or a folder another run holds (nothing is written then), with
// errors found while building the model located at their key's line; IoError when a
// result cannot be written (summary.json then says "failed" with the reason, if the disk
// still takes it). A run stopped by SIGINT/SIGTERM (core/stop.h) returns ok = false with
// its results so far and status "interrupted".
RunOutcome RunModelFile(const std::filesystem::path& model, const std::filesystem::path& out_dir);
// The same for a model already read (a file, or a string: the Python module's dicts).
RunOutcome RunModel(const model::ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::run
