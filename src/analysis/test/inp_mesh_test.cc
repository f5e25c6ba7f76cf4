// An Abaqus .inp mesh runs through an analysis like any other: a distorted hex20 box written
// as .inp (nodes relabelled, the C3D20 node order derived here from Abaqus's edge list, not
// from the reader's table) has the eigenfrequencies of the same box generated in memory.
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
const std::pair<int, int> kAbaqusEdges[12] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                              {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

// The Gmsh-ordered node of each Abaqus node of a C3D20.
std::vector<int> GmshOfAbaqus() {
  std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const auto& [a, b] : kAbaqusEdges)
    for (int g = 0; g < 12; ++g)
      if (std::minmax(a, b) == std::minmax(kGmshEdges[g].first, kGmshEdges[g].second))
        order.push_back(8 + g);
  return order;
}

// `mesh` (one hex20 block "box") as an Abaqus input file, node labels 1001.., element
// labels 1.., the node set xmin and a section naming the block.
std::filesystem::path WriteInp(const fe::Mesh& mesh) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "jointdyn_box.inp";
  std::ofstream out(path);
  out.precision(17);
  out << "*Heading\n*Node\n";
  for (int n = 0; n < mesh.num_nodes(); ++n)
    out << 1001 + n << ", " << mesh.nodes(n, 0) << ", " << mesh.nodes(n, 1) << ", "
        << mesh.nodes(n, 2) << "\n";
  out << "*Element, type=C3D20R, elset=box\n";
  const fe::ElementBlock& block = mesh.blocks.at(0);
  const std::vector<int> order = GmshOfAbaqus();
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

TEST(ModalAnalysis, AbaqusInpMeshGivesTheFrequenciesOfTheSameMesh) {
  ASSERT_EQ(GmshOfAbaqus().size(), 20u);
  fe::BoxMeshOptions box;
  box.size = Vec3(0.2, 0.03, 0.02);
  box.divisions = {6, 2, 1};
  box.type = fe::ElementType::kHex20;
  box.distortion = 0.2;
  ModalOptions generated;
  generated.fe.source = fe::MeshSource::kBox;
  generated.fe.box = box;
  generated.fe.materials = {
      {"box", {.youngs_modulus = 210e9, .poisson_ratio = 0.3, .density = 7850}}};
  generated.fe.supports = {{.set = "xmin"}};
  generated.mode_count = 6;
  ModalOptions read = generated;
  read.fe.source = fe::MeshSource::kMshFile;
  read.fe.msh_file = WriteInp(fe::MakeBoxMesh(box));
  Observer quiet;
  const ModalResult a = RunModal(generated, quiet), b = RunModal(read, quiet);
  ASSERT_TRUE(a.status && b.status) << a.status.message << b.status.message;
  EXPECT_EQ(b.model.mesh.NodeTag(0), 1001);
  EXPECT_EQ(b.model.ignored_keywords.at("*MATERIAL"), 1);
  ASSERT_EQ(a.frequencies_hz.size(), 6u);
  ASSERT_EQ(b.frequencies_hz.size(), 6u);
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(b.frequencies_hz[i] / a.frequencies_hz[i], 1.0, 1e-10) << "mode " << i + 1;
}

}  // namespace
}  // namespace jointdyn::analysis
