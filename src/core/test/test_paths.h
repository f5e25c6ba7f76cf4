// Where the tests find the source tree (examples, test corpora, docs).
#pragma once

#include <cstdlib>
#include <filesystem>

namespace jointdyn::test_paths {

inline std::filesystem::path SourceDir() {
  const char* env = std::getenv("JOINTDYN_SOURCE_DIR");
  return env ? env : JOINTDYN_SOURCE_DIR;
}

}  // namespace jointdyn::test_paths
