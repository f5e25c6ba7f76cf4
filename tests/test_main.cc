// The main of every GoogleTest program: each test process gets a temporary folder of its
// own (TMPDIR = <temp>/jointdyn_test_<pid>), so that the test cases ctest runs side by side
// (-j) never write the same file, whatever fixed names they use below
// std::filesystem::temp_directory_path(). The folder is removed when every test passed and
// kept (its path printed) for a look when one failed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("jointdyn_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ::setenv("TMPDIR", dir.c_str(), 1);
  const int result = RUN_ALL_TESTS();
  if (result == 0) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  } else {
    std::cerr << "test files kept in " << dir.string() << "\n";
  }
  return result;
}
