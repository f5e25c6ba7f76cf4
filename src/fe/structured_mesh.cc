#include "fe/structured_mesh.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/error.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

ElementType LinearType(ElementType type) {
  switch (type) {
    case ElementType::kHex20:
      return ElementType::kHex8;
    case ElementType::kTet10:
      return ElementType::kTet4;
    case ElementType::kQuad8:
      return ElementType::kQuad4;
    case ElementType::kTri6:
      return ElementType::kTri3;
    case ElementType::kLine3:
      return ElementType::kLine2;
    default:
      return type;
  }
}

ElementType FaceType(ElementType type) {
  switch (type) {
    case ElementType::kHex8:
      return ElementType::kQuad4;
    case ElementType::kHex20:
      return ElementType::kQuad8;
    case ElementType::kTet4:
      return ElementType::kTri3;
    case ElementType::kTet10:
      return ElementType::kTri6;
    case ElementType::kQuad4:
      return ElementType::kLine2;
    default:
      return ElementType::kLine3;  // kQuad8
  }
}

using Point = std::array<int, 3>;  // lattice coordinates

// Cell corners are numbered by bits: c = x + 2 y + 4 z with x, y, z in {0, 1}.
Point CornerOffset(int c) { return {c & 1, (c >> 1) & 1, (c >> 2) & 1}; }

