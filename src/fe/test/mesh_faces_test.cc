#include "fe/mesh_faces.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

// One element of `type` whose nodes are its reference nodes (z = 0 for 2D types).
Mesh ReferenceElement(ElementType type) {
  const MatX ref = ReferenceNodes(type);
  Mesh mesh;
  mesh.dim = Dimension(type);
  mesh.nodes = decltype(mesh.nodes)::Zero(ref.rows(), 3);
  mesh.nodes.leftCols(ref.cols()) = ref;
  ElementBlock block{.name = "one", .type = type};
  for (int i = 0; i < ref.rows(); ++i) block.connectivity.push_back(i);
  mesh.blocks.push_back(block);
  return mesh;
}

class LocalFacesOf : public ::testing::TestWithParam<ElementType> {};

// Each local face lies on the element's boundary, has the face type's node count, mid
// nodes halfway between its corners, and a normal pointing away from the centroid; the
// boundary of one element is all its faces, oriented as the local faces.
TEST_P(LocalFacesOf, AreOutwardAndComplete) {
  const ElementType type = GetParam();
  const Mesh mesh = ReferenceElement(type);
  const ElementType face_type = FaceType(type);
  const auto& faces = LocalFaces(type);
  EXPECT_EQ(faces.size(), type == ElementType::kTet4 || type == ElementType::kTet10 ? 4u
                          : Dimension(type) == 3                                    ? 6u
                                                                                    : 4u);
  const MatX ref = ReferenceNodes(type);
  Vec3 centroid = Vec3::Zero();
  for (int i = 0; i < mesh.num_nodes(); ++i) centroid += mesh.nodes.row(i).transpose();
  centroid /= mesh.num_nodes();
  FaceSet set{.type = face_type};
  for (const auto& face : faces) {
    ASSERT_EQ(static_cast<int>(face.size()), NodesPerElement(face_type));
    set.connectivity.insert(set.connectivity.end(), face.begin(), face.end());
  }
  const MatX face_ref = ReferenceNodes(face_type);
  for (int f = 0; f < set.size(); ++f) {
    const MatX x = FaceCoordinates(mesh, set, f);
    // The face's own nodes are where its shape functions put them (mid nodes included).
    ShapeValues shape;
    for (int i = 0; i < x.rows(); ++i) {
      const VecX xi = face_ref.row(i).transpose();
      EvaluateShape(face_type, xi.data(), shape);
      ASSERT_LT((x.transpose() * shape.n - x.row(i).transpose()).norm(), 1e-14);
    }
    const VecX center = face_ref.colwise().mean().transpose();
    EvaluateShape(face_type, center.data(), shape);
    const Vec3 point = x.transpose() * shape.n;
    EXPECT_GT(FaceNormal(face_type, x, center.data()).dot(point - centroid), 0.0) << f;
  }
  const FaceSet boundary =
      BoundaryFaces(mesh, mesh.blocks[0].connectivity, "all");  // nodes 0.. are sorted
  auto sorted_faces = [](const FaceSet& faces) {  // the faces in their node order, sorted
    std::vector<std::vector<int>> list;
    for (int f = 0; f < faces.size(); ++f)
      list.emplace_back(faces.face(f), faces.face(f) + NodesPerElement(faces.type));
    std::sort(list.begin(), list.end());
    return list;
  };
  EXPECT_EQ(sorted_faces(boundary), sorted_faces(set));
  FaceSet flipped = set;
  for (int f = 0; f < flipped.size(); ++f) FlipFace(flipped, f);
  OrientOutward(mesh, flipped, "test", "flipped");
  for (int f = 0; f < set.size(); ++f) {
    const VecX center = face_ref.colwise().mean().transpose();
    EXPECT_LT((FaceNormal(face_type, FaceCoordinates(mesh, flipped, f), center.data()) -
               FaceNormal(face_type, FaceCoordinates(mesh, set, f), center.data()))
                  .norm(),
              1e-14);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, LocalFacesOf,
                         ::testing::Values(ElementType::kQuad4, ElementType::kQuad8,
                                           ElementType::kTet4, ElementType::kTet10,
                                           ElementType::kHex8, ElementType::kHex20));

}  // namespace
}  // namespace jointdyn::fe
