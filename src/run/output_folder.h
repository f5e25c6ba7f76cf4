// The output folder of a run. Every result file is written through it, so it knows what
// the run wrote: summary.json lists those files under "files" (complete) and "partial"
// (still being written, under "<name>.part": core/atomic_file.h).
//
// One run per folder: Lock() takes an exclusive lock on the folder (an fcntl lock on the
// file .jointdyn.lock in it, which holds the process id and is removed when the run ends);
// a second run into the same folder fails at once, naming the process that holds it.
// A rerun replaces the earlier run's results: Start() removes the files the earlier run
// listed in its summary.json and every .part file (what a killed run was writing). Other
// files stay: the user's own files, or another run's that shares the folder one after the
// other.
// Bad input found after Lock() (a mesh file that cannot be read) makes Abandon() remove
// what this run wrote, its lock and the folder if this run created it and it is empty.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

namespace jointdyn::run {

class OutputFolder {
 public:
  explicit OutputFolder(std::filesystem::path dir);
  ~OutputFolder();  // releases the lock
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  // Throws InputError("--out", dir, reason) unless `dir` is a writable folder or can be
  // created (its nearest existing ancestor is a writable folder). Creates nothing.
  void CheckWritable() const;

  // Creates the folder when missing and locks it for this run; throws InputError("--out",
  // dir, "is in use by ... (process N)") when another run holds it, IoError when the
  // folder or its lock file cannot be created.
  void Lock();

  // Removes the earlier run's files and .part files (once; File() calls it too).
  void Start();

  // The path to write `name` to (relative to the folder, e.g. "contact_fields/a.vtu").
  // Each name is recorded once, in order. Subfolders of `name` are created.
  std::filesystem::path File(const std::string& name);

  // After bad input: removes the files this run wrote, its lock, and the folder when this
  // run created it and nothing else is in it.
  void Abandon();

  // The names this run wrote that are complete, and those still being written (.part).
  std::vector<std::string> Complete() const;
  std::vector<std::string> Partial() const;

  // The last summary written (run/summaries.h), so that a run that ends by an exception
  // (a write that failed) can still say in summary.json how far it got.
  const nlohmann::json& last_summary() const { return last_summary_; }
  void set_last_summary(nlohmann::json summary) { last_summary_ = std::move(summary); }

  const std::filesystem::path& dir() const { return dir_; }

 private:
  void Unlock();

  std::filesystem::path dir_;
  bool created_ = false;  // Lock() created the folder
  int lock_fd_ = -1;
  bool started_ = false;
  std::vector<std::string> files_;          // in the order written
  std::unordered_set<std::string> listed_;  // the same, for lookups
  nlohmann::json last_summary_;
};

}  // namespace jointdyn::run
