// Abaqus .inp meshes (fe/abaqus_inp.h): node orders converted to Gmsh's (checked by the
// geometry: every mid-edge node at the midpoint of its Gmsh edge), element-face surfaces
// oriented outward, sets, sections as blocks, includes, and the errors of malformed files
// at their file and line.
#include "fe/abaqus_inp.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "fe/mesh_faces.h"
#include "fe/test/mesh_file_test.h"

namespace jointdyn::fe {
namespace {

namespace fs = std::filesystem;

using test_files::ExpectGmshMidpoints;
using test_files::kGmshHexEdges;
using test_files::kGmshTetEdges;
using test_files::kHexCorners;

fs::path Write(const std::string& name, const std::string& text) {
  return test_files::Write("jointdyn_abaqus_inp", name, text);
}

std::string Error(const std::string& text) {
  return test_files::ErrorOf([](const std::string& path) { ReadInp(path); },
                             Write("bad.inp", text));
}

// A distorted hexahedron's corners and Abaqus's C3D20 mid-edge nodes on its edges
// (12 23 34 41 56 67 78 85 15 26 37 48, counted from 1).
std::string Hex20() {
  const auto& c = kHexCorners;
  const auto& edges = test_files::kAbaqusHexEdges;
  std::ostringstream text;
  text << "*Node\n";
  for (int i = 0; i < 8; ++i)
    text << 101 + i << ", " << c[i][0] << ", " << c[i][1] << ", " << c[i][2] << "\n";
  for (int e = 0; e < 12; ++e) {
    text << 109 + e;
    for (int d = 0; d < 3; ++d)
      text << ", " << 0.5 * (c[edges[e].first][d] + c[edges[e].second][d]);
    text << "\n";
  }
  text << "*Element, type=C3D20R, elset=solid\n7, 101, 102, 103, 104, 105, 106, 107, 108, 109, "
          "110, 111, 112, 113, 114, 115,\n116, 117, 118, 119, 120\n";
  return text.str();
}

TEST(AbaqusInp, Hex20NodesFollowGmshOrder) {
  const Mesh mesh = ReadInp(Write("hex20.inp", Hex20()).string());
  ASSERT_EQ(mesh.blocks.size(), 1u);
  EXPECT_EQ(mesh.blocks[0].name, "solid");
  EXPECT_EQ(mesh.blocks[0].type, ElementType::kHex20);
  EXPECT_EQ(mesh.blocks[0].Tag(0), 7);
  EXPECT_EQ(mesh.NodeTag(0), 101);
  ExpectGmshMidpoints(mesh, kGmshHexEdges);
}

TEST(AbaqusInp, Tet10NodesFollowGmshOrder) {
  // C3D10 mid-edge nodes 12 23 31 14 24 34 (from 1) on a skewed tetrahedron.
  const Mesh mesh = ReadInp(Write("tet10.inp",
                                  "*NODE\n1, 0, 0, 0\n2, 2, 0, 0\n3, 0, 3, 0\n4, 0.5, 0.5, 4\n"
                                  "5, 1, 0, 0\n6, 1, 1.5, 0\n7, 0, 1.5, 0\n8, 0.25, 0.25, 2\n"
                                  "9, 1.25, 0.25, 2\n10, 0.25, 1.75, 2\n"
                                  "*ELEMENT, TYPE=C3D10\n1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\n")
                                .string());
  EXPECT_EQ(mesh.blocks.at(0).name, "C3D10");  // no set, no section: named by the type
  ExpectGmshMidpoints(mesh, kGmshTetEdges);
}

// Faces S1 .. S6 of a hexahedron are oriented outward (normal away from the element's
// centre) and keep the element's label as their tag.
TEST(AbaqusInp, ElementFaceSurfacesPointOutward) {
  std::string text = Hex20() + "*Elset, elset=all\n7\n";
  for (int s = 1; s <= 6; ++s)
    text += "*Surface, type=ELEMENT, name=s" + std::to_string(s) + "\nall, S" + std::to_string(s) +
            "\n";
  const Mesh mesh = ReadInp(Write("faces.inp", text).string());
  const Vec3 centre = mesh.nodes.topRows(8).colwise().mean().transpose();
  for (int s = 1; s <= 6; ++s) {
    const FaceSet& set = mesh.face_sets.at("s" + std::to_string(s));
    ASSERT_EQ(set.type, ElementType::kQuad8);
    ASSERT_EQ(set.size(), 1);
    EXPECT_EQ(set.Tag(0), 7);
    const MatX x = FaceCoordinates(mesh, set, 0);
    const double xi[2] = {0.0, 0.0};
    const Vec3 outward = x.topRows(4).colwise().mean().transpose() - centre;
    EXPECT_GT(FaceNormal(set.type, x, xi).dot(outward), 0.0) << "S" << s;
    EXPECT_EQ(mesh.node_sets.at("s" + std::to_string(s)).size(), 8u);  // also a node set
  }
}

// Sets by list, GENERATE and name; an instance prefix; sections as blocks; an *INCLUDE;
// nodes not used by elements left out; ignored keywords counted.
TEST(AbaqusInp, SetsSectionsAndIncludes) {
  Write("nodes.inp",
        "*Node, nset=every\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n"
        "6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n9, 0, 0, 2\n10, 1, 0, 2\n11, 1, 1, 2\n12, 0, 1, 2\n"
        "99, 5, 5, 5\n");
  const std::string text =
      "*Heading\n** a comment\n*Part, name=Bar\n*Include, input=nodes.inp\n"
      "*Element, type=C3D8\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 5, 6, 7, 8, 9, 10, 11, 12\n"
      "*Nset, nset=bottom, generate\n1, 4, 1\n*Nset, nset=Top\n9, 10\n11, 12\n"
      "*Nset, nset=both\nbottom, top\n*Elset, elset=lower\n1\n*Elset, elset=upper, generate\n2, 2\n"
      "*Solid Section, elset=lower, material=Steel\n,\n*Solid Section, elset=UPPER, "
      "material=Steel\n,\n"
      "*End Part\n*Assembly, name=A\n*Instance, name=Bar-1, part=Bar\n*End Instance\n"
      "*Surface, type=ELEMENT, name=Cut\nBar-1.lower, S2\n*End Assembly\n"
      "*Material, name=Steel\n*Elastic\n2.1e11, 0.3\n*Step\n*Static\n*Boundary\nbottom, 1, 3\n"
      "*End Step\n";
  std::map<std::string, int> ignored;
  const Mesh mesh = ReadInp(Write("model.inp", text).string(), &ignored);
  ASSERT_EQ(mesh.blocks.size(), 2u);
  EXPECT_EQ(mesh.blocks[0].name, "lower");
  EXPECT_EQ(mesh.blocks[1].name, "upper");
  EXPECT_EQ(mesh.num_nodes(), 12);  // node 99 is in no element
  EXPECT_EQ(mesh.node_sets.at("every").size(), 12u);
  EXPECT_EQ(mesh.node_sets.at("bottom"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(mesh.node_sets.at("both").size(), 8u);
  EXPECT_EQ(mesh.face_sets.at("Cut").size(), 1);
  EXPECT_EQ(mesh.node_sets.at("Cut"), (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(ignored["*MATERIAL"], 1);
  EXPECT_EQ(ignored["*STEP"], 1);
  EXPECT_EQ(ignored["*BOUNDARY"], 1);
  EXPECT_EQ(ignored["*HEADING"], 1);
}

TEST(AbaqusInp, MalformedFilesAreNamedAtTheirLine) {
  const std::string nodes = "*Node\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n";
  const std::string tet = "*Element, type=C3D4, elset=s\n1, 1, 2, 3, 4\n";
  EXPECT_EQ(Error(nodes + "*Element, type=C3D4\n1, 1, 2, 3\n"),
            "bad.inp:7: element 1: has 3 nodes, C3D4 has 4");
  EXPECT_EQ(Error(nodes + "*Element, type=C3D4\n1, 1, 2, 3, 5\n"),
            "bad.inp:7: element 1 = node 5: is not defined by *NODE");
  EXPECT_EQ(Error(nodes + "*Element, type=S4R\n1, 1, 2, 3, 4\n").substr(0, 44),
            "bad.inp:6: *ELEMENT, TYPE = S4R: is not supp");
  EXPECT_EQ(Error(nodes + tet + "*Surface, name=x\ns, S5\n"),
            "bad.inp:8: *SURFACE, NAME=x = element 1, S5: C3D4 has faces S1 .. S4");
  EXPECT_EQ(Error(nodes + tet + "*Surface, name=x\nnone, S1\n"),
            "bad.inp:9: *SURFACE, NAME=x = none: is neither an element label nor an element set");
  EXPECT_EQ(Error(nodes + tet + "*Elset, elset=e\n2\n"),
            "bad.inp:8: element set e = 2: is not an element");
  EXPECT_EQ(Error(nodes + tet + "*Tie, name=t\na, b\n*MPC\nBEAM, 1, 2\n"),
            "bad.inp:1: constraints = *TIE (bad.inp:8), *MPC (bad.inp:10): are not read from .inp "
            "files: define couplings and contact in the model file");
  EXPECT_EQ(Error(nodes + "5, 1\n"), "bad.inp:6: *NODE = 5, 1: must be: label, x, y[, z]");
  EXPECT_EQ(Error(nodes + "4, 1, 1, 1\n"), "bad.inp:6: node 4: is defined twice (first at line 5)");
  EXPECT_EQ(Error("1, 0, 0\n"), "bad.inp:1: data line = 1, 0, 0: comes before any keyword");
  EXPECT_EQ(Error(nodes + "*Element, type=C3D4\n1, 1, 2, 3, 1\n"),
            "bad.inp:7: element 1 (nodes 1 2 3 1) of block 'C3D4': degenerate element: node 1 "
            "appears twice");
}

}  // namespace
}  // namespace jointdyn::fe
