#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "core/error.h"

namespace jointdyn {

std::filesystem::path PartPath(const std::filesystem::path& path) {
  std::filesystem::path part = path;
  part += ".part";
  return part;
}

void RenameFile(const std::filesystem::path& from, const std::filesystem::path& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    throw IoError("rename " + from.string() + " to", to.string(), errno);
}

AtomicFile::AtomicFile(std::filesystem::path path)
    : path_(std::move(path)), part_(PartPath(path_)) {
  fd_ = open(part_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError("write", path_.string(), errno);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (fd_ >= 0) close(fd_);
  std::error_code ignored;
  std::filesystem::remove(part_, ignored);
}

void AtomicFile::Flush() {
  const std::string text = buffer_.str();
  buffer_.str("");
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("write", path_.string(), errno);
    done += static_cast<size_t>(n);
  }
}

void AtomicFile::Commit() {
  if (committed_) return;
  Flush();
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) throw IoError("write", path_.string(), errno);
  RenameFile(part_, path_);
  committed_ = true;
}

void WriteFileAtomically(const std::filesystem::path& path, const std::string& content) {
  AtomicFile file(path);
  file.out() << content;
  file.Commit();
}

}  // namespace jointdyn
