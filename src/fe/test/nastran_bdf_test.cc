// Nastran bulk data meshes (fe/nastran_bdf.h): small, large and free field cards with
// continuations, node orders converted to Gmsh's (checked by the geometry: every mid-edge
// node at the midpoint of its Gmsh edge), blocks by PID, SET1 node sets, RBE2 and RBE3 as
// couplings, and the errors of malformed files at their file and line.
#include "fe/nastran_bdf.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "fe/test/mesh_file_test.h"

namespace jointdyn::fe {
namespace {

namespace fs = std::filesystem;

using test_files::kHexCorners;

fs::path Write(const std::string& name, const std::string& text) {
  return test_files::Write("jointdyn_nastran_bdf", name, text);
}

// A small-field line: every field padded to 8 characters.
std::string Small(const std::vector<std::string>& fields) {
  std::string line;
  for (const std::string& field : fields) line += field + std::string(8 - field.size(), ' ');
  return line + "\n";
}

std::string Error(const std::string& text) {
  return test_files::ErrorOf([](const std::string& path) { ReadBdf(path); },
                             Write("bad.bdf", text));
}

// A distorted CHEXA with 20 nodes, mid-edge nodes in Nastran's order (12 23 34 41 15 26 37
// 48 56 67 78 85, from 1), GRIDs in small, large and free field with Nastran reals.
std::string Hex20() {
  const auto& c = kHexCorners;
  const auto& edges = test_files::kNastranHexEdges;
  std::ostringstream text;
  text << "$ a comment\nBEGIN BULK\n";
  const auto grid = [&](int id, const double* x) {
    std::ostringstream f[3];
    for (int d = 0; d < 3; ++d) f[d] << x[d];
    if (id % 3 == 0) {
      text << "GRID," << id << ",," << f[0].str() << "," << f[1].str() << "," << f[2].str() << "\n";
    } else if (id % 3 == 1) {
      text << Small({"GRID", std::to_string(id), "", f[0].str(), f[1].str(), f[2].str()});
    } else {  // large field: 16-character fields, the third coordinate on the continuation
      text << "GRID*   " << std::string(16 - std::to_string(id).size(), ' ') << id
           << std::string(16, ' ') << f[0].str() << std::string(16 - f[0].str().size(), ' ')
           << f[1].str() << std::string(16 - f[1].str().size(), ' ') << "\n*       " << f[2].str()
           << "\n";
    }
  };
  for (int i = 0; i < 8; ++i) grid(201 + i, c[i]);
  for (int e = 0; e < 12; ++e) {
    double mid[3];
    for (int d = 0; d < 3; ++d) mid[d] = 0.5 * (c[edges[e].first][d] + c[edges[e].second][d]);
    grid(209 + e, mid);
  }
  text << Small({"CHEXA", "9", "4", "201", "202", "203", "204", "205", "206", "+"})
       << Small({"+", "207", "208", "209", "210", "211", "212", "213", "214", "+"})
       << Small({"+", "215", "216", "217", "218", "219", "220"});
  text << "PSOLID,4,1\nMAT1,1,2.1+11,,0.3,7.85+3\nSET1,5,201,THRU,204\nENDDATA\nGRID,999,,junk\n";
  return text.str();
}

TEST(NastranBdf, Hex20InEveryFieldFormatFollowsGmshOrder) {
  std::map<std::string, int> ignored;
  const Mesh mesh = ReadBdf(Write("hex20.bdf", Hex20()).string(), &ignored);
  ASSERT_EQ(mesh.blocks.size(), 1u);
  const ElementBlock& block = mesh.blocks[0];
  EXPECT_EQ(block.name, "pid_4");
  EXPECT_EQ(block.type, ElementType::kHex20);
  EXPECT_EQ(block.Tag(0), 9);
  EXPECT_EQ(mesh.NodeTag(0), 201);
  EXPECT_EQ(mesh.node_sets.at("set_5"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(mesh.node_sets.at("pid_4").size(), 20u);
  EXPECT_EQ(ignored["PSOLID"], 1);
  EXPECT_EQ(ignored["MAT1"], 1);
  test_files::ExpectGmshMidpoints(mesh, test_files::kGmshHexEdges);
}

TEST(NastranBdf, RealsIncludesAndTets) {
  Write("grids.bdf",
        "GRID,1,,0.,0.,0.\nGRID,2,,2.-3,0.,0.\nGRID,3,,0.,2.0D-3,0.\n"
        "GRID,4,,0.,0.,+2.E-3\n");
  const Mesh mesh = ReadBdf(
      Write("tet.nas", "INCLUDE 'grids.bdf'\nCTETRA,7,1,1,2,3,4\nCTETRA,8,2,1,2,3,4\n").string());
  EXPECT_DOUBLE_EQ(mesh.nodes(1, 0), 2e-3);
  EXPECT_DOUBLE_EQ(mesh.nodes(2, 1), 2e-3);
  EXPECT_DOUBLE_EQ(mesh.nodes(3, 2), 2e-3);
  ASSERT_EQ(mesh.blocks.size(), 2u);
  EXPECT_EQ(mesh.blocks[1].name, "pid_2");
}

// RBE2 and RBE3 spiders from a point off the elements: couplings of the mesh, their tied
// grids node sets (sorted, weights with them; a grid named twice adds its weights).
TEST(NastranBdf, RigidAndInterpolationElementsBecomeCouplings) {
  const Mesh mesh =
      ReadBdf(Write("rbe.bdf",
                    "GRID,1,,0.,0.,0.\nGRID,2,,1.,0.,0.\nGRID,3,,0.,1.,0.\nGRID,4,,0.,0.,1.\n"
                    "GRID,5,,.5,.5,.5\nCTETRA,1,1,1,2,3,4\nRBE2,7,5,123456,3,2\n"
                    "RBE3,8,,5,123456,1.,123,4,2\n,2.5,123,1,4\n")
                  .string());
  ASSERT_EQ(mesh.couplings.size(), 2u);
  const MeshCoupling &rigid = mesh.couplings[0], &distributing = mesh.couplings[1];
  EXPECT_EQ(rigid.reference, "grid_5");
  EXPECT_EQ(rigid.position, Vec3(0.5, 0.5, 0.5));
  EXPECT_TRUE(rigid.rigid);
  EXPECT_EQ(mesh.node_sets.at(rigid.set), (std::vector<int>{1, 2}));
  EXPECT_EQ(rigid.set, "rbe2_7");
  EXPECT_FALSE(distributing.rigid);
  EXPECT_EQ(mesh.node_sets.at(distributing.set), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(distributing.weights, (std::vector<double>{2.5, 1.0, 3.5}));
}

TEST(NastranBdf, MalformedFilesAreNamedAtTheirLine) {
  const std::string grids =
      "GRID,1,,0.,0.,0.\nGRID,2,,1.,0.,0.\nGRID,3,,0.,1.,0.\nGRID,4,,0.,0.,1.\n";
  EXPECT_EQ(Error(grids + "CTETRA,1,1,1,2,3,5\n"),
            "bad.bdf:5: element 1 = node 5: is not defined by a GRID");
  EXPECT_EQ(Error(grids + "CTETRA,1,1,1,2,3\n"),
            "bad.bdf:5: CTETRA 1 = 3 nodes: must have 4 or all 10 nodes");
  EXPECT_EQ(Error("GRID,1,2,0.,0.,0.\n"),
            "bad.bdf:1: GRID 1 CP = 2: coordinates must be in the basic system (CP blank or 0)");
  EXPECT_EQ(Error("GRID,1,,0.,1.x,0.\n"), "bad.bdf:1: GRID 1 X2 = 1.x: must be a finite real");
  EXPECT_EQ(Error(grids + "CTETRA,1,1,1,2,3,4\nRBAR,9,1,2\nCQUAD4,10\nRBAR,11,1,3\n"),
            "bad.bdf: cards = 1 CQUAD4 (first at line 7), 2 RBAR (first at line 6): are not read "
            "from bulk data: define couplings in the model file; wedges, pyramids, shells, beams, "
            "springs and masses are not supported");
  const std::string tet = grids + "GRID,5,,.5,.5,.5\nCTETRA,1,1,1,2,3,4\n";
  EXPECT_EQ(Error(tet + "RBE2,9,1,123456,2\n"),
            "bad.bdf:7: RBE2 9 = GRID 1: is a node of the solid elements: a coupling ties the "
            "mesh to a point off it (define this one in the model file, key couplings)");
  EXPECT_EQ(Error(tet + "RBE2,9,5,123,2\n"),
            "bad.bdf:7: RBE2 9 CM = 123: must be 123456: jointdyn's rigid coupling ties all six "
            "components");
  EXPECT_EQ(Error(tet + "RBE2,9,5,123456,2,6\n"),
            "bad.bdf:7: RBE2 9 = GRID 6: is no node of the solid elements (only those can be "
            "tied)");
  EXPECT_EQ(Error(tet + "RBE3,9,,5,123456,1.,123,1,2\n,UM,3,123\n"),
            "bad.bdf:7: RBE3 9 UM: is not supported: the reference grid must be the dependent "
            "one (no UM)");
  EXPECT_EQ(Error(tet + "RBE3,9,,5,123456,1.,12,1,2\n"),
            "bad.bdf:7: RBE3 9 C = 12: must be 123: the grids enter the fit with their "
            "translations");
  EXPECT_EQ(Error(grids + "CTETRA,1,1,1,2,3,4\nCTETRA,1,1,1,2,4,3\n"),
            "bad.bdf:6: CTETRA 1: reuses an element ID");
  EXPECT_EQ(Error(grids + "CTETRA,1,1,1,2,3,4\nSET1,3,1,THRU,9\n"),
            "bad.bdf:6: set_3 = 5: is not a GRID");
  EXPECT_EQ(Error(grids + "CTETRA,1,1,1,2,4,3\n"),
            "bad.bdf:5: element 1 (nodes 1 2 4 3) of block 'pid_1': inverted element: det J = -1 "
            "at quadrature point 0");
}

}  // namespace
}  // namespace jointdyn::fe
