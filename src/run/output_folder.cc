#include "run/output_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/atomic_file.h"
#include "core/error.h"
#include "io/results.h"

namespace jointdyn::run {
namespace {

namespace fs = std::filesystem;

constexpr char kLockFile[] = ".jointdyn.lock";

// The files an earlier run listed in its summary.json, complete and partial (relative
// paths inside the folder only: a hand-edited list cannot reach outside).
std::vector<fs::path> EarlierFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::ifstream in(dir / "summary.json");
  if (!in) return files;
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
  if (!summary.is_object()) return files;
  for (const char* list : {"files", "partial"}) {
    if (!summary.contains(list) || !summary[list].is_array()) continue;
    for (const nlohmann::json& name : summary[list]) {
      if (!name.is_string()) continue;
      const fs::path path = fs::path(name.get<std::string>()).lexically_normal();
      if (path.empty() || path.is_absolute() || *path.begin() == "..") continue;
      files.push_back(path);
    }
  }
  return files;
}

// Removes `file` (relative to `dir`) and its .part leftover, then the subfolders of its
// path that are left empty (contact_fields/).
void RemoveFile(const fs::path& dir, const fs::path& file) {
  std::error_code ec;
  fs::remove(dir / file, ec);
  fs::remove(PartPath(dir / file), ec);
  for (fs::path parent = file.parent_path(); !parent.empty(); parent = parent.parent_path())
    if (fs::is_empty(dir / parent, ec)) fs::remove(dir / parent, ec);
}

// The process id the holder of the lock wrote into the lock file ("" when not yet written).
std::string LockHolder(const fs::path& path) {
  std::ifstream in(path);
  std::string pid;
  in >> pid;
  return pid;
}

// An exclusive open-file-description lock on the whole of `fd` (also exclusive between two
// folders of one process, unlike a classic POSIX lock); false when another holds it.
bool TryLock(int fd, const fs::path& path) {
  struct flock lock = {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (fcntl(fd, F_OFD_SETLK, &lock) == 0) return true;
  if (errno == EACCES || errno == EAGAIN) return false;
  throw IoError("lock", path.string(), errno);
}

// Whether `fd` is still the file at `path` (the run that held the lock may have removed
// the file between our open and our lock: a lock on the removed file would exclude nobody).
bool StillThere(int fd, const fs::path& path) {
  struct stat opened = {}, current = {};
  return fstat(fd, &opened) == 0 && stat(path.c_str(), &current) == 0 &&
         opened.st_dev == current.st_dev && opened.st_ino == current.st_ino;
}

}  // namespace

OutputFolder::OutputFolder(fs::path dir) : dir_(std::move(dir)) {}

OutputFolder::~OutputFolder() { Unlock(); }

void OutputFolder::CheckWritable() const {
  if (dir_.empty()) throw InputError("--out", "''", "must name a folder");
  std::error_code ec;
  fs::path existing = fs::absolute(dir_, ec);
  while (!existing.empty() && !fs::exists(existing, ec)) existing = existing.parent_path();
  const std::string shown = dir_.string();
  if (!fs::is_directory(existing, ec))
    throw InputError("--out", shown, existing.string() + " is not a folder");
  if (access(existing.c_str(), W_OK | X_OK) != 0)
    throw InputError("--out", shown,
                     "cannot write into " + existing.string() + ": " + std::strerror(errno));
}

void OutputFolder::Lock() {
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) {
    created_ = fs::create_directories(dir_, ec);
    if (ec) throw IoError("create the output folder", dir_.string(), ec.value());
  }
  const fs::path path = dir_ / kLockFile;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError("create the lock file", path.string(), errno);
    if (!TryLock(fd, path)) {
      close(fd);
      const std::string pid = LockHolder(path);
      throw InputError("--out", dir_.string(),
                       "is in use by another jointdyn run (process " +
                           (pid.empty() ? std::string("not known yet") : pid) +
                           "): wait for it to end or choose another folder");
    }
    if (StillThere(fd, path)) {
      const std::string pid = std::to_string(getpid()) + "\n";
      if (ftruncate(fd, 0) != 0 || write(fd, pid.data(), pid.size()) < 0)
        throw IoError("write", path.string(), errno);
      lock_fd_ = fd;
      return;
    }
    close(fd);  // removed under us: lock the one there now
  }
  throw InputError("--out", dir_.string(), "its lock changes hands too often to be taken");
}

void OutputFolder::Unlock() {
  if (lock_fd_ < 0) return;
  std::error_code ec;
  fs::remove(dir_ / kLockFile, ec);  // still locked: a run waiting for it sees it gone
  close(lock_fd_);
  lock_fd_ = -1;
}

void OutputFolder::Start() {
  if (started_) return;
  started_ = true;
  if (lock_fd_ < 0) Lock();
  const std::vector<fs::path> earlier = EarlierFiles(dir_);
  if (!earlier.empty()) {  // a kill while removing them leaves a summary that lists them
    nlohmann::json partial = nlohmann::json::array();
    for (const fs::path& file : earlier) partial.push_back(file.string());
    io::WriteJson(dir_ / "summary.json", {{"status", "running"},
                                          {"message", "removing the earlier run's files"},
                                          {"files", nlohmann::json::array()},
                                          {"partial", partial}});
  }
  for (const fs::path& file : earlier)
    if (file != "summary.json") RemoveFile(dir_, file);
  // .part files no summary listed: a run killed while it wrote a file between two summaries.
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->path().extension() == ".part" && it->is_regular_file()) fs::remove(it->path(), ec);
}

fs::path OutputFolder::File(const std::string& name) {
  Start();
  const fs::path path = dir_ / name;
  if (listed_.insert(name).second) {
    files_.push_back(name);
    if (fs::path(name).has_parent_path()) io::EnsureDirectory(path.parent_path());
  }
  return path;
}

void OutputFolder::Abandon() {
  for (const std::string& name : files_) RemoveFile(dir_, name);
  files_.clear();
  listed_.clear();
  Unlock();
  std::error_code ec;
  if (created_ && fs::is_empty(dir_, ec)) fs::remove(dir_, ec);
}

std::vector<std::string> OutputFolder::Complete() const {
  std::vector<std::string> names;
  for (const std::string& name : files_)
    if (fs::exists(dir_ / name)) names.push_back(name);
  return names;
}

std::vector<std::string> OutputFolder::Partial() const {
  std::vector<std::string> names;
  for (const std::string& name : files_)
    if (fs::exists(PartPath(dir_ / name))) names.push_back(name);
  return names;
}

}  // namespace jointdyn::run
