#include "fe/mesh_faces.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "core/error.h"
#include "fe/msh_lines.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

int CornerCount(ElementType type) {
  switch (type) {
    case ElementType::kLine2:
    case ElementType::kLine3:
      return 2;
    case ElementType::kTri3:
    case ElementType::kTri6:
    case ElementType::kTet4:
    case ElementType::kTet10:
      return Dimension(type) + 1;
    case ElementType::kQuad4:
    case ElementType::kQuad8:
      return 4;
    case ElementType::kHex8:
    case ElementType::kHex20:
      return 8;
  }
  JD_CHECK(false, "CornerCount: unknown element type");
  return 0;
}

// The reference centroid of a face type (where the orientation is checked).
std::array<double, 2> FaceCenter(ElementType face) {
  if (face == ElementType::kTri3 || face == ElementType::kTri6) return {1.0 / 3.0, 1.0 / 3.0};
  return {0.0, 0.0};
}

// Builds the outward local faces of `element` from its reference nodes: each face is the
// set of nodes on one bounding plane a . xi = b of the reference element (a outward).
std::vector<std::vector<int>> BuildLocalFaces(ElementType element) {
  const MatX ref = ReferenceNodes(element);
  const int dim = Dimension(element);
  const int corners = CornerCount(element);
  const bool simplex = element == ElementType::kTet4 || element == ElementType::kTet10;
  std::vector<std::pair<Vec3, double>> planes;
  for (int k = 0; k < dim; ++k) {
    Vec3 a = Vec3::Zero();
    a[k] = -1.0;
    planes.emplace_back(a, simplex ? 0.0 : 1.0);
    if (!simplex) planes.emplace_back(-a, 1.0);
  }
  if (simplex) planes.emplace_back(Vec3(1.0, 1.0, 1.0), 1.0);
  auto point = [&](int i) {
    Vec3 p = Vec3::Zero();
    for (int d = 0; d < dim; ++d) p[d] = ref(i, d);
    return p;
  };
  std::vector<std::vector<int>> faces;
  for (const auto& [a, b] : planes) {
    std::vector<int> on, mids;
    for (int i = 0; i < ref.rows(); ++i) {
      if (std::abs(a.dot(point(i)) - b) < 1e-9) (i < corners ? on : mids).push_back(i);
    }
    Vec3 center = Vec3::Zero();
    for (int i : on) center += point(i) / static_cast<double>(on.size());
    if (dim == 3) {  // counterclockwise about the outward normal a, from the lowest index
      const Vec3 e1 = (point(on[0]) - center).normalized();
      const Vec3 e2 = a.normalized().cross(e1);
      auto angle = [&](int i) {
        const Vec3 d = point(i) - center;
        const double t = std::atan2(d.dot(e2), d.dot(e1));  // on[0] is at 0
        return t < 0.0 ? t + 2.0 * std::numbers::pi : t;
      };
      std::sort(on.begin() + 1, on.end(), [&](int i, int j) { return angle(i) < angle(j); });
    } else if ((point(on[1]) - point(on[0])).cross(Vec3::UnitZ()).dot(a) < 0.0) {
      std::swap(on[0], on[1]);  // edge normal t x e_z outward
    }
    std::vector<int> face = on;
    const int edges = on.size() == 2 ? 1 : static_cast<int>(on.size());
    for (int e = 0; e < edges && !mids.empty(); ++e) {
      const Vec3 mid = 0.5 * (point(on[e]) + point(on[(e + 1) % on.size()]));
      for (int i : mids) {
        if ((point(i) - mid).norm() < 1e-9) face.push_back(i);
      }
    }
    JD_CHECK(static_cast<int>(face.size()) == NodesPerElement(FaceType(element)),
             std::string("LocalFaces: inconsistent face of ") + Name(element));
    faces.push_back(face);
  }
  return faces;
}

