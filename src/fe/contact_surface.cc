#include "fe/contact_surface.h"

#include <algorithm>

#include "core/error.h"
#include "fe/mesh_faces.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

ContactSurface WithNodes(std::string name, FaceSet faces) {
  ContactSurface surface{std::move(name), std::move(faces), {}};
  surface.nodes = surface.faces.connectivity;
  std::sort(surface.nodes.begin(), surface.nodes.end());
  surface.nodes.erase(std::unique(surface.nodes.begin(), surface.nodes.end()), surface.nodes.end());
  return surface;
}

}  // namespace

ContactSurface SurfaceFromFaceSet(const Mesh& mesh, const std::string& name) {
  const auto it = mesh.face_sets.find(name);
  if (it == mesh.face_sets.end())
    throw InputError("contact surface", name, "is not a face set of the mesh");
  FaceSet faces = it->second;
  OrientOutward(mesh, faces, "contact surface", name);
  return WithNodes(name, std::move(faces));
}

ContactSurface SurfaceFromNodeSet(const Mesh& mesh, const std::string& name) {
  const auto it = mesh.node_sets.find(name);
  if (it == mesh.node_sets.end())
    throw InputError("contact surface", name, "is not a node set of the mesh");
  return WithNodes(name, BoundaryFaces(mesh, it->second, name));
}

VecX NodalAreas(const Mesh& mesh, const ContactSurface& surface, AreaWeighting weighting) {
  const FaceSet& faces = surface.faces;
  const int per = NodesPerElement(faces.type);
  // Degree: N_i N_j times the area density (exact for flat affine faces, to a tiny
  // quadrature error on curved ones).
  const QuadratureRule rule = Quadrature(faces.type, 6);
  VecX areas = VecX::Zero(static_cast<int>(surface.nodes.size()));
  ShapeValues shape;
  VecX xi;
  for (int f = 0; f < faces.size(); ++f) {
    const MatX x = FaceCoordinates(mesh, faces, f);
    VecX integral_n = VecX::Zero(per), integral_n2 = VecX::Zero(per);
    double area = 0.0;
    for (int q = 0; q < rule.size(); ++q) {
      xi = rule.points.row(q).transpose();
      EvaluateShape(faces.type, xi.data(), shape);
      const double da = rule.weights[q] * FaceNormal(faces.type, x, xi.data()).norm();
      integral_n += da * shape.n;
      integral_n2 += da * shape.n.cwiseAbs2();
      area += da;
    }
    const VecX face_areas = weighting == AreaWeighting::kConsistent
                                ? integral_n
                                : VecX(area * integral_n2 / integral_n2.sum());
    for (int i = 0; i < per; ++i) {
      const auto at =
          std::lower_bound(surface.nodes.begin(), surface.nodes.end(), faces.face(f)[i]);
      areas[static_cast<int>(at - surface.nodes.begin())] += face_areas[i];
    }
  }
  return areas;
}

}  // namespace jointdyn::fe
