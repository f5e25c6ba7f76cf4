#include "io/hdf5_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/error.h"

namespace jointdyn::io {
namespace {

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("jointdyn_hdf5_" + name)).string();
}

// Matrices, vectors, indices and attributes read back bit for bit, in nested groups, with
// the units of the datasets.
TEST(Hdf5File, RoundTripIsExact) {
  const std::string path = TempPath("round_trip.h5");
  const MatX v = MatX::Random(7, 3) * 1e-3;
  const VecX f = VecX::LinSpaced(5, 1.0 / 3.0, 1e5);
  Hdf5File::Indices pairs(2, 3);
  pairs << 0, -1, 4, 5000000000LL, 7, 8;
  const std::vector<std::string> names = {"free_free_1", "joint mode µ", ""};
  {
    Hdf5File file(path, Hdf5File::Mode::kCreate);
    file.WriteMatrix("basis/V", v, "m");
    file.WriteVector("basis/frequencies_hz", f, "Hz");
    file.WriteIndices("contact/1/master_nodes", pairs);
    file.WriteIndices("contact/1/slave_node", Hdf5File::Indices::Constant(4, 1, 3));
    file.WriteAttribute("/", "model", "friction bar");
    file.WriteAttribute("basis/V", "joint_modes", 12.0);
    file.WriteAttribute("basis/V", "count", 12);
    file.WriteAttribute("basis/V", "names", names);
    file.WriteAttribute("/", "empty", "");
    EXPECT_TRUE(std::filesystem::exists(path + ".part"));
    EXPECT_FALSE(std::filesystem::exists(path));  // only when complete
    file.Commit();
  }
  EXPECT_FALSE(std::filesystem::exists(path + ".part"));
  const Hdf5File file(path, Hdf5File::Mode::kRead);
  EXPECT_TRUE(file.Has("basis/V"));
  EXPECT_TRUE(file.Has("/basis"));
  EXPECT_FALSE(file.Has("basis/W"));
  EXPECT_FALSE(file.Has("other/V"));
  EXPECT_EQ(file.ReadMatrix("basis/V"), v);
  EXPECT_EQ(file.ReadVector("basis/frequencies_hz"), f);
  EXPECT_EQ(file.ReadMatrix("basis/frequencies_hz").cols(), 1);
  EXPECT_EQ(file.ReadStringAttribute("/", "model"), "friction bar");
  EXPECT_EQ(file.ReadStringAttribute("/", "empty"), "");
  EXPECT_EQ(file.ReadAttribute("basis/V", "joint_modes"), 12.0);
  EXPECT_EQ(file.ReadAttribute("basis/V", "count"), 12.0);  // an integer, read as a number
  EXPECT_EQ(file.ReadStringAttribute("basis/V", "unit"), "m");
  EXPECT_EQ(file.ReadStringAttribute("basis/frequencies_hz", "unit"), "Hz");
  EXPECT_EQ(file.ReadStringsAttribute("basis/V", "names"), names);
  EXPECT_EQ(file.ReadIndices("contact/1/master_nodes"), pairs);
  EXPECT_EQ(file.ReadIndices("contact/1/slave_node"), Hdf5File::Indices::Constant(4, 1, 3));
  EXPECT_THROW(file.ReadIndices("basis/V"), InputError);              // doubles are no indices
  EXPECT_THROW(file.ReadStringsAttribute("/", "model"), InputError);  // one string, no list
  std::filesystem::remove(path);
}

TEST(Hdf5File, ErrorsNameTheFileAndPath) {
  const std::string path = TempPath("errors.h5");
  {
    Hdf5File file(path, Hdf5File::Mode::kCreate);
    file.WriteVector("a", VecX::Ones(3), "-");
    EXPECT_THROW(file.WriteVector("a", VecX::Ones(3), "-"), InputError);
    EXPECT_THROW(file.WriteAttribute("missing", "x", 1.0), InputError);
    file.Commit();
  }
  const Hdf5File file(path, Hdf5File::Mode::kRead);
  try {
    file.ReadMatrix("b/c");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("b/c"), std::string::npos) << e.what();
  }
  EXPECT_THROW(file.ReadVector("a").size() == 3 ? file.ReadStringAttribute("a", "none") : "",
               InputError);
  EXPECT_THROW(Hdf5File(TempPath("missing.h5"), Hdf5File::Mode::kRead), InputError);
  try {
    Hdf5File("/nonexistent_dir/x.h5", Hdf5File::Mode::kCreate);
    FAIL() << "no exception";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot create the HDF5 file /nonexistent_dir/x.h5: No such file or directory");
  }
  std::filesystem::remove(path);
}

// A file not committed (an exception while writing it) leaves nothing behind, and an
// earlier file of the same name stays as it was.
TEST(Hdf5File, UncommittedFileIsRemovedAndTheEarlierOneKept) {
  const std::string path = TempPath("uncommitted.h5");
  {
    Hdf5File file(path, Hdf5File::Mode::kCreate);
    file.WriteVector("first", VecX::Ones(2), "-");
    file.Commit();
  }
  {
    Hdf5File file(path, Hdf5File::Mode::kCreate);
    file.WriteVector("second", VecX::Ones(2), "-");
  }
  EXPECT_FALSE(std::filesystem::exists(path + ".part"));
  const Hdf5File file(path, Hdf5File::Mode::kRead);
  EXPECT_TRUE(file.Has("first"));
  EXPECT_FALSE(file.Has("second"));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace jointdyn::io