// Sorted corner nodes of a face (padded with INT_MAX): the key that identifies a face.
using FaceKey = std::array<int, 4>;
FaceKey KeyOf(const int* nodes, int corners) {
  FaceKey key;
  key.fill(std::numeric_limits<int>::max());
  for (int i = 0; i < corners; ++i) key[i] = nodes[i];
  std::sort(key.begin(), key.end());
  return key;
}

}  // namespace

ElementType FaceType(ElementType element) {
  switch (element) {
    case ElementType::kQuad4:
      return ElementType::kLine2;
    case ElementType::kQuad8:
      return ElementType::kLine3;
    case ElementType::kTet4:
      return ElementType::kTri3;
    case ElementType::kTet10:
      return ElementType::kTri6;
    case ElementType::kHex8:
      return ElementType::kQuad4;
    case ElementType::kHex20:
      return ElementType::kQuad8;
    default:
      break;
  }
  JD_CHECK(false, std::string("FaceType: ") + Name(element) + " is not a solid or plane element");
  return element;
}

const std::vector<std::vector<int>>& LocalFaces(ElementType element) {
  static const std::map<ElementType, std::vector<std::vector<int>>> faces = [] {
    std::map<ElementType, std::vector<std::vector<int>>> all;
    for (ElementType type : {ElementType::kQuad4, ElementType::kQuad8, ElementType::kTet4,
                             ElementType::kTet10, ElementType::kHex8, ElementType::kHex20}) {
      all[type] = BuildLocalFaces(type);
    }
    return all;
  }();
  const auto it = faces.find(element);
  JD_CHECK(it != faces.end(), std::string("LocalFaces: no faces for ") + Name(element));
  return it->second;
}

Vec3 FaceNormal(ElementType face, const MatX& x, const double* xi) {
  ShapeValues shape;
  EvaluateShape(face, xi, shape);
  const MatX tangents = x.transpose() * shape.dn;  // 3 x Dimension(face)
  const Vec3 t1 = tangents.col(0);
  return Dimension(face) == 2 ? Vec3(t1.cross(Vec3(tangents.col(1))))
                              : Vec3(t1.cross(Vec3::UnitZ()));
}

MatX FaceCoordinates(const Mesh& mesh, const FaceSet& set, int f) {
  const int count = NodesPerElement(set.type);
  MatX x(count, 3);
  for (int i = 0; i < count; ++i) x.row(i) = mesh.nodes.row(set.face(f)[i]);
  return x;
}

void FlipFace(FaceSet& set, int f) {
  int* nodes = set.connectivity.data() + f * NodesPerElement(set.type);
  const int corners = CornerCount(set.type);
  if (corners == 2) {  // lines: the mid node (line3) stays last
    std::swap(nodes[0], nodes[1]);
    return;
  }
  // Corners c0, c_{k-1}, ..., c1; the edge (c'_j, c'_{j+1}) is the old edge k-1-j.
  std::reverse(nodes + 1, nodes + corners);
  if (NodesPerElement(set.type) > corners) std::reverse(nodes + corners, nodes + 2 * corners);
}

