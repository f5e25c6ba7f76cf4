// Helpers shared by the joint tests.
#pragma once

#include <string>

#include "fe/mesh.h"
#include "fe/structured_mesh.h"

namespace jointdyn::joint::test {

// Appends `part` to `mesh` shifted by `offset` [m], its block renamed `name` and its sets
// prefixed "<name>_" ("upper_zmin").
inline void AppendPart(fe::Mesh& mesh, const fe::Mesh& part, const std::string& name,
                       const Vec3& offset) {
  const int first = mesh.num_nodes();
  mesh.nodes.conservativeResize(first + part.num_nodes(), 3);
  for (int i = 0; i < part.num_nodes(); ++i)
    mesh.nodes.row(first + i) = part.nodes.row(i) + offset.transpose();
  for (fe::ElementBlock block : part.blocks) {
    block.name = name;
    for (int& node : block.connectivity) node += first;
    mesh.blocks.push_back(block);
  }
  for (auto [set, nodes] : part.node_sets) {
    for (int& node : nodes) node += first;
    mesh.node_sets[name + "_" + set] = nodes;
  }
  for (auto [set, faces] : part.face_sets) {
    for (int& node : faces.connectivity) node += first;
    mesh.face_sets[name + "_" + set] = faces;
  }
}

// Two boxes stacked in z: "lower" at the origin and "upper" on top of it, `gap` [m] above
// its top face. Sets "lower_xmin", ..., "upper_zmax".
inline fe::Mesh StackBoxes(const fe::BoxMeshOptions& lower, const fe::BoxMeshOptions& upper,
                           double gap) {
  fe::Mesh mesh;
  mesh.nodes.resize(0, 3);
  AppendPart(mesh, fe::MakeBoxMesh(lower), "lower", Vec3::Zero());
  AppendPart(mesh, fe::MakeBoxMesh(upper), "upper", Vec3(0.0, 0.0, lower.size.z() + gap));
  return mesh;
}

}  // namespace jointdyn::joint::test
