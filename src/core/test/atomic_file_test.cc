// Files written under "<name>.part" and renamed into place (core/atomic_file.h).
#include "core/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace jointdyn {
namespace {

namespace fs = std::filesystem;

fs::path Fresh(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("jointdyn_atomic_file_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Until Commit() the file is only under .part, and the earlier file stays as it was.
TEST(AtomicFile, AppearsWholeUnderItsNameOnlyWhenCommitted) {
  const fs::path path = Fresh("commit") / "a.txt";
  WriteFileAtomically(path, "earlier\n");
  AtomicFile file(path);
  file.out() << "new\n";
  file.Flush();
  EXPECT_EQ(Read(path), "earlier\n");
  EXPECT_EQ(Read(PartPath(path)), "new\n");
  file.Commit();
  EXPECT_EQ(Read(path), "new\n");
  EXPECT_FALSE(fs::exists(PartPath(path)));
}

TEST(AtomicFile, NotCommittedLeavesNothing) {
  const fs::path path = Fresh("abandon") / "a.txt";
  {
    AtomicFile file(path);
    file.out() << "half";
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(PartPath(path)));
}

TEST(AtomicFile, FailureNamesThePathAndTheReason) {
  const fs::path path = Fresh("fail") / "missing" / "a.txt";
  try {
    WriteFileAtomically(path, "x");
    FAIL() << "no exception";
  } catch (const IoError& error) {
    EXPECT_EQ(std::string(error.what()),
              "cannot write " + path.string() + ": No such file or directory");
  }
}

// /dev/full fails every write with ENOSPC: the reason reaches the message.
TEST(AtomicFile, FullDiskIsReportedWithTheReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  std::ofstream probe("/dev/full");
  probe << std::string(1 << 16, 'x') << std::flush;
  ASSERT_FALSE(probe) << "/dev/full took the write";
  const fs::path dir = Fresh("full");
  fs::create_symlink("/dev/full", PartPath(dir / "a.txt"));
  AtomicFile file(dir / "a.txt");
  file.out() << std::string(1 << 16, 'x');
  try {
    file.Flush();
    FAIL() << "no exception";
  } catch (const IoError& error) {
    EXPECT_NE(std::string(error.what()).find("No space left on device"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace jointdyn
