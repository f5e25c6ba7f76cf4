// Matrix Market and companion files: an exact (bitwise) round trip of an assembled model,
// and strict rejection of broken files with file, line and rule.
#include "fe/matrix_market.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/memory.h"
#include "fe/assembly.h"
#include "fe/structured_mesh.h"

namespace jointdyn::fe {
namespace {

std::string TempPath(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "jointdyn_fe_mm";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

void ExpectBitwiseEqual(const solvers::SparseMatrix& a, const solvers::SparseMatrix& b) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  ASSERT_EQ(a.nonZeros(), b.nonZeros());
  for (int k = 0; k <= a.outerSize(); ++k) ASSERT_EQ(a.outerIndexPtr()[k], b.outerIndexPtr()[k]);
  for (int k = 0; k < a.nonZeros(); ++k) {
    ASSERT_EQ(a.innerIndexPtr()[k], b.innerIndexPtr()[k]);
    ASSERT_EQ(std::memcmp(a.valuePtr() + k, b.valuePtr() + k, sizeof(double)), 0) << "entry " << k;
  }
}

TEST(MatrixMarket, ModelRoundTripIsBitwiseExact) {
  BoxMeshOptions options;
  options.size = Vec3(0.2, 0.02, 0.003);
  options.divisions = {6, 2, 1};
  options.type = ElementType::kTet10;
  options.distortion = 0.2;  // coordinates with all 17 digits
  MatrixModel model;
  model.mesh = MakeBoxMesh(options);
  const AssemblyResult assembled = Assemble(model.mesh, {{"box", {}}});
  model.stiffness = assembled.stiffness;
  model.mass = assembled.mass;
  const std::string prefix = TempPath("tet10_bar");
  WriteMatrixModel(prefix, model);
  const MatrixModel read = ReadMatrixModel(prefix);
  ExpectBitwiseEqual(read.stiffness, model.stiffness);
  ExpectBitwiseEqual(read.mass, model.mass);
  EXPECT_EQ(read.mesh.dim, 3);
  ASSERT_EQ(read.mesh.nodes.rows(), model.mesh.nodes.rows());
  EXPECT_EQ(std::memcmp(read.mesh.nodes.data(), model.mesh.nodes.data(),
                        sizeof(double) * model.mesh.nodes.size()),
            0);
  EXPECT_EQ(read.mesh.node_sets, model.mesh.node_sets);
  // Messages name nodes by their 1-based numbers in the node file.
  EXPECT_EQ(read.mesh.file, prefix + "_nodes.txt");
  EXPECT_EQ(read.mesh.NodeName(0), "node 1");
  EXPECT_EQ(read.mesh.NodeTag(read.mesh.num_nodes() - 1), read.mesh.num_nodes());
}

TEST(MatrixMarket, GeneralFilesKeepUnsymmetricEntries) {
  solvers::SparseMatrix a(3, 2);
  a.insert(0, 0) = 1.0 / 3.0;
  a.insert(2, 0) = -2.5e-300;
  a.insert(1, 1) = 6.02214076e23;
  a.makeCompressed();
  const std::string path = TempPath("general.mtx");
  WriteMatrixMarket(path, a, MatrixSymmetry::kGeneral);
  ExpectBitwiseEqual(ReadMatrixMarket(path), a);
}

// The message of reading `content` as a file, with the file name removed.
std::string ReadError(const std::string& content) {
  const std::string path = TempPath("bad.mtx");
  std::ofstream(path) << content;
  try {
    ReadMatrixMarket(path);
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;  // starts with the file
    return message.substr(path.size());
  }
  return "no error";
}

TEST(MatrixMarket, RejectsBrokenFilesNamingLineAndRule) {
  const std::string banner = "%%MatrixMarket matrix coordinate real symmetric\n";
  EXPECT_EQ(ReadError("3 3 1\n"), ":1: banner: the file must start with %%MatrixMarket");
  EXPECT_EQ(ReadError("%%MatrixMarket matrix array real general\n"),
            ":1: banner = matrix array: only 'matrix coordinate' files are supported");
  EXPECT_EQ(ReadError("%%MatrixMarket matrix coordinate complex general\n"),
            ":1: field = complex: must be real, integer or double");
  EXPECT_EQ(ReadError(banner + "% c\n3 3\n"), ":3: size: must be 'rows cols entries'");
  EXPECT_EQ(ReadError(banner + "3 2 1\n"), ":2: cols = 2: a symmetric matrix must be square");
  EXPECT_EQ(ReadError(banner + "3 3 2\n1 1 1.0\n\n4 1 2.0\n"), ":5: row = 4: must be in [1, 3]");
  EXPECT_EQ(ReadError(banner + "3 3 1\n1 2 1.0\n"),
            ":3: row = 1: must be >= col = 2 (a symmetric file holds the lower triangle)");
  EXPECT_EQ(ReadError(banner + "3 3 1\n1 1 nan\n"), ":3: value = nan: must be a finite number");
  EXPECT_EQ(ReadError(banner + "3 3 1\n1 1 1.0x\n"), ":3: value = 1.0x: must be a finite number");
  EXPECT_EQ(ReadError(banner + "3 3 1\n1 1\n"), ":3: entry: must be 'row col value'");
  EXPECT_EQ(ReadError(banner + "3 3 3\n1 1 1.0\n2 1 1.0\n"),
            ":4: entries = 3: the file ends after 2 entries");
  EXPECT_EQ(ReadError(banner + "3 3 1\n1 1 1.0\n2 2 1.0\n"),
            ":4: entries = 1: the file has more entries than this");
  EXPECT_EQ(ReadError(banner + "3 3 2\n2 1 1.0\n2 1 1.0\n"),
            ":4: entry = 2 1: repeats the entry of line 3");
}

// A size line beyond the memory is an input error at it, before anything is allocated (it
// ended in std::bad_alloc). The bound is set low: the largest sizes a Matrix Market file can
// state (int rows and entries) need about 300 GB, which a large machine has.
TEST(MatrixMarket, RejectsSizesBeyondMemory) {
  const std::string banner = "%%MatrixMarket matrix coordinate real symmetric\n";
  SetMemoryBound(64u << 20);
  for (const auto& [size, need] :
       {std::pair<std::string, std::string>{"2000000000 2000000000 1", "134 GB"},
        {"100000 100000 2000000", "159 MB"}}) {
    const std::string message = ReadError(banner + size + "\n1 1 1.0\n");
    EXPECT_EQ(message.rfind(":2: size = " + size + ": needs " + need + " for a ", 0), 0u)
        << message;
    EXPECT_NE(message.find(" but this process may use 64 MB of memory"), std::string::npos)
        << message;
  }
  SetMemoryBound(0);
  EXPECT_EQ(ReadError(banner + "100000 100000 2000000\n1 1 1.0\n"),
            ":3: entries = 2000000: the file ends after 1 entries");
}

TEST(MatrixMarket, RejectsInconsistentCompanionFiles) {
  RectangleMeshOptions options;
  options.divisions = {2, 1};
  MatrixModel model;
  model.mesh = MakeRectangleMesh(options);
  const AssemblyResult assembled = Assemble(model.mesh, {{"rectangle", {}}});
  model.stiffness = assembled.stiffness;
  model.mass = assembled.mass;
  const std::string prefix = TempPath("plane");
  WriteMatrixModel(prefix, model);
  EXPECT_EQ(ReadMatrixModel(prefix).mesh.dim, 2);
  auto error = [&] {
    try {
      ReadMatrixModel(prefix);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::ofstream(prefix + "_sets.txt") << "# sets\nclamp 2\n1 7\n";
  EXPECT_EQ(error(), prefix + "_sets.txt:3: clamp = 7: must be in [1, 6]");
  std::ofstream(prefix + "_sets.txt") << "clamp 2\n1 1\n";
  EXPECT_EQ(error(), prefix + "_sets.txt:2: clamp = 1: appears twice in the set");
  std::ofstream(prefix + "_sets.txt") << "clamp 1\n1\nclamp 1\n2\n";
  EXPECT_EQ(error(), prefix + "_sets.txt:3: set = clamp: is defined twice");
  std::ofstream(prefix + "_sets.txt") << "";
  std::ofstream(prefix + "_nodes.txt") << "6 2\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 1\n";
  EXPECT_EQ(error(), prefix + "_nodes.txt:7: z = 1: must be 0 in a plane model");
  std::ofstream(prefix + "_nodes.txt") << "5 2\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n";
  EXPECT_EQ(error(), prefix + "_K.mtx: size = 12 x 12: must be 10 x 10 (nodes x DOFs per node)");
  std::ofstream(prefix + "_nodes.txt") << "2000000000 3\n0 0 0\n";
  const std::string nodes = error();
  EXPECT_EQ(nodes.rfind(prefix + "_nodes.txt:1: nodes = 2000000000: needs ", 0), 0u) << nodes;
}

}  // namespace
}  // namespace jointdyn::fe