// The corner lists (in the linear type's node order) of the elements of one cell.
std::vector<std::vector<int>> CellPieces(ElementType linear, int dim, int tets_per_hex,
                                         bool odd_cell) {
  if (linear != ElementType::kTet4) {  // one hexahedron or quadrilateral per cell
    const MatX reference = ReferenceNodes(linear);
    std::vector<int> corners;
    for (int k = 0; k < reference.rows(); ++k) {
      int c = 0;
      for (int d = 0; d < dim; ++d) c |= (reference(k, d) > 0.0 ? 1 : 0) << d;
      corners.push_back(c);
    }
    return {corners};
  }
  if (tets_per_hex == 6) {  // Kuhn: the paths 0 -> 7 along the cell edges
    return {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  }
  // Five tetrahedra: four corner tetrahedra and a central one; neighbouring cells are
  // mirrored (x -> 1 - x) so that the face diagonals match.
  std::vector<std::vector<int>> pieces = {
      {0, 1, 2, 4}, {3, 2, 1, 7}, {5, 1, 4, 7}, {6, 2, 4, 7}, {1, 2, 4, 7}};
  if (odd_cell) {
    for (auto& piece : pieces) {
      for (int& c : piece) c ^= 1;
    }
  }
  return pieces;
}

struct LatticeSpec {
  int dim;
  std::array<int, 3> cells;
  Vec3 size;
  ElementType type;
  int tets_per_hex;
  double distortion;
  std::string block;
};

Mesh Generate(const LatticeSpec& spec) {
  const int dim = spec.dim;
  const ElementType linear = LinearType(spec.type);
  const int corners_per = NodesPerElement(linear);
  const int nodes_per = NodesPerElement(spec.type);
  const int r = nodes_per > corners_per ? 2 : 1;  // lattice points per cell edge
  std::array<int, 3> extent = {1, 1, 1};
  for (int d = 0; d < dim; ++d) extent[d] = r * spec.cells[d] + 1;
  auto index = [&](const Point& p) { return p[0] + extent[0] * (p[1] + extent[1] * p[2]); };
  const int lattice_size = extent[0] * extent[1] * extent[2];

  // Elements on lattice indices; the reference nodes place the higher-order nodes.
  const MatX reference = ReferenceNodes(spec.type);
  ShapeValues linear_shape;
  std::vector<MatX> linear_n;  // linear shape functions at each node of the element
  for (int k = 0; k < nodes_per; ++k) {
    const VecX xi = reference.row(k).transpose();
    EvaluateShape(linear, xi.data(), linear_shape);
    linear_n.push_back(linear_shape.n);
  }
  std::vector<int> connectivity;
  std::vector<Point> corner_points(corners_per);
  for (int k = 0; k < spec.cells[2]; ++k) {
    for (int j = 0; j < spec.cells[1]; ++j) {
      for (int i = 0; i < spec.cells[0]; ++i) {
        const Point origin = {r * i, r * j, r * k};
        for (const auto& piece : CellPieces(linear, dim, spec.tets_per_hex, (i + j + k) % 2)) {
          for (int c = 0; c < corners_per; ++c) {
            const Point offset = CornerOffset(piece[c]);
            for (int d = 0; d < 3; ++d) corner_points[c][d] = origin[d] + r * offset[d];
          }
          if (linear == ElementType::kTet4) {  // positive orientation
            Mat3 edges;
            for (int c = 1; c < 4; ++c) {
              for (int d = 0; d < 3; ++d)
                edges(d, c - 1) = corner_points[c][d] - corner_points[0][d];
            }
            if (edges.determinant() < 0.0) std::swap(corner_points[1], corner_points[2]);
          }
          for (int a = 0; a < nodes_per; ++a) {
            Point p = {0, 0, 0};
            for (int d = 0; d < 3; ++d) {
              double value = 0.0;
              for (int c = 0; c < corners_per; ++c) value += linear_n[a](c) * corner_points[c][d];
              p[d] = static_cast<int>(std::lround(value));
            }
            connectivity.push_back(index(p));
          }
        }
      }
    }
  }

  // Coordinates of the lattice points; distortion of the interior corner points, then the
  // higher-order nodes on straight edges.
  std::vector<Vec3> position(lattice_size, Vec3::Zero());
  std::mt19937 random(12345);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int p = 0; p < lattice_size; ++p) {
    const Point point = {p % extent[0], (p / extent[0]) % extent[1], p / (extent[0] * extent[1])};
    bool interior_corner = true;
    for (int d = 0; d < dim; ++d) {
      const double cell = spec.size(d) / spec.cells[d];
      position[p](d) = point[d] * cell / r;
      interior_corner &= point[d] % r == 0 && point[d] > 0 && point[d] < extent[d] - 1;
    }
    if (interior_corner && spec.distortion > 0.0) {
      for (int d = 0; d < dim; ++d) {
        position[p](d) += spec.distortion * spec.size(d) / spec.cells[d] * unit(random);
      }
    }
  }
  const int num_elements = static_cast<int>(connectivity.size()) / nodes_per;
  for (int e = 0; e < num_elements; ++e) {
    const int* nodes = connectivity.data() + e * nodes_per;
    for (int a = corners_per; a < nodes_per; ++a) {
      Vec3 x = Vec3::Zero();
      for (int c = 0; c < corners_per; ++c) x += linear_n[a](c) * position[nodes[c]];
      position[nodes[a]] = x;
    }
  }

  // Compaction: only the lattice points of elements become nodes.
  std::vector<int> node_of(lattice_size, -1);
  for (int p : connectivity) node_of[p] = 0;
  int num_nodes = 0;
  for (int& id : node_of) {
    if (id == 0) id = num_nodes++;
  }
  Mesh mesh;
  mesh.dim = dim;
  mesh.nodes.resize(num_nodes, 3);
  for (int p = 0; p < lattice_size; ++p) {
    if (node_of[p] >= 0) mesh.nodes.row(node_of[p]) = position[p].transpose();
  }
  ElementBlock block;
  block.name = spec.block;
  block.type = spec.type;
  block.connectivity.reserve(connectivity.size());
  for (int p : connectivity) block.connectivity.push_back(node_of[p]);
  mesh.blocks.push_back(std::move(block));

  // Sides: node sets and outward-oriented face sets.
  const char* axis_names[3] = {"x", "y", "z"};
  const ElementType face_type = FaceType(spec.type);
  const int face_corners = NodesPerElement(LinearType(face_type));
  auto lattice_point = [&](int p) {
    return Point{p % extent[0], (p / extent[0]) % extent[1], p / (extent[0] * extent[1])};
  };
  for (int d = 0; d < dim; ++d) {
    for (int side = 0; side < 2; ++side) {
      const std::string name = std::string(axis_names[d]) + (side == 0 ? "min" : "max");
      const int plane = side == 0 ? 0 : extent[d] - 1;
      const double sign = side == 0 ? -1.0 : 1.0;  // outward normal along axis d
      std::vector<int>& set = mesh.node_sets[name];
      for (int p = 0; p < lattice_size; ++p) {
        if (node_of[p] >= 0 && lattice_point(p)[d] == plane) set.push_back(node_of[p]);
      }
      std::sort(set.begin(), set.end());
      FaceSet faces;
      faces.type = face_type;
      for (int e = 0; e < num_elements; ++e) {
        const int* nodes = connectivity.data() + e * nodes_per;
        std::vector<Point> on_plane;
        for (int c = 0; c < corners_per; ++c) {
          if (lattice_point(nodes[c])[d] == plane) on_plane.push_back(lattice_point(nodes[c]));
        }
        if (static_cast<int>(on_plane.size()) != face_corners) continue;
        // Counter-clockwise seen from outside: tangent axes (d + 1, d + 2) span +e_d.
        Vec2 centre = Vec2::Zero();
        const int t1 = (d + 1) % 3, t2 = (d + 2) % 3;
        auto key = [&](const Point& p) {
          if (dim == 2) return sign * (d == 0 ? p[1] : -p[0]);  // along (-n_y, n_x)
          return std::atan2(p[t2] - centre(1), p[t1] - centre(0)) * sign;
        };
        for (const Point& p : on_plane) centre += Vec2(p[t1], p[t2]) / face_corners;
        std::sort(on_plane.begin(), on_plane.end(),
                  [&](const Point& a, const Point& b) { return key(a) < key(b); });
        std::vector<int> face;
        for (const Point& p : on_plane) face.push_back(node_of[index(p)]);
        if (r == 2) {  // mid-edge nodes in Gmsh's edge order (0-1, 1-2, ...)
          const int edges = face_corners == 2 ? 1 : face_corners;
          for (int k = 0; k < edges; ++k) {
            const Point& a = on_plane[k];
            const Point& b = on_plane[(k + 1) % face_corners];
            face.push_back(
                node_of[index({(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2})]);
          }
        }
        faces.connectivity.insert(faces.connectivity.end(), face.begin(), face.end());
      }
      mesh.face_sets[name] = std::move(faces);
    }
  }
  const Status valid = mesh.Validate("structured mesh");
  JD_CHECK(valid.ok, valid.message);
  return mesh;
}

void CheckCommon(int dim, const double* size, const int* divisions, double distortion) {
  const char* axes[3] = {"x", "y", "z"};
  for (int d = 0; d < dim; ++d) {
    if (!(size[d] > 0.0 && std::isfinite(size[d]))) {
      throw InputError(std::string("size.") + axes[d], FormatValue(size[d]), "must be > 0");
    }
    if (divisions[d] < 1) {
      throw InputError(std::string("divisions.") + axes[d], std::to_string(divisions[d]),
                       "must be >= 1");
    }
  }
  if (!(distortion >= 0.0 && distortion <= 0.25)) {
    throw InputError("distortion", FormatValue(distortion), "must be in [0, 0.25]");
  }
}

// Throws InputError at "divisions" for a mesh too large (CheckMeshSize).
void CheckLattice(int dim, const int* divisions, ElementType type, int tets_per_hex) {
  const double cells[3] = {double(divisions[0]), double(divisions[1]),
                           dim == 3 ? double(divisions[2]) : 1.0};
  std::string value;
  for (int d = 0; d < dim; ++d) value += (d ? ", " : "[") + std::to_string(divisions[d]);
  const LatticeCounts counts = StructuredMeshCounts(dim, cells, type, tets_per_hex);
  CheckMeshSize("divisions", value + "]", counts.nodes, counts.elements, type);
}

}  // namespace

