// Every result file is written under a temporary name, "<name>.part" in the same folder,
// and renamed to its name when it is complete (rename is atomic within a file system): a
// file under its own name is always whole, and a run that is killed leaves at most .part
// files of what it was writing (run/output_folder.h removes them on a rerun). The files are
// not fsync'ed: this protects against a killed process, not against a power cut.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>

namespace jointdyn {

// The temporary name of `path`: "<path>.part".
std::filesystem::path PartPath(const std::filesystem::path& path);

// Renames `from` to `to`; throws IoError with the operating system's reason.
void RenameFile(const std::filesystem::path& from, const std::filesystem::path& to);

// A file written through out() and renamed into place by Commit(). What out() takes is
// written to the file by Flush() and Commit() (POSIX write, so that a failure has its exact
// reason); every failure throws IoError naming the path and the reason (disk full,
// permission).
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);
  // Not committed (an exception on the way, a failed write): removes the .part file.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& out() { return buffer_; }
  // Writes what out() took to the file (a row of a CSV written row by row).
  void Flush();
  // Flushes, closes and renames the file to its name; once.
  void Commit();
  bool committed() const { return committed_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path part_;
  std::ostringstream buffer_;
  int fd_ = -1;
  bool committed_ = false;
};

// Writes `content` to `path` through an AtomicFile.
void WriteFileAtomically(const std::filesystem::path& path, const std::string& content);

}  // namespace jointdyn