void OrientOutward(const Mesh& mesh, FaceSet& set, const std::string& source,
                   const std::string& name) {
  // Elements incident to each node (compressed rows of (block, element)).
  std::vector<int> offsets(mesh.num_nodes() + 1, 0);
  for (const ElementBlock& block : mesh.blocks) {
    for (int node : block.connectivity) ++offsets[node + 1];
  }
  for (int i = 0; i < mesh.num_nodes(); ++i) offsets[i + 1] += offsets[i];
  std::vector<std::pair<int, int>> incident(offsets.back());
  std::vector<int> fill(offsets.begin(), offsets.end() - 1);
  for (int b = 0; b < static_cast<int>(mesh.blocks.size()); ++b) {
    const ElementBlock& block = mesh.blocks[b];
    const int per = NodesPerElement(block.type);
    for (int e = 0; e < block.size(); ++e) {
      for (int i = 0; i < per; ++i) incident[fill[block.element(e)[i]]++] = {b, e};
    }
  }
  const int face_corners = CornerCount(set.type);
  const std::array<double, 2> center = FaceCenter(set.type);
  for (int f = 0; f < set.size(); ++f) {
    const int* face = set.face(f);
    int found_block = -1, found_element = -1;
    for (int k = offsets[face[0]]; k < offsets[face[0] + 1] && found_block < 0; ++k) {
      const auto [b, e] = incident[k];
      const ElementBlock& block = mesh.blocks[b];
      const int* element = block.element(e);
      const int corners = CornerCount(block.type);
      const bool contains = std::all_of(face, face + face_corners, [&](int node) {
        return std::find(element, element + corners, node) != element + corners;
      });
      if (contains) found_block = b, found_element = e;
    }
    if (found_block < 0) {
      throw InputError("face set '" + name + "'", mesh.FaceName(set, f),
                       "is not a face of any element of the element blocks")
          .Located(source, MeshFileLine(mesh, MshEntity::kElement, set.Tag(f)), "");
    }
    const ElementBlock& block = mesh.blocks[found_block];
    const int* element = block.element(found_element);
    const int corners = CornerCount(block.type);
    Vec3 centroid = Vec3::Zero();
    for (int i = 0; i < corners; ++i) centroid += mesh.nodes.row(element[i]).transpose() / corners;
    const MatX x = FaceCoordinates(mesh, set, f);
    ShapeValues shape;
    EvaluateShape(set.type, center.data(), shape);
    const Vec3 face_center = x.transpose() * shape.n;
    if (FaceNormal(set.type, x, center.data()).dot(face_center - centroid) < 0.0) FlipFace(set, f);
  }
}

FaceSet BoundaryFaces(const Mesh& mesh, const std::vector<int>& nodes, const std::string& name) {
  struct Candidate {
    FaceKey key;
    int block, element, face;
  };
  std::vector<Candidate> candidates;
  for (int b = 0; b < static_cast<int>(mesh.blocks.size()); ++b) {
    const ElementBlock& block = mesh.blocks[b];
    const ElementType face_type = FaceType(block.type);
    const auto& local = LocalFaces(block.type);
    for (int e = 0; e < block.size(); ++e) {
      for (int k = 0; k < static_cast<int>(local.size()); ++k) {
        int corner_nodes[4];
        for (int i = 0; i < CornerCount(face_type); ++i)
          corner_nodes[i] = block.element(e)[local[k][i]];
        candidates.push_back({KeyOf(corner_nodes, CornerCount(face_type)), b, e, k});
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.key < b.key; });
  auto in_set = [&](int node) { return std::binary_search(nodes.begin(), nodes.end(), node); };
  FaceSet set;
  bool typed = false;
  for (std::size_t i = 0; i < candidates.size();) {
    std::size_t j = i + 1;
    while (j < candidates.size() && candidates[j].key == candidates[i].key) ++j;
    if (j == i + 1) {  // a face of exactly one element
      const Candidate& c = candidates[i];
      const ElementBlock& block = mesh.blocks[c.block];
      const std::vector<int>& local = LocalFaces(block.type)[c.face];
      const bool inside = std::all_of(local.begin(), local.end(),
                                      [&](int l) { return in_set(block.element(c.element)[l]); });
      if (inside) {
        const ElementType face_type = FaceType(block.type);
        if (typed && face_type != set.type) {
          throw InputError("node set '" + name + "'", Name(face_type),
                           std::string("its boundary faces mix ") + Name(set.type) + " and " +
                               Name(face_type) + ": a surface needs one face type");
        }
        set.type = face_type;
        typed = true;
        for (int l : local) set.connectivity.push_back(block.element(c.element)[l]);
      }
    }
    i = j;
  }
  if (set.connectivity.empty())
    throw InputError("node set '" + name + "'", std::to_string(nodes.size()) + " nodes",
                     "contains no boundary face of the element blocks");
  return set;
}

}  // namespace jointdyn::fe