LatticeCounts StructuredMeshCounts(int dim, const double* cells, ElementType type,
                                   int tets_per_hex) {
  const bool quadratic = NodesPerElement(type) > NodesPerElement(LinearType(type));
  LatticeCounts counts{1.0, LinearType(type) == ElementType::kTet4 ? double(tets_per_hex) : 1.0};
  for (int d = 0; d < dim; ++d) {
    counts.nodes *= (quadratic ? 2.0 : 1.0) * cells[d] + 1.0;
    counts.elements *= cells[d];
  }
  return counts;
}

void BoxMeshOptions::Validate() const {
  CheckCommon(3, size.data(), divisions.data(), distortion);
  if (type != ElementType::kHex8 && type != ElementType::kHex20 && type != ElementType::kTet4 &&
      type != ElementType::kTet10) {
    throw InputError("type", Name(type), "must be hex8, hex20, tet4 or tet10");
  }
  if (tets_per_hex != 5 && tets_per_hex != 6) {
    throw InputError("tets_per_hex", std::to_string(tets_per_hex), "must be 5 or 6");
  }
  CheckLattice(3, divisions.data(), type, tets_per_hex);
}

void RectangleMeshOptions::Validate() const {
  CheckCommon(2, size.data(), divisions.data(), distortion);
  if (type != ElementType::kQuad4 && type != ElementType::kQuad8) {
    throw InputError("type", Name(type), "must be quad4 or quad8");
  }
  CheckLattice(2, divisions.data(), type, 6);
}

Mesh MakeBoxMesh(const BoxMeshOptions& options) {
  options.Validate();
  return Generate({3, options.divisions, options.size, options.type, options.tets_per_hex,
                   options.distortion, options.block});
}

Mesh MakeRectangleMesh(const RectangleMeshOptions& options) {
  options.Validate();
  return Generate({2,
                   {options.divisions[0], options.divisions[1], 1},
                   Vec3(options.size(0), options.size(1), 0.0),
                   options.type,
                   6,
                   options.distortion,
                   options.block});
}

}  // namespace jointdyn::fe
