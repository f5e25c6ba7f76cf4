#include "fe/mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "fe/assembly.h"

namespace jointdyn::fe {
namespace {

// Two hex8 elements sharing a face, with a node set and a face set.
Mesh TwoHexes() {
  Mesh mesh;
  mesh.nodes.resize(12, 3);
  for (int i = 0; i < 12; ++i) {
    const int x = i % 3 == 0 ? 0 : (i % 3 == 1 ? 1 : 2);
    mesh.nodes.row(i) << 0.1 * x, 0.1 * ((i / 3) % 2), 0.1 * (i / 6);
  }
  // Nodes (x, y, z) = index 6 z + 3 y + x.
  auto n = [](int x, int y, int z) { return 6 * z + 3 * y + x; };
  ElementBlock block{.name = "part", .type = ElementType::kHex8};
  for (int x = 0; x < 2; ++x) {
    for (int v : {n(x, 0, 0), n(x + 1, 0, 0), n(x + 1, 1, 0), n(x, 1, 0), n(x, 0, 1),
                  n(x + 1, 0, 1), n(x + 1, 1, 1), n(x, 1, 1)})
      block.connectivity.push_back(v);
  }
  mesh.blocks.push_back(block);
  mesh.node_sets["clamp"] = {n(0, 0, 0), n(0, 0, 1), n(0, 1, 0), n(0, 1, 1)};
  std::sort(mesh.node_sets["clamp"].begin(), mesh.node_sets["clamp"].end());
  mesh.face_sets["top"] = {ElementType::kQuad4,
                           {n(0, 0, 1), n(1, 0, 1), n(1, 1, 1), n(0, 1, 1), n(1, 0, 1), n(2, 0, 1),
                            n(2, 1, 1), n(1, 1, 1)}};
  return mesh;
}

TEST(Mesh, TypeTableMatchesGmsh) {
  ElementType type;
  ASSERT_TRUE(FromGmshType(11, type));
  EXPECT_EQ(type, ElementType::kTet10);
  EXPECT_EQ(NodesPerElement(ElementType::kHex20), 20);
  EXPECT_EQ(GmshType(ElementType::kQuad8), 16);
  EXPECT_STREQ(Name(ElementType::kTri6), "tri6");
  EXPECT_FALSE(FromGmshType(7, type));  // 5-node pyramid: not supported
}

TEST(Mesh, ValidMeshPassesAndCounts) {
  const Mesh mesh = TwoHexes();
  EXPECT_TRUE(mesh.Validate("test")) << mesh.Validate("test").message;
  EXPECT_EQ(mesh.num_elements(), 2);
  EXPECT_EQ(mesh.FaceSetNodes("top").size(), 6u);
  EXPECT_THROW(mesh.FaceSetNodes("bottom"), InputError);
}

TEST(Mesh, ValidateNamesTheBrokenPart) {
  auto expect_failure = [](const Mesh& mesh, const std::string& text) {
    const Status status = mesh.Validate("bar.msh");
    ASSERT_FALSE(status);
    EXPECT_NE(status.message.find("bar.msh"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find(text), std::string::npos) << status.message;
  };
  Mesh mesh = TwoHexes();
  mesh.blocks[0].connectivity[3] = 99;
  expect_failure(mesh, "element 0 refers to node index 99");
  mesh.blocks[0].tags = {57, 58};  // the file's tags name the element
  expect_failure(mesh, "element 57 refers to node index 99");
  mesh = TwoHexes();
  mesh.blocks[0].tags = {57};
  expect_failure(mesh, "1 element tags for 2 elements");
  mesh = TwoHexes();
  mesh.node_tags = {1, 2};
  expect_failure(mesh, "2 node tags for 12 nodes");
  mesh = TwoHexes();
  mesh.blocks[0].connectivity.pop_back();
  expect_failure(mesh, "not a multiple of 8");
  mesh = TwoHexes();
  mesh.node_sets["clamp"] = {3, 1};
  expect_failure(mesh, "node set 'clamp'");
  mesh = TwoHexes();
  mesh.face_sets["top"].type = ElementType::kTet4;
  expect_failure(mesh, "face set 'top'");
  mesh = TwoHexes();
  mesh.nodes(2, 1) = std::nan("");
  expect_failure(mesh, "not finite");
  mesh = TwoHexes();
  mesh.blocks.push_back(mesh.blocks[0]);
  expect_failure(mesh, "named twice");
}

TEST(Mesh, EntitiesAreNamedByTheFilesTagsOrByIndex) {
  Mesh mesh = TwoHexes();
  EXPECT_EQ(mesh.NodeName(4), "node 4");  // generated: by index
  EXPECT_EQ(mesh.ElementName(mesh.blocks[0], 1), "element 1 (nodes 1 2 5 4 7 8 11 10)");
  mesh.node_tags.resize(12);
  for (int i = 0; i < 12; ++i) mesh.node_tags[i] = 101 + i;
  mesh.blocks[0].tags = {7, 9};
  EXPECT_EQ(mesh.NodeName(4), "node 105");
  EXPECT_EQ(mesh.ElementName(mesh.blocks[0], 1),
            "element 9 (nodes 102 103 106 105 108 109 112 111)");
  EXPECT_EQ(mesh.FaceName(mesh.face_sets.at("top"), 0), "face 0 (nodes 107 108 111 110)");
}

TEST(Mesh, DegenerateElementsAreFound) {
  Mesh mesh = TwoHexes();
  EXPECT_FALSE(FindDegenerateElement(mesh).has_value());
  mesh.nodes.row(2) = mesh.nodes.row(1);  // element 1 collapses onto its edge
  auto bad = FindDegenerateElement(mesh);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->element, 1);
  EXPECT_EQ(bad->reason, "degenerate element: nodes 1 and 2 coincide at (0.1, 0, 0) m");
  mesh = TwoHexes();
  std::swap_ranges(mesh.blocks[0].connectivity.begin(), mesh.blocks[0].connectivity.begin() + 4,
                   mesh.blocks[0].connectivity.begin() + 4);  // element 0 upside down
  bad = FindDegenerateElement(mesh);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->element, 0);
  EXPECT_EQ(bad->reason.rfind("inverted element: det J = -", 0), 0u) << bad->reason;
  mesh = TwoHexes();
  mesh.blocks[0].connectivity[9] = mesh.blocks[0].connectivity[8];
  bad = FindDegenerateElement(mesh);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->reason, "degenerate element: node 1 appears twice");
}

}  // namespace
}  // namespace jointdyn::fe
