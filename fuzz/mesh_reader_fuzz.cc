// libFuzzer target: the bytes are a mesh file, read as a Gmsh .msh file, an Abaqus .inp
// file, Nastran bulk data, a Matrix Market matrix, and the node file and the node-set file
// of a Matrix Market model (the other files from examples/fe). Readers take paths (and
// check the extension), so the bytes go to temporary files. A malformed file must be an
// InputError; anything else is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "fe/abaqus_inp.h"
#include "fe/gmsh_mesh.h"
#include "fe/matrix_market.h"
#include "fe/nastran_bdf.h"

using namespace jointdyn;

// The bytes as a temporary file with `extension`.
std::string Temporary(const uint8_t* data, size_t size, const std::string& extension) {
  const std::string file = std::filesystem::temp_directory_path() /
                           ("jointdyn_fuzz_" + std::to_string(getpid()) + extension);
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data), size);
  return file;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = Temporary(data, size, ".msh");
  const std::string inp = Temporary(data, size, ".inp"), bdf = Temporary(data, size, ".bdf");
  const auto read = [](auto reader) {
    try {
      reader();
    } catch (const InputError&) {
    }
  };
  read([&] { fe::ReadMsh(file); });
  read([&] { fe::ReadInp(inp); });
  read([&] { fe::ReadBdf(bdf); });
  read([&] { fe::ReadMatrixMarket(file); });
  fe::MatrixModelFiles example =
      fe::MatrixModelFiles::FromPrefix(JOINTDYN_SOURCE_DIR "/examples/fe/cantilever_2d");
  read([&] { fe::ReadMatrixModel({example.stiffness, example.mass, file, example.sets}); });
  read([&] { fe::ReadMatrixModel({example.stiffness, example.mass, example.nodes, file}); });
  return 0;
}
