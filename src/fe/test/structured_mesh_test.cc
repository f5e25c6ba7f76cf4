// Structured meshes: node counts, and face sets that cover each side with outward normals.
#include "fe/structured_mesh.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "fe/constraints.h"

namespace jointdyn::fe {
namespace {

TEST(StructuredMesh, NodeCountsOfEachType) {
  BoxMeshOptions options;
  options.divisions = {3, 2, 1};
  options.type = ElementType::kHex8;
  EXPECT_EQ(MakeBoxMesh(options).num_nodes(), 4 * 3 * 2);
  options.type = ElementType::kHex20;  // corners + mid-edge nodes (no face or body centres)
  EXPECT_EQ(MakeBoxMesh(options).num_nodes(), 24 + 3 * 3 * 2 + 4 * 2 * 2 + 4 * 3 * 1);
  options.type = ElementType::kTet10;  // every point of the doubled lattice
  EXPECT_EQ(MakeBoxMesh(options).num_nodes(), 7 * 5 * 3);
  EXPECT_EQ(MakeBoxMesh(options).blocks[0].size(), 6 * 6);
  RectangleMeshOptions plane;
  plane.divisions = {3, 2};
  plane.type = ElementType::kQuad8;
  EXPECT_EQ(MakeRectangleMesh(plane).num_nodes(), 7 * 5 - 6);
}

// Sum over the faces of a side of (area-weighted) unit normals: the side's area times its
// outward normal when every face is oriented outward.
Vec3 AreaVector(const Mesh& mesh, const FaceSet& faces) {
  Vec3 total = Vec3::Zero();
  for (int f = 0; f < faces.size(); ++f) {
    const int* n = faces.face(f);
    const Vec3 a = mesh.nodes.row(n[0]), b = mesh.nodes.row(n[1]);
    if (mesh.dim == 2) {  // edge: outward normal (t_y, -t_x) times length
      total += Vec3(b(1) - a(1), a(0) - b(0), 0.0);
      continue;
    }
    const Vec3 c = mesh.nodes.row(n[2]);
    total += 0.5 * (b - a).cross(c - a);
    if (faces.type == ElementType::kQuad4 || faces.type == ElementType::kQuad8) {
      const Vec3 d = mesh.nodes.row(n[3]);
      total += 0.5 * (c - a).cross(d - a);
    }
  }
  return total;
}

TEST(StructuredMesh, FaceSetsCoverTheSidesWithOutwardNormals) {
  const Vec3 size(0.3, 0.2, 0.1);
  for (ElementType type :
       {ElementType::kHex8, ElementType::kHex20, ElementType::kTet4, ElementType::kTet10}) {
    for (int tets : {5, 6}) {
      BoxMeshOptions options;
      options.size = size;
      options.divisions = {3, 2, 2};
      options.type = type;
      options.tets_per_hex = tets;
      const Mesh mesh = MakeBoxMesh(options);
      const char* names[3][2] = {{"xmin", "xmax"}, {"ymin", "ymax"}, {"zmin", "zmax"}};
      for (int d = 0; d < 3; ++d) {
        const double area = size.prod() / size(d);
        for (int side = 0; side < 2; ++side) {
          const Vec3 expected = (side == 0 ? -area : area) * Vec3::Unit(d);
          EXPECT_LT((AreaVector(mesh, mesh.face_sets.at(names[d][side])) - expected).norm(), 1e-14)
              << Name(type) << " " << names[d][side];
          // The face nodes and the node set agree.
          EXPECT_EQ(mesh.FaceSetNodes(names[d][side]), mesh.node_sets.at(names[d][side]));
        }
      }
    }
  }
  RectangleMeshOptions plane;
  plane.size = Vec2(0.3, 0.2);
  plane.divisions = {3, 2};
  plane.type = ElementType::kQuad8;
  const Mesh mesh = MakeRectangleMesh(plane);
  EXPECT_LT((AreaVector(mesh, mesh.face_sets.at("xmax")) - Vec3(0.2, 0, 0)).norm(), 1e-15);
  EXPECT_LT((AreaVector(mesh, mesh.face_sets.at("ymin")) - Vec3(0, -0.3, 0)).norm(), 1e-15);
}

TEST(StructuredMesh, RejectsBadOptions) {
  BoxMeshOptions options;
  options.divisions = {1, 0, 1};
  EXPECT_THROW(MakeBoxMesh(options), InputError);
  options.divisions = {1, 1, 1};
  options.type = ElementType::kQuad4;
  try {
    MakeBoxMesh(options);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "type = quad4: must be hex8, hex20, tet4 or tet10");
  }
  options.type = ElementType::kTet4;
  options.tets_per_hex = 4;
  EXPECT_THROW(MakeBoxMesh(options), InputError);
}

// Divisions whose node or element count overflows an int (UBSan: signed overflow in the
// lattice size) or exceeds the memory are an input error at divisions, counted in double.
TEST(StructuredMesh, RejectsMeshesTooLarge) {
  BoxMeshOptions options;
  options.divisions = {100001, 100001, 100001};
  try {
    MakeBoxMesh(options);
    FAIL();
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("divisions = [100001, 100001, 100001]: gives 1000030000300001 "
                            "elements and 1000060001200008 nodes: needs 5.4e+06 TB for the "
                            "mesh and its matrices but the machine has ",
                            0),
              0u)
        << message;
  }
  const double cells[3] = {2.0, 3.0, 4.0};
  const LatticeCounts tet10 = StructuredMeshCounts(3, cells, ElementType::kTet10, 5);
  EXPECT_EQ(tet10.elements, 120.0);
  EXPECT_EQ(tet10.nodes, 5.0 * 7.0 * 9.0);
  RectangleMeshOptions plane;
  plane.divisions = {2000000000, 2000000000};
  EXPECT_THROW(MakeRectangleMesh(plane), InputError);
}

}  // namespace
}  // namespace jointdyn::fe
