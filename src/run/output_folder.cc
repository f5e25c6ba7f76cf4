#include "run/output_folder.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/error.h"

namespace jointdyn::run {
namespace {

namespace fs = std::filesystem;

// The files an earlier run listed in its summary.json (relative paths inside the folder
// only: a hand-edited list cannot reach outside).
std::vector<fs::path> EarlierFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::ifstream in(dir / "summary.json");
  if (!in) return files;
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
  if (!summary.is_object() || !summary.contains("files") || !summary["files"].is_array())
    return files;
  for (const nlohmann::json& name : summary["files"]) {
    if (!name.is_string()) continue;
    const fs::path path = fs::path(name.get<std::string>()).lexically_normal();
    if (path.empty() || path.is_absolute() || *path.begin() == "..") continue;
    files.push_back(path);
  }
  return files;
}

}  // namespace

OutputFolder::OutputFolder(fs::path dir) : dir_(std::move(dir)) {}

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

void OutputFolder::Prepare() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw std::runtime_error("cannot create the output folder " + dir_.string() + ": " +
                             ec.message());
  for (const fs::path& file : EarlierFiles(dir_)) {
    fs::remove(dir_ / file, ec);
    // Subfolders the earlier run made (contact_fields/) go when they are left empty.
    for (fs::path parent = file.parent_path(); !parent.empty(); parent = parent.parent_path())
      if (fs::is_empty(dir_ / parent, ec)) fs::remove(dir_ / parent, ec);
  }
  prepared_ = true;
}

fs::path OutputFolder::File(const std::string& name) {
  if (!prepared_) Prepare();
  const fs::path path = dir_ / name;
  if (listed_.insert(name).second) {
    files_.push_back(name);
    if (fs::path(name).has_parent_path()) fs::create_directories(path.parent_path());
  }
  return path;
}

}  // namespace jointdyn::run
