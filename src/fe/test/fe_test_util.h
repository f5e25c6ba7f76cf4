// Helpers shared by the fe tests.
#pragma once

#include <filesystem>
#include <string>

#include "fe/mesh.h"
#include "fe/mesh_faces.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe::test {

// The smallest Jacobian determinant over the quadrature points of all elements of a 3D
// mesh (> 0 for valid, positively oriented elements) [m^3 per reference volume].
inline double MinJacobian(const Mesh& mesh) {
  double minimum = 1e300;
  for (const ElementBlock& block : mesh.blocks) {
    const QuadratureRule rule = Quadrature(block.type, 2);
    const int per = NodesPerElement(block.type);
    ShapeValues shape;
    for (int e = 0; e < block.size(); ++e) {
      MatX x(per, 3);
      for (int i = 0; i < per; ++i) x.row(i) = mesh.nodes.row(block.element(e)[i]);
      for (int q = 0; q < rule.size(); ++q) {
        EvaluateShape(block.type, VecX(rule.points.row(q).transpose()).data(), shape);
        const MatX jacobian = x.transpose() * shape.dn;
        minimum = std::min(minimum, jacobian.determinant());
      }
    }
  }
  return minimum;
}

// The volume of a block by quadrature of the Jacobian determinant [m^3] (exact for linear
// elements with flat faces, to the quadrature error otherwise).
inline double BlockVolume(const Mesh& mesh, const ElementBlock& block) {
  const QuadratureRule rule = Quadrature(block.type, 6);
  const int per = NodesPerElement(block.type);
  ShapeValues shape;
  double volume = 0.0;
  for (int e = 0; e < block.size(); ++e) {
    MatX x(per, 3);
    for (int i = 0; i < per; ++i) x.row(i) = mesh.nodes.row(block.element(e)[i]);
    for (int q = 0; q < rule.size(); ++q) {
      EvaluateShape(block.type, VecX(rule.points.row(q).transpose()).data(), shape);
      volume += rule.weights[q] * (x.transpose() * shape.dn).determinant();
    }
  }
  return volume;
}

// The area of a face set by quadrature [m^2].
inline double FaceSetArea(const Mesh& mesh, const FaceSet& set) {
  const QuadratureRule rule = Quadrature(set.type, 6);
  double area = 0.0;
  for (int f = 0; f < set.size(); ++f) {
    const MatX x = FaceCoordinates(mesh, set, f);
    for (int q = 0; q < rule.size(); ++q)
      area += rule.weights[q] *
              FaceNormal(set.type, x, VecX(rule.points.row(q).transpose()).data()).norm();
  }
  return area;
}

// A fresh scratch directory for one test.
inline std::filesystem::path ScratchDir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("jointdyn_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace jointdyn::fe::test
