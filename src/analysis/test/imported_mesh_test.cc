// Imported meshes run through an analysis like any other: a distorted hex20 box written as
// an Abaqus .inp and as Nastran bulk data (nodes relabelled, the C3D20 and CHEXA node orders
// derived here from each format's edge list, not from the readers' tables) has the
// eigenfrequencies of the same box generated in memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/modal.h"
#include "fe/structured_mesh.h"

namespace jointdyn::analysis {
namespace {

// Gmsh's hex20 mid-edge nodes 8..19 (mesh.h) and Abaqus's C3D20 ones 8..19 (from 0).
const std::pair<int, int> kGmshEdges[12] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                                            {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
using Edges = std::vector<std::pair<int, int>>;
const Edges kAbaqusEdges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                            {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
const Edges kNastranEdges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {1, 5},
                             {2, 6}, {3, 7}, {4, 5}, {5, 6}, {6, 7}, {7, 4}};

// The Gmsh-ordered node of each node of a 20-node hexahedron whose mid-edge nodes lie on
// `edges`.
std::vector<int> GmshOf(const Edges& edges) {
  std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const auto& [a, b] : edges)
    for (int g = 0; g < 12; ++g)
      if (std::minmax(a, b) == std::minmax(kGmshEdges[g].first, kGmshEdges[g].second))
        order.push_back(8 + g);
  return order;
}

// `mesh` (one hex20 block "box") as an Abaqus input file in millimetres, node labels 1001..,
// element labels 1.., the node set xmin and a section naming the block.
std::filesystem::path WriteInp(const fe::Mesh& mesh) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "jointdyn_box.inp";
  std::ofstream out(path);
  out.precision(17);
  out << "*Heading\n*Node\n";
  for (int n = 0; n < mesh.num_nodes(); ++n)
    out << 1001 + n << ", " << 1e3 * mesh.nodes(n, 0) << ", " << 1e3 * mesh.nodes(n, 1) << ", "
        << 1e3 * mesh.nodes(n, 2) << "\n";
  out << "*Element, type=C3D20R, elset=box\n";
  const fe::ElementBlock& block = mesh.blocks.at(0);
  const std::vector<int> order = GmshOf(kAbaqusEdges);
  for (int e = 0; e < block.size(); ++e) {
    out << e + 1;
    for (size_t i = 0; i < order.size(); ++i)
      out << (i == 15 ? ",\n" : ", ") << 1001 + block.element(e)[order[i]];
    out << "\n";
  }
  out << "*Nset, nset=xmin\n";
  for (int n : mesh.node_sets.at("xmin")) out << 1001 + n << "\n";
  out << "*Solid Section, elset=box, material=steel\n,\n*Material, name=steel\n";
  return path;
}

// `mesh` as Nastran bulk data (free field), GRID IDs 501.., CHEXA IDs 1.., PID 3, the
// nodes of xmin as SET1 7.
std::filesystem::path WriteBdf(const fe::Mesh& mesh) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "jointdyn_box.bdf";
  std::ofstream out(path);
  out.precision(17);
  out << "SOL 103\nCEND\nBEGIN BULK\n";
  for (int n = 0; n < mesh.num_nodes(); ++n)
    out << "GRID," << 501 + n << ",," << mesh.nodes(n, 0) << "," << mesh.nodes(n, 1) << ","
        << mesh.nodes(n, 2) << "\n";
  const fe::ElementBlock& block = mesh.blocks.at(0);
  const std::vector<int> order = GmshOf(kNastranEdges);
  for (int e = 0; e < block.size(); ++e) {
    out << "CHEXA," << e + 1 << ",3";
    for (size_t i = 0; i < order.size(); ++i)
      out << ((i == 6 || i == 14) ? ",+\n+," : ",") << 501 + block.element(e)[order[i]];
    out << "\n";
  }
  out << "SET1,7";
  for (int n : mesh.node_sets.at("xmin")) out << "\n," << 501 + n;  // one ID per continuation
  out << "\nPSOLID,3,1\nENDDATA\n";
  return path;
}

// The modal options of the box, meshed in memory.
ModalOptions BoxModal(const fe::BoxMeshOptions& box) {
  ModalOptions options;
  options.fe.source = fe::MeshSource::kBox;
  options.fe.box = box;
  options.fe.materials = {
      {"box", {.youngs_modulus = 210e9, .poisson_ratio = 0.3, .density = 7850}}};
  options.fe.supports = {{.set = "xmin"}};
  options.mode_count = 6;
  return options;
}

TEST(ModalAnalysis, ImportedMeshesGiveTheFrequenciesOfTheSameMesh) {
  ASSERT_EQ(GmshOf(kAbaqusEdges).size(), 20u);
  ASSERT_EQ(GmshOf(kNastranEdges).size(), 20u);
  fe::BoxMeshOptions box;
  box.size = Vec3(0.2, 0.03, 0.02);
  box.divisions = {6, 2, 1};
  box.type = fe::ElementType::kHex20;
  box.distortion = 0.2;
  const fe::Mesh mesh = fe::MakeBoxMesh(box);
  Observer quiet;
  const ModalResult generated = RunModal(BoxModal(box), quiet);
  ASSERT_TRUE(generated.status) << generated.status.message;
  ASSERT_EQ(generated.frequencies_hz.size(), 6u);
  for (const auto& [file, block] :
       {std::pair(WriteInp(mesh), "box"), std::pair(WriteBdf(mesh), "pid_3")}) {
    ModalOptions read = BoxModal(box);
    read.fe.source = fe::MeshSource::kMshFile;
    read.fe.msh_file = file;
    read.fe.materials = {{block, read.fe.materials.at("box")}};
    if (file.extension() == ".bdf") read.fe.supports = {{.set = "set_7"}};
    if (file.extension() == ".inp") read.fe.mesh_scale = 1e-3;  // written in mm
    const ModalResult imported = RunModal(read, quiet);
    ASSERT_TRUE(imported.status) << file << ": " << imported.status.message;
    EXPECT_EQ(imported.model.mesh.NodeTag(0), file.extension() == ".bdf" ? 501 : 1001);
    EXPECT_EQ(
        imported.model.ignored_keywords.count(file.extension() == ".bdf" ? "PSOLID" : "*MATERIAL"),
        1u);
    ASSERT_EQ(imported.frequencies_hz.size(), 6u);
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(imported.frequencies_hz[i] / generated.frequencies_hz[i], 1.0, 1e-10)
          << file << ", mode " << i + 1;
  }
}

}  // namespace
}  // namespace jointdyn::analysis
