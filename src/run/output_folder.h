// The output folder of a run. Every result file is written through it, so it knows what
// the run wrote: summary.json lists those files under "files", and a rerun into the same
// folder first removes the files the earlier run listed there (other files stay: a folder
// that holds more than one run's output, or the user's own files, loses nothing else).
// Nothing is created before the first file is asked for, so bad input found while an
// analysis checks its options (before it computes) leaves no folder behind.
#pragma once

#include <filesystem>
#include <string>
#include <unordered_set>
#include <vector>

namespace jointdyn::run {

class OutputFolder {
 public:
  explicit OutputFolder(std::filesystem::path dir);

  // Throws InputError("--out", dir, reason) unless `dir` is a writable folder or can be
  // created (its nearest existing ancestor is a writable folder). Creates nothing.
  void CheckWritable() const;

  // The path to write `name` to (relative to the folder, e.g. "contact_fields/a.vtu").
  // The first call creates the folder and removes the earlier run's files; each name is
  // recorded once, in order. Subfolders of `name` are created.
  std::filesystem::path File(const std::string& name);

  const std::filesystem::path& dir() const { return dir_; }
  const std::vector<std::string>& files() const { return files_; }

 private:
  void Prepare();

  std::filesystem::path dir_;
  bool prepared_ = false;
  std::vector<std::string> files_;          // in the order written
  std::unordered_set<std::string> listed_;  // the same, for lookups
};

}  // namespace jointdyn::run
