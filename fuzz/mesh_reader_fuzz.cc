// libFuzzer target: the bytes are a mesh file, read as a Gmsh .msh file, as a Matrix Market
// matrix, and as the node file and the node-set file of a Matrix Market model (the other
// files from examples/fe). Readers take paths, so the bytes go to a temporary file. A
// malformed file must be an InputError; anything else is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "fe/gmsh_mesh.h"
#include "fe/matrix_market.h"

using namespace jointdyn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string file = std::filesystem::temp_directory_path() /
                                  ("jointdyn_fuzz_" + std::to_string(getpid()) + ".msh");
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data), size);
  const auto read = [](auto reader) {
    try {
      reader();
    } catch (const InputError&) {
    }
  };
  read([] { fe::ReadMsh(file); });
  read([] { fe::ReadMatrixMarket(file); });
  fe::MatrixModelFiles example =
      fe::MatrixModelFiles::FromPrefix(JOINTDYN_SOURCE_DIR "/examples/fe/cantilever_2d");
  read([&] { fe::ReadMatrixModel({example.stiffness, example.mass, file, example.sets}); });
  read([&] { fe::ReadMatrixModel({example.stiffness, example.mass, example.nodes, file}); });
  return 0;
}
